import Foundation
import OpenEventKit

/// What other apps did to the shopping lists, told at the next prompt (at once while the
/// prompt waits on a terminal): StoreChanges compares each list as it was with the list now,
/// by recipe name, and these are its sentences, such as
/// `On "Crêpes": eggs was checked off; butter was added.`
enum ShoppingChanges {
  /// A list as the app last saw it: its title, and its items by `calendarItemIdentifier`.
  struct ListState: Equatable {
    var title: String
    var items: [String: ItemState]
  }

  struct ItemState: Equatable {
    var title: String
    var isCompleted: Bool
  }

  /// Every recorded list still in the store, by recipe name; a deleted list is absent.
  static func snapshot(_ store: EKEventStore, book: RecipeBook) -> [String: ListState] {
    let recorded = (try? book.shoppingLists()) ?? []
    let lists = recorded.compactMap { entry in
      store.calendar(withIdentifier: entry.list.calendarIdentifier).map { (entry.recipe, $0) }
    }
    // One fetch for every list, then each item to its own.
    let items = ShoppingLists(book: book, store: store).items(in: lists.map(\.1))
    let byList = Dictionary(grouping: items) { $0.calendar?.calendarIdentifier ?? "" }
    var states: [String: ListState] = [:]
    for (recipe, list) in lists {
      let items = byList[list.calendarIdentifier] ?? []
      states[recipe.name] = ListState(
        title: list.title,
        items: Dictionary(
          uniqueKeysWithValues: items.map {
            (
              $0.calendarItemIdentifier,
              ItemState(title: $0.title ?? "", isCompleted: $0.isCompleted)
            )
          }))
    }
    return states
  }

  /// The sentence for one list's change; nil for a list the app forgot. A list new to the app
  /// was made by another copy of it (its own `shop` takes its list as its own change).
  static func sentence(_ change: StoreChanges.Change) -> String? {
    guard let before = change.before else {
      return change.after.map {
        "The list \"\($0.title)\" was made, with \(ShoppingListWriter.items($0.items.count))."
      }
    }
    guard let after = change.after else { return "The list \"\(before.title)\" was deleted." }
    var parts: [(title: String, text: String)] = []
    for (id, item) in after.items {
      guard let old = before.items[id] else {
        parts.append((item.title, "\(item.title) was added"))
        continue
      }
      if old.title != item.title {
        parts.append((item.title, "\(old.title) was renamed \(item.title)"))
      }
      if old.isCompleted != item.isCompleted {
        parts.append(
          (item.title, "\(item.title) was \(item.isCompleted ? "checked off" : "unchecked")"))
      }
    }
    for (id, item) in before.items where after.items[id] == nil {
      parts.append((item.title, "\(item.title) was removed"))
    }
    if before.title != after.title {
      parts.insert(("", "the list was renamed \"\(after.title)\""), at: 0)
    }
    guard !parts.isEmpty else { return nil }
    let sorted = parts.enumerated().sorted {
      ($0.element.title, $0.offset) < ($1.element.title, $1.offset)
    }
    return "On \"\(before.title)\": " + sorted.map(\.element.text).joined(separator: "; ") + "."
  }
}
