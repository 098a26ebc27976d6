import Foundation
import OpenEventKit
import REPLKit

/// `shop`, `lists`, `list` and `delete-list`: the shopping lists themselves.
extension RecipeCommands {
  func shop(_ words: [String], batch: Bool) throws {
    let recipe = try book.recipe(named: words.joined(separator: " "))
    let store = try store()
    defer { changes.noteOwnChange(on: recipe.name) }  // the whole list: StoreChanges.swift
    try ShoppingListWriter(book: book, store: store, console: console).shop(recipe, batch: batch)
  }

  func lists() throws {
    let recorded = try book.shoppingLists()
    guard !recorded.isEmpty else {
      return console.print("No shopping lists yet; 'shop RECIPE' makes one.")
    }
    let store = try store()
    let lists = ShoppingLists(book: book, store: store)
    var rows: [[String]] = []
    for (recipe, record) in recorded {
      guard let list = store.calendar(withIdentifier: record.calendarIdentifier) else {
        // The book and the store are read one after the other: another run of this app may
        // have forgotten and removed the list in between. Only a list still recorded was
        // deleted elsewhere.
        if try book.shoppingList(of: recipe)?.calendarIdentifier == record.calendarIdentifier {
          rows.append([recipe.name, "-", "-", "deleted in another app"])
        }
        continue
      }
      let items = lists.items(in: [list])
      let bought = items.count { $0.isCompleted }
      rows.append([list.title, "\(items.count - bought)", "\(bought)", ""])
    }
    console.table(rows, header: ["list", "to buy", "bought", ""])
  }

  /// The list's items to buy, then those bought, each fetched with its own predicate.
  func list(_ words: [String]) throws {
    let recipe = try book.recipe(named: words.joined(separator: " "))
    let store = try store()
    let lists = ShoppingLists(book: book, store: store)
    let list = try lists.existingList(of: recipe)
    let (toBuy, bought) = lists.itemsByState(in: list)
    console.print("\"\(list.title)\": \(toBuy.count) to buy, \(bought.count) bought.")
    let order = Dictionary(
      recipe.ingredients.enumerated().map { (NearestName.key($0.element.name), $0.offset) },
      uniquingKeysWith: { first, _ in first })
    let sorted: ([EKReminder]) -> [EKReminder] = { items in
      items.sorted {
        (order[NearestName.key($0.title)] ?? .max, $0.title ?? "")
          < (order[NearestName.key($1.title)] ?? .max, $1.title ?? "")
      }
    }
    let text = ItemText(timeZone: console.timeZone)
    console.table(
      sorted(toBuy).map { ["[ ]", $0.title ?? "", $0.notes ?? "", text.details($0)] }
        + sorted(bought).map { ["[x]", $0.title ?? "", $0.notes ?? "", text.details($0)] })
  }

  func deleteList(_ words: [String]) throws {
    let recipe = try book.recipe(named: words.joined(separator: " "))
    let store = try store()
    defer { changes.noteOwnChange(on: recipe.name) }  // the whole list: StoreChanges.swift
    let lists = ShoppingLists(book: book, store: store)
    guard let list = try lists.list(of: recipe) else {
      // Deleted in another app: nothing is left in the store, so the book forgets its record
      // of the list, as the person asked, and `lists` no longer shows it.
      guard try book.forgetDeletedList(of: recipe, in: store) else {
        _ = try lists.existingList(of: recipe)  // throws: no list made yet
        return
      }
      return console.print(
        "Forgot the list for \(recipe.name), which was deleted in another app.")
    }
    // Noted first, so that a run stopped half way has it finished (CrashSafety.swift).
    try CrashSafety(book: book).deleteList(list, of: recipe) {
      try store.removeCalendar(list, commit: true)
    }
    console.print("Deleted the list \"\(list.title)\" and its items.")
  }
}
