import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// The shopping lists in the reminders store: found by the identifier the book recorded, and
/// read with EventKit's reminder predicates.
struct ShoppingLists {
  let book: RecipeBook
  let store: EKEventStore

  // MARK: pattern fetch

  /// Every reminder in `lists`, to buy and bought, in one fetch.
  func items(in lists: [EKCalendar]) -> [EKReminder] {
    guard !lists.isEmpty else { return [] }  // a nil list of calendars would mean every list
    return Self.fetch(store.predicateForReminders(in: lists), from: store)
  }

  /// The list's items still to buy, then those checked off: the incomplete and completed
  /// predicates (nil dates: whatever their due or completion date).
  func itemsByState(in list: EKCalendar) -> (toBuy: [EKReminder], bought: [EKReminder]) {
    let toBuy = store.predicateForIncompleteReminders(
      withDueDateStarting: nil, ending: nil, calendars: [list])
    let bought = store.predicateForCompletedReminders(
      withCompletionDateStarting: nil, ending: nil, calendars: [list])
    return (Self.fetch(toBuy, from: store), Self.fetch(bought, from: store))
  }

  /// Reminders are fetched only this way: `fetchReminders(matching:completion:)` answers on a
  /// queue of the store's, and a command needs the answer before it returns, so it waits.
  static func fetch(_ predicate: NSPredicate, from store: EKEventStore) -> [EKReminder] {
    // OpenEventKit sample kit only: waitForAnswer, as a REPL command waits for the completion.
    // An app awaits it: `await withCheckedContinuation { continuation in
    // store.fetchReminders(matching: predicate) { continuation.resume(returning: $0 ?? []) } }`.
    waitForAnswer { answer in
      store.fetchReminders(matching: predicate) { reminders in answer(reminders ?? []) }
    }
  }

  // MARK: pattern identifiers

  /// The recipe's list, when the book recorded one and it is still in the store. Found by its
  /// `calendarIdentifier`, never by title: the person may rename a list, and another list may
  /// take its title.
  func list(of recipe: Recipe) throws -> EKCalendar? {
    guard let record = try book.shoppingList(of: recipe) else { return nil }
    return store.calendar(withIdentifier: record.calendarIdentifier)
  }

  /// The reminder recorded for an ingredient, by its `calendarItemIdentifier`, when it is
  /// still on `list`: checked off or not, renamed or not. One moved to another list no
  /// longer counts, and one removed elsewhere is nil (the ingredient is added again).
  func recordedItem(_ identifier: String, on list: EKCalendar) -> EKReminder? {
    guard let item = store.calendarItem(withIdentifier: identifier) as? EKReminder,
      item.calendar?.calendarIdentifier == list.calendarIdentifier
    else { return nil }
    return item
  }

  // MARK: By name, for the person

  /// The recipe's list, or an error that says what to do when there is none.
  func existingList(of recipe: Recipe) throws -> EKCalendar {
    if let list = try list(of: recipe) { return list }
    if try book.shoppingList(of: recipe) != nil {
      throw RecipeError(
        "The shopping list for \(recipe.name) was deleted in another app; "
          + "'shop \(recipe.name)' makes a new one, 'delete-list \(recipe.name)' forgets it.")
    }
    throw RecipeError(
      "\(recipe.name) has no shopping list yet; 'shop \(recipe.name)' makes one.")
  }

  /// The item of `list` a person names, ignoring case and accents; a near miss is answered
  /// with the nearest title.
  func item(named text: String, in list: EKCalendar) throws -> EKReminder {
    let all = items(in: [list])
    if let item = all.first(where: { NearestName.key($0.title) == NearestName.key(text) }) {
      return item
    }
    let nearest = NearestName.suggestion(for: text, among: all.map(\.title))
    throw RecipeError(
      "\"\(list.title)\" has no item '\(text)'"
        + (nearest.map { "; did you mean \"\($0)\"?" } ?? "; 'list \(list.title)' shows them."))
  }
}
