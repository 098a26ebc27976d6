import Foundation
import OpenEventKit
import REPLKit

/// The shopping lists in the reminders store: found by the identifier the book recorded
/// (the person may rename a list, and another list may take its title), and read with
/// EventKit's reminder predicates.
struct ShoppingLists {
  let book: RecipeBook
  let store: EKEventStore

  /// The recipe's list, when the book recorded one and it is still in the store.
  func list(of recipe: Recipe) throws -> EKCalendar? {
    guard let record = try book.shoppingList(of: recipe) else { return nil }
    return store.calendar(withIdentifier: record.calendarIdentifier)
  }

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

  /// Every reminder in `lists`, to buy and bought, in one fetch.
  func items(in lists: [EKCalendar]) -> [EKReminder] {
    guard !lists.isEmpty else { return [] }
    return Self.fetch(store.predicateForReminders(in: lists), from: store)
  }

  /// The list's items still to buy, then those checked off: the incomplete and completed
  /// predicates, each fetched on the store's queue.
  func itemsByState(in list: EKCalendar) -> (toBuy: [EKReminder], bought: [EKReminder]) {
    let toBuy = store.predicateForIncompleteReminders(
      withDueDateStarting: nil, ending: nil, calendars: [list])
    let bought = store.predicateForCompletedReminders(
      withCompletionDateStarting: nil, ending: nil, calendars: [list])
    return (Self.fetch(toBuy, from: store), Self.fetch(bought, from: store))
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

  /// `fetchReminders(matching:)` calls back on the store's queue; a command waits for it.
  static func fetch(_ predicate: NSPredicate, from store: EKEventStore) -> [EKReminder] {
    let results = Results()
    let done = DispatchSemaphore(value: 0)
    store.fetchReminders(matching: predicate) { reminders in
      results.set(reminders ?? [])
      done.signal()
    }
    done.wait()
    return results.reminders
  }

  /// The reminders, handed from the store's queue to the waiting command.
  private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [EKReminder] = []
    func set(_ reminders: [EKReminder]) { lock.withLock { value = reminders } }
    var reminders: [EKReminder] { lock.withLock { value } }
  }
}
