import Foundation
import REPLKit

/// A recipe of the book: its name and its ingredients, in the order they are used.
struct Recipe: Hashable, Sendable {
  let id: Int64
  let name: String
  let ingredients: [Ingredient]
}

/// One ingredient: what to buy (a shopping list item's title) and how much (its notes).
struct Ingredient: Hashable, Sendable {
  let name: String
  /// "200 g", "3", "a pinch"; empty when the recipe gives none.
  let amount: String

  init(_ name: String, _ amount: String = "") {
    self.name = name
    self.amount = amount
  }

  /// "1 ingredient", "8 ingredients".
  static func count(_ count: Int) -> String {
    count == 1 ? "1 ingredient" : "\(count) ingredients"
  }

  /// An ingredient as a person types it in `add-recipe`, one per line:
  ///
  /// - `flour, 200 g`: the name, a comma, the amount;
  /// - `200 g flour`, `3 eggs`, `1/2 tsp salt`: a quantity (with a unit when one follows),
  ///   then the name;
  /// - `salt`: a name alone, with no amount.
  static func read(_ line: String) throws -> Ingredient {
    let text = line.trimmingCharacters(in: .whitespaces)
    if let comma = text.firstIndex(of: ",") {
      let name = text[..<comma].trimmingCharacters(in: .whitespaces)
      let amount = text[text.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw REPLError("'\(text)' has no ingredient before the comma") }
      return Ingredient(name, amount)
    }
    var words = text.split(separator: " ").map(String.init)[...]
    var amount: [String] = []
    if let first = words.first, isQuantity(first) {
      amount.append(words.removeFirst())
      if let unit = words.first, units.contains(unit.lowercased()) {
        amount.append(words.removeFirst())
      }
      if words.first?.lowercased() == "of", words.count > 1 { words.removeFirst() }
    }
    guard !words.isEmpty else {
      throw REPLError(
        "'\(text)' has an amount but no ingredient; type it as '200 g flour' or 'flour, 200 g'")
    }
    return Ingredient(words.joined(separator: " "), amount.joined(separator: " "))
  }

  /// `3`, `1.5`, `1/2`, `½`, `2-3`.
  private static func isQuantity(_ word: String) -> Bool {
    word.first.map { $0.isNumber } == true
      && word.allSatisfy { $0.isNumber || "./-".contains($0) }
  }

  /// The units that may follow a quantity and belong to the amount.
  private static let units: Set<String> = [
    "g", "kg", "mg", "ml", "cl", "dl", "l", "tsp", "tbsp", "cup", "cups", "oz", "lb", "lbs",
    "pinch", "pinches", "clove", "cloves", "slice", "slices", "can", "cans", "sprig", "sprigs",
    "sheet", "sheets", "bunch", "bunches", "handful", "handfuls",
  ]
}
