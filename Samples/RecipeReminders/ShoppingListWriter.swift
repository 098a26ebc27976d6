import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// `shop RECIPE [--no-batch]`: a recipe's ingredients written as a reminders list.
///
/// The list is a reminders list (`EKCalendar(for: .reminder, eventStore:)`) titled with the
/// recipe's name, in the account of the person's default list, saved and committed first.
/// Then each ingredient missing from it becomes an `EKReminder` (its title the ingredient, its
/// notes the amount), saved with `commit: false`, and one `commit()` writes them all in one
/// transaction: one write to the database instead of one per item, and another app sees none
/// of them or all. `--no-batch` commits each on its own, to show what that costs.
///
/// When the commit fails (another app deleted the list in between), nothing of the batch was
/// written; `reset()` drops the unsaved reminders so that a later commit does not meet them.
///
/// The store and the book are two databases, so a run stopped between writing to one and
/// to the other (a crash, `kill -9`) could leave a list or items the book has no record of.
/// The identifiers of what is about to be written are recorded first (the kit's
/// `CalendarWork`), and the work is marked done with the book's record of them: work found
/// unfinished at the next start has what it wrote removed.
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
    let work = try book.database.beginAdding(
      "adding \(Self.items(missing.count)) to \"\(list.title)\"", .reminder,
      items: reminders.map(\.calendarItemIdentifier))
    var written: [AddedItem] = []
    let took: Duration
    do {
      took = try write(Array(zip(missing, reminders)), batch: batch, written: &written)
    } catch {
      try failed(
        error, list: list, recipe: recipe, madeList: madeList, written: written, work: work)
    }
    try book.recordItems(written, of: recipe, finishing: work)
    let how = batch ? "in one commit" : "with \(missing.count) commits, one per item"
    console.print(
      "Added \(Self.items(missing.count)) to \"\(list.title)\" \(how): "
        + "\(Self.milliseconds(took)).")
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
    let work = try book.database.beginAdding(
      "making the list \"\(recipe.name)\"", .reminder, items: [],
      calendars: [list.calendarIdentifier])
    try store.saveCalendar(list, commit: true)
    try book.recordList(list.calendarIdentifier, of: recipe, finishing: work)
    return list
  }

  /// The ingredients the list lacks. An ingredient is on the list, checked off or not, when
  /// the reminder recorded for it is still there, or when an item has its name (one the
  /// person added by hand).
  private func missingIngredients(of recipe: Recipe, on list: EKCalendar, record: ListRecord)
    -> [Ingredient]
  {
    let items = ShoppingLists(book: book, store: store).items(in: [list])
    let present = Set(items.map(\.calendarItemIdentifier))
    let titles = Set(items.map { NearestName.key($0.title) })
    return recipe.ingredients.filter { ingredient in
      let key = NearestName.key(ingredient.name)
      return !titles.contains(key) && !(record.items[key].map(present.contains) ?? false)
    }
  }

  // MARK: Writing

  /// Writes a reminder per ingredient, adding each written to `written`; the time from the
  /// first save to the last write, so that both ways are timed alike. In a batch, every
  /// reminder is saved with `commit: false` (which only checks and stages it) and the one
  /// `commit()` writes them; one by one, each is saved with `commit: true`.
  private func write(
    _ items: [(Ingredient, EKReminder)], batch: Bool, written: inout [AddedItem]
  ) throws -> Duration {
    if batch {
      let took = try ContinuousClock().measure {
        for (_, reminder) in items { try store.save(reminder, commit: false) }
        try store.commit()
      }
      written = items.map { ($0, $1.calendarItemIdentifier) }
      return took
    }
    return try ContinuousClock().measure {
      for (ingredient, reminder) in items {
        try store.save(reminder, commit: true)
        written.append((ingredient, reminder.calendarItemIdentifier))
      }
    }
  }

  private func reminder(for ingredient: Ingredient, in list: EKCalendar) -> EKReminder {
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = list
    reminder.title = ingredient.name
    reminder.notes = ingredient.amount.isEmpty ? nil : ingredient.amount
    return reminder
  }

  // MARK: When the write fails

  /// Drops what was not written (`reset()`), keeps the record true, and says what happened.
  /// A list this command made and could not fill is removed, so that no half list is left.
  private func failed(
    _ error: any Error, list: EKCalendar, recipe: Recipe, madeList: Bool, written: [AddedItem],
    work: CalendarWork
  ) throws -> Never {
    store.reset()
    guard store.calendar(withIdentifier: list.calendarIdentifier) != nil else {
      try book.forgetList(of: recipe, finishing: work)
      throw RecipeError(
        "The list \"\(list.title)\" was deleted by another app while its items were being "
          + "written, so none were added (the unsaved ones were dropped with reset()). "
          + "'shop \(recipe.name)' makes a new list.")
    }
    if written.isEmpty, madeList {
      try? store.removeCalendar(list, commit: true)
      try book.forgetList(of: recipe, finishing: work)
    } else {
      try book.recordItems(written, of: recipe, finishing: work)
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

  /// "1.4 ms".
  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return String(format: "%.1f ms", value)
  }
}
