import Foundation
import GRDB
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// The recipes, and what the app needs to find each recipe's shopping list again, in the
/// app's own database (`recipes.sqlite` in its data folder, the kit's ``AppDatabase``). The
/// reminders store holds the lists; the book holds only their identifiers.
final class RecipeBook: Sendable {
  /// The app's database, where work that spans it and the reminders store is noted too
  /// (CrashSafety.swift).
  let database: AppDatabase
  private let queue: DatabaseQueue

  init(_ database: AppDatabase) {
    self.database = database
    queue = database.queue
  }

  /// The tables, for ``AppDatabase``, and the starter recipes on the first run.
  static func registerMigrations(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("recipes") { db in
      try db.create(table: "recipe") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("name", .text).notNull()
        // The name without case or accents: what a typed name is matched against, and what
        // keeps two recipes from having the same name.
        table.column("nameKey", .text).notNull().unique()
      }
      try db.create(table: "ingredient") { table in
        table.column("recipeId", .integer).notNull().references("recipe", onDelete: .cascade)
        table.column("position", .integer).notNull()
        table.column("name", .text).notNull()
        table.column("amount", .text).notNull()
        table.primaryKey(["recipeId", "position"])
      }
    }
    migrator.registerMigration("starter recipes") { db in
      for recipe in StarterRecipes.all {
        try insert(name: recipe.name, ingredients: recipe.ingredients, in: db)
      }
    }
    migrator.registerMigration("shopping lists") { db in
      // A recipe's list: the reminders list's `calendarIdentifier`.
      try db.create(table: "shoppingList") { table in
        table.primaryKey("recipeId", .integer).references("recipe", onDelete: .cascade)
        table.column("calendarIdentifier", .text).notNull()
      }
      // Each item the app added: the reminder's `calendarItemIdentifier`, by ingredient.
      try db.create(table: "shoppingItem") { table in
        table.column("recipeId", .integer).notNull()
          .references("shoppingList", onDelete: .cascade)
        table.column("ingredientKey", .text).notNull()
        table.column("calendarItemIdentifier", .text).notNull()
        table.primaryKey(["recipeId", "ingredientKey"])
      }
    }
  }

  // MARK: Recipes

  /// Every recipe with its ingredients: two queries, however many recipes.
  func recipes() throws -> [Recipe] {
    try queue.read(Self.recipes)
  }

  private static func recipes(in db: Database) throws -> [Recipe] {
    let ingredients = Dictionary(
      grouping: try Row.fetchAll(
        db, sql: "SELECT recipeId, name, amount FROM ingredient ORDER BY recipeId, position"),
      by: { $0["recipeId"] as Int64 })
    return try Row.fetchAll(db, sql: "SELECT id, name FROM recipe ORDER BY nameKey").map { row in
      let id: Int64 = row["id"]
      return Recipe(
        id: id, name: row["name"],
        ingredients: (ingredients[id] ?? []).map { Ingredient($0["name"], $0["amount"]) })
    }
  }

  /// The recipe a person names, ignoring case and accents (`crepes` is "Crêpes"); a near miss
  /// is answered with the nearest name.
  func recipe(named text: String) throws -> Recipe {
    try recipe(named: text, among: recipes())
  }

  /// The same, among recipes already read.
  func recipe(named text: String, among all: [Recipe]) throws -> Recipe {
    if let recipe = all.first(where: { NearestName.key($0.name) == NearestName.key(text) }) {
      return recipe
    }
    let nearest = NearestName.suggestion(for: text, among: all.map(\.name))
    throw RecipeError(
      "There is no recipe named '\(text)'"
        + (nearest.map { "; did you mean \"\($0)\"?" } ?? "; 'recipes' lists them."))
  }

  /// Adds a recipe; refuses a name the book has already (ignoring case and accents).
  func add(name: String, ingredients: [Ingredient]) throws -> Recipe {
    try queue.write { db in
      try Self.refuseExisting(name, in: db)
      let id = try Self.insert(name: name, ingredients: ingredients, in: db)
      return Recipe(id: id, name: name, ingredients: ingredients)
    }
  }

  /// Throws when the book has a recipe of that name (ignoring case and accents), naming it.
  func refuseExisting(_ name: String) throws {
    try queue.read { db in try Self.refuseExisting(name, in: db) }
  }

  private static func refuseExisting(_ name: String, in db: Database) throws {
    if let existing = try String.fetchOne(
      db, sql: "SELECT name FROM recipe WHERE nameKey = ?", arguments: [NearestName.key(name)])
    {
      throw RecipeError("The book already has \(existing); give the new recipe another name.")
    }
  }

  @discardableResult
  private static func insert(name: String, ingredients: [Ingredient], in db: Database) throws
    -> Int64
  {
    try db.execute(
      sql: "INSERT INTO recipe (name, nameKey) VALUES (?, ?)",
      arguments: [name, NearestName.key(name)])
    let id = db.lastInsertedRowID
    for (position, ingredient) in ingredients.enumerated() {
      try db.execute(
        sql: "INSERT INTO ingredient (recipeId, position, name, amount) VALUES (?, ?, ?, ?)",
        arguments: [id, position, ingredient.name, ingredient.amount])
    }
    return id
  }

  // MARK: Shopping lists

  /// The recipes that have a shopping list, with what was recorded of it: what the change
  /// tracker reads after every command, so a few queries in one read, however many lists.
  func shoppingLists() throws -> [(recipe: Recipe, list: ListRecord)] {
    try queue.read { db in
      let records = try Self.listRecords(in: db, recipeId: nil)
      return try Self.recipes(in: db).compactMap { recipe in records[recipe.id].map { (recipe, $0) }
      }
    }
  }

  /// What was recorded of the recipe's shopping list; nil when it has none.
  func shoppingList(of recipe: Recipe) throws -> ListRecord? {
    try queue.read { db in try Self.listRecords(in: db, recipeId: recipe.id)[recipe.id] }
  }

  /// The recorded lists by recipe: every one, or the one of `recipeId`.
  private static func listRecords(in db: Database, recipeId: Int64?) throws -> [Int64: ListRecord] {
    let only = recipeId == nil ? "" : " WHERE recipeId = ?"
    let arguments: StatementArguments = recipeId.map { [$0] } ?? []
    let items = Dictionary(
      grouping: try Row.fetchAll(
        db, sql: "SELECT recipeId, ingredientKey, calendarItemIdentifier FROM shoppingItem" + only,
        arguments: arguments),
      by: { $0["recipeId"] as Int64 })
    var records: [Int64: ListRecord] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT recipeId, calendarIdentifier FROM shoppingList" + only,
      arguments: arguments)
    {
      let id: Int64 = row["recipeId"]
      records[id] = ListRecord(
        calendarIdentifier: row["calendarIdentifier"],
        items: Dictionary(
          uniqueKeysWithValues: (items[id] ?? []).map {
            ($0["ingredientKey"], $0["calendarItemIdentifier"])
          }))
    }
    return records
  }

  /// Records the recipe's list, forgetting any list recorded before (and its items), and
  /// runs `alongside` in the same transaction (CrashSafety.swift marks its note done there).
  func recordList(
    _ calendarIdentifier: String, of recipe: Recipe,
    alongside: (Database) throws -> Void
  ) throws {
    try queue.write { db in
      try db.execute(sql: "DELETE FROM shoppingList WHERE recipeId = ?", arguments: [recipe.id])
      try db.execute(
        sql: "INSERT INTO shoppingList (recipeId, calendarIdentifier) VALUES (?, ?)",
        arguments: [recipe.id, calendarIdentifier])
      try alongside(db)
    }
  }

  /// Records the items added to the recipe's list, by ingredient, and runs `alongside`: one
  /// transaction.
  func recordItems(
    _ items: [(ingredient: Ingredient, identifier: String)], of recipe: Recipe,
    alongside: (Database) throws -> Void
  ) throws {
    try queue.write { db in
      try alongside(db)
      for item in items {
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO shoppingItem (recipeId, ingredientKey, calendarItemIdentifier)
            VALUES (?, ?, ?)
            """,
          arguments: [recipe.id, NearestName.key(item.ingredient.name), item.identifier])
      }
    }
  }

  /// Forgets the recipe's list and its items (the list was deleted), and runs `alongside`:
  /// one transaction.
  func forgetList(of recipe: Recipe, alongside: (Database) throws -> Void) throws {
    try queue.write { db in
      try Self.forgetList(of: recipe, in: db)
      try alongside(db)
    }
  }

  /// Forgets the recipe's list when the one recorded is gone from the store (deleted in
  /// another app); false when there is no record, or the list recorded is still there.
  ///
  /// The check and the forgetting are one transaction of the book's: another run of the app
  /// may have made a new list for the recipe meanwhile, and that one is kept.
  func forgetDeletedList(of recipe: Recipe, in store: EKEventStore) throws -> Bool {
    try queue.write { db in
      guard
        let recorded = try String.fetchOne(
          db, sql: "SELECT calendarIdentifier FROM shoppingList WHERE recipeId = ?",
          arguments: [recipe.id])
      else { return false }
      guard store.calendar(withIdentifier: recorded) == nil else { return false }
      try Self.forgetList(of: recipe, in: db)
      return true
    }
  }

  /// Forgets the recipe's list and its items, in the caller's transaction.
  static func forgetList(of recipe: Recipe, in db: Database) throws {
    try db.execute(sql: "DELETE FROM shoppingList WHERE recipeId = ?", arguments: [recipe.id])
  }
}

/// What the book keeps of a recipe's shopping list: the list's identifier, and each added
/// item's identifier by ingredient (the ingredient's name without case or accents).
struct ListRecord: Hashable, Sendable {
  let calendarIdentifier: String
  let items: [String: String]
}
