import Foundation
import OpenEventKit
import OpenEventKitApp

// Optional. The reminders store and recipes.sqlite are two databases, so a run stopped
// between writing to one and to the other (a crash, `kill -9`) could leave a list or items the
// book has no record of. loan-scheduler's article teaches how to keep them in step
// ("Optional, advanced: surviving a kill between the calendar and your own database"); this
// app does it the same way, with the kit's `CalendarWork`, and nothing else of the app knows
// of it. It is deliberately not one of this sample's patterns.

/// Notes, in recipes.sqlite, what is about to be written to the store, and marks the note done
/// in the same transaction as the book's record of what was written: work found unfinished at
/// the next start has what it wrote removed ("Repaired: …", the kit's
/// `AppSession.repairUnfinishedWork(of:in:)`).
struct CrashSafety {
  let book: RecipeBook

  /// Makes a list: its identifier is noted before `save` commits it, and the book's record
  /// of the list finishes the note, so that the next `shop` finds the list even if this one
  /// stops half way.
  func makeList(_ list: EKCalendar, for recipe: Recipe, save: () throws -> Void) throws {
    let work = try book.database.beginAdding(
      "making the list \"\(recipe.name)\"", .reminder, items: [],
      calendars: [list.calendarIdentifier])
    try save()
    try book.recordList(list.calendarIdentifier, of: recipe, alongside: work.finish)
  }

  /// Before a list's items are saved: their identifiers, noted. What was written is then
  /// recorded, or the list forgotten, through the note returned.
  func addingItems(_ reminders: [EKReminder], to list: EKCalendar) throws -> AddingItems {
    let work = try book.database.beginAdding(
      "adding \(ShoppingListWriter.items(reminders.count)) to \"\(list.title)\"", .reminder,
      items: reminders.map(\.calendarItemIdentifier))
    return AddingItems(book: book, work: work)
  }

  /// Items being added to a list, noted; each way to end finishes the note.
  struct AddingItems {
    let book: RecipeBook
    let work: CalendarWork

    /// The items written, recorded by ingredient.
    func record(_ written: [ShoppingListWriter.AddedItem], of recipe: Recipe) throws {
      try book.recordItems(written, of: recipe, alongside: work.finish)
    }

    /// The list is gone (deleted elsewhere, or removed again with nothing on it): forgotten.
    func forgetList(of recipe: Recipe) throws {
      try book.forgetList(of: recipe, alongside: work.finish)
    }
  }

  /// Deletes a list: the book's record goes first, with a note of the list to remove, so a
  /// run stopped before `remove` has the removal finished at the next start.
  func deleteList(_ list: EKCalendar, of recipe: Recipe, remove: () throws -> Void) throws {
    let work = try book.database.beginRemoving(
      "deleting the list \"\(list.title)\"", .reminder, items: [],
      calendars: [list.calendarIdentifier]
    ) { db in try RecipeBook.forgetList(of: recipe, in: db) }
    try remove()
    try book.database.finish(work)
  }
}
