import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// `shop RECIPE [--no-batch]`: a recipe's ingredients written as a reminders list.
///
/// The list is a reminders list (`EKCalendar(for: .reminder, eventStore:)`) titled with the
/// recipe's name, in the account of the person's default list, saved and committed first.
/// Then each ingredient missing from it becomes an `EKReminder` (its title the ingredient, its
/// notes the amount), written in one commit (ShoppingBatch.swift), or one commit per item with
/// `--no-batch`, timed from outside (ShoppingTiming.swift). The notes that keep the store and
/// the book in step across a crash are CrashSafety.swift's.
struct ShoppingListWriter {
  let book: RecipeBook
  let store: EKEventStore
  let console: Console

  func shop(_ recipe: Recipe, batch: Bool) throws {
    let record = try book.shoppingList(of: recipe)
    let list: EKCalendar
    let missing: [Ingredient]
    let madeList: Bool
    if let record, let found = store.calendar(withIdentifier: record.calendarIdentifier) {
      list = found
      missing = missingIngredients(of: recipe, on: found, record: record)
      let count = recipe.ingredients.count
      if missing.isEmpty {
        console.print("\"\(list.title)\" already has all \(count) ingredients; nothing to add.")
        return
      }
      console.print(
        "\"\(list.title)\" has \(count - missing.count) of the \(count) ingredients; adding "
          + Console.list(missing.map(\.name)) + ".")
      madeList = false
    } else {
      list = try makeList(for: recipe)
      missing = recipe.ingredients
      console.print(
        (record == nil ? "" : "The list made before for \(recipe.name) was deleted elsewhere. ")
          + "Made the reminders list \"\(list.title)\" in \(list.source.title); "
          + "adding its \(Ingredient.count(missing.count)).")
      madeList = true
    }
    let reminders = missing.map { reminder(for: $0, in: list) }
    let note = try CrashSafety(book: book).addingItems(reminders, to: list)
    let items = ShoppingBatch(store: store)
    var written: [AddedItem] = []
    let took: Duration
    // Read before the writes: on Apple's platforms reset() invalidates every object from this
    // store, the list among them, so a failure finds the list again by its identifier.
    let listBefore = (identifier: list.calendarIdentifier, title: list.title)
    do {
      if batch {
        took = try ShoppingTiming.timed { try items.saveAll(reminders) }
        written = zip(missing, reminders).map { ($0, $1.calendarItemIdentifier) }
      } else {
        took = try ShoppingTiming.timed {
          // Saved in order: the next one written is the next ingredient's.
          try items.saveOneByOne(reminders) { reminder in
            written.append((missing[written.count], reminder.calendarItemIdentifier))
          }
        }
      }
    } catch {
      // A batch was reset where it failed (ShoppingBatch.swift); one by one, the item whose
      // save failed is dropped here, so that a later commit does not meet it.
      if !batch { store.reset() }
      try failed(
        error, list: listBefore, recipe: recipe, madeList: madeList, written: written, note: note)
    }
    try note.record(written, of: recipe)
    let how = batch ? "in one commit" : "with \(missing.count) commits, one per item"
    console.print(
      "Added \(Self.items(missing.count)) to \"\(list.title)\" \(how): "
        + "\(ShoppingTiming.milliseconds(took)) \(ShoppingTiming.conditions).")
  }

  // MARK: The list

  /// A new reminders list for the recipe, in the account (source) of the default list, or
  /// the local one when there is no default; committed and recorded at once, so that the
  /// next `shop` finds it even if this one stops half way.
  private func makeList(for recipe: Recipe) throws -> EKCalendar {
    let list = EKCalendar(for: .reminder, eventStore: store)
    list.title = recipe.name
    guard
      let source = store.defaultCalendarForNewReminders()?.source
        ?? store.sources.first(where: { $0.sourceType == .local })
    else {
      throw RecipeError("There is no account to keep a reminders list in.")
    }
    list.source = source
    try CrashSafety(book: book).makeList(list, for: recipe) {
      try store.saveCalendar(list, commit: true)
    }
    return list
  }

  /// The ingredients the list lacks. An ingredient is on the list, checked off or not, when
  /// the reminder recorded for it is still there, or when an item has its name (one the
  /// person added by hand).
  private func missingIngredients(of recipe: Recipe, on list: EKCalendar, record: ListRecord)
    -> [Ingredient]
  {
    let lists = ShoppingLists(book: book, store: store)
    let titles = Set(lists.items(in: [list]).map { NearestName.key($0.title) })
    return recipe.ingredients.filter { ingredient in
      let key = NearestName.key(ingredient.name)
      let recorded = record.items[key].flatMap { lists.recordedItem($0, on: list) }
      return !titles.contains(key) && recorded == nil
    }
  }

  // MARK: The items

  private func reminder(for ingredient: Ingredient, in list: EKCalendar) -> EKReminder {
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = list
    reminder.title = ingredient.name
    reminder.notes = ingredient.amount.isEmpty ? nil : ingredient.amount
    return reminder
  }

  // MARK: When the write fails

  /// After what was not written was dropped (`reset()`): keeps the record true, and says what
  /// happened. A list this command made and could not fill is removed, so that no half list
  /// is left. `list` is its identifier and title, read before the writes.
  private func failed(
    _ error: any Error, list listBefore: (identifier: String, title: String), recipe: Recipe,
    madeList: Bool, written: [AddedItem], note: CrashSafety.AddingItems
  ) throws -> Never {
    let title = listBefore.title
    guard let list = store.calendar(withIdentifier: listBefore.identifier) else {
      try note.forgetList(of: recipe)
      throw RecipeError(
        "The list \"\(title)\" was deleted by another app while its items were being "
          + "written, so none were added (the unsaved ones were dropped with reset()). "
          + "'shop \(recipe.name)' makes a new list.")
    }
    if written.isEmpty, madeList {
      try? store.removeCalendar(list, commit: true)
      try note.forgetList(of: recipe)
    } else {
      try note.record(written, of: recipe)
    }
    let added =
      written.isEmpty ? "nothing was added" : "the first \(Self.items(written.count)) went on it"
    throw RecipeError(
      "Could not write the items of \"\(list.title)\": \(ErrorText.of(error)); \(added).")
  }

  /// An item written, with the ingredient it is for.
  typealias AddedItem = (ingredient: Ingredient, identifier: String)

  /// "1 item", "8 items".
  static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

}
