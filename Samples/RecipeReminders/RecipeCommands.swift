import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// The app's commands, over the kit's session. The recipe commands read the book only; the
/// shopping commands (ShoppingCommands.swift) and the item commands (ItemCommands.swift) ask
/// for reminders first (``ReminderAccess``), then mark the list they change as their own in
/// ``changes``, so that the person's own doing is not told back as news.
struct RecipeCommands {
  let session: AppSession
  let book: RecipeBook
  let access: ReminderAccess
  /// The shopping lists as the app last told them; other apps' changes are told.
  let changes: StoreChanges

  init(session: AppSession) {
    self.session = session
    let book = RecipeBook(session.database)
    self.book = book
    let access = ReminderAccess(console: session.console)
    let changes = StoreChanges(session: session, book: book)
    changes.sayFirst = { access.tellIfAccessChanged() }
    self.access = access
    self.changes = changes
    // Work a killed run left half done is repaired at the start when access is already full
    // (CrashSafety.swift), through the app's own store.
    session.storeForRepair = { [self] _ in try store() }
  }

  var console: Console { session.console }

  var all: [REPLCommand] {
    let recipeNames: @Sendable ([String]) -> [String] = { [book] words in
      words.isEmpty ? ((try? book.recipes()) ?? []).map(\.name) : []
    }
    return [
      REPLCommand("recipes", help: "Lists the recipes in the book.") { try recipes() },
      REPLCommand(
        "recipe", RecipeName.self, help: "Shows a recipe's ingredients: recipe crêpes.",
        complete: recipeNames
      ) { try recipe($0.name) },
      REPLCommand(
        "add-recipe", NewRecipeName.self,
        help: "Adds a recipe: its name, then its ingredients one per line, until an empty line."
      ) { try addRecipe($0.name) },
      REPLCommand(
        "shop", Shop.self,
        help: "Makes the recipe's shopping list in your reminders, in one commit, or adds "
          + "what it lacks; --no-batch commits item by item.",
        complete: recipeNames
      ) { try shop($0.recipe, batch: !$0.noBatch) },
      REPLCommand("lists", help: "Lists the shopping lists, with what is left to buy.") {
        try lists()
      },
      REPLCommand(
        "list", RecipeName.self, help: "Shows a shopping list, to buy and bought.",
        complete: recipeNames
      ) { try list($0.name) },
      REPLCommand(
        "check", ListItem.self,
        help: "Checks an item off a list: check crêpes eggs, check chocolate cake dark chocolate.",
        complete: recipeNames
      ) { try check($0.words, done: true) },
      REPLCommand(
        "uncheck", ListItem.self, help: "Puts a checked item back on the list.",
        complete: recipeNames
      ) { try check($0.words, done: false) },
      REPLCommand(
        "due", Due.self,
        help: "Gives an item a due date, with an alarm then: due crêpes milk fri 18:00 "
          + "(a day alone: the alarm is at 09:00).",
        complete: recipeNames
      ) { try due($0.words) },
      REPLCommand(
        "near", Near.self,
        help: "Reminds of an item on arriving at a place: near crêpes milk \"Corner shop\" "
          + "48.8584 2.2945 150 (radius in metres).",
        complete: recipeNames
      ) { try near($0.words) },
      REPLCommand(
        "repeat", Repeat.self,
        help: "Makes an item repeat from its due date: HOW is weekly, monthly, or never.",
        complete: recipeNames
      ) { try repeatItem($0.words) },
      REPLCommand(
        "delete-list", RecipeName.self, help: "Deletes a recipe's shopping list.",
        complete: recipeNames
      ) { try deleteList($0.name) },
    ]
  }

  // MARK: The book (no reminders needed)

  func recipes() throws {
    let recipes = try book.recipes()
    console.table(
      recipes.map { [$0.name, "\($0.ingredients.count)"] },
      header: ["recipe", "ingredients"])
  }

  func recipe(_ words: [String]) throws {
    let recipe = try book.recipe(named: words.joined(separator: " "))
    console.print("\(recipe.name), for its shopping list ('shop \(recipe.name)'):")
    console.table(recipe.ingredients.map { [$0.amount, $0.name] })
  }

  /// The form: the name (unless given), then ingredient lines until an empty one. `cancel`,
  /// Ctrl-C or the end of input adds nothing.
  func addRecipe(_ words: [String]) throws {
    let given = words.joined(separator: " ")
    let name: String
    if given.isEmpty {
      guard let answer = console.ask("Name", read: newName) else { return cancelled() }
      name = answer
    } else {
      name = try newName(given)
    }
    console.print(
      "Ingredients, one per line, such as '200 g flour', '3 eggs' or 'salt, a pinch'; "
        + "an empty line ends the recipe.")
    var ingredients: [Ingredient] = []
    while true {
      let answer = console.ask("Ingredient \(ingredients.count + 1)") { line -> Ingredient? in
        if line.isEmpty {
          guard !ingredients.isEmpty else {
            throw RecipeError("A recipe needs one ingredient at least (or 'cancel').")
          }
          return nil
        }
        let ingredient = try Ingredient.read(line)
        let key = NearestName.key(ingredient.name)
        guard !ingredients.contains(where: { NearestName.key($0.name) == key }) else {
          throw RecipeError("\(ingredient.name) is in the recipe already.")
        }
        return ingredient
      }
      guard let answer else { return cancelled() }
      guard let ingredient = answer else { break }
      ingredients.append(ingredient)
    }
    let recipe = try book.add(name: name, ingredients: ingredients)
    console.print(
      "Added \(recipe.name), with \(Ingredient.count(ingredients.count)).")
  }

  /// A name for a new recipe: not empty, and not one the book has.
  private func newName(_ text: String) throws -> String {
    let name = text.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { throw RecipeError("A recipe needs a name.") }
    try book.refuseExisting(name)
    return name
  }

  private func cancelled() {
    console.print("Nothing added.")
  }

  // MARK: Shared by the shopping and item commands

  /// The store, once the person let the app use their reminders: access checked
  /// (ReminderAccess.swift), work a stopped run left half done repaired (CrashSafety.swift),
  /// and the lists watched (StoreChanges.swift). The repair comes before the watching, so that
  /// what it removes is not told as another app's doing.
  func store() throws -> EKEventStore {
    let store = try access.store()
    session.repairUnfinishedWork(of: .reminder, in: store)
    changes.start(watching: store)
    changes.tellWhatChanged()  // a change whose notice has not come yet: told before any write
    return store
  }
}
