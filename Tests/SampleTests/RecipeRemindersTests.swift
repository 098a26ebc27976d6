import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// recipe-reminders driven as a cook would drive it, piped, on a temporary store: what it
/// writes is read back from the store (and the app's own database) by the test.
@Suite struct RecipeRemindersTests {
  let home: SampleHome

  static let app = "org.openeventkit.recipe-reminders"
  /// Monday 23 November 2026, 10:00 in Paris (UTC+1).
  static let now = ["--now", "2026-11-23T10:00"]

  init() throws { home = try SampleHome() }

  /// Sets the app's reminders decision beforehand (full, denied or restricted).
  func decide(_ decision: String) throws {
    try home.decide(decision, app: Self.app, entity: "reminders")
  }

  /// A whole piped session.
  @discardableResult
  func session(_ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("recipe-reminders", input, arguments: Self.now, home: home)
  }

  /// A running session, once it has answered `input` with `shown`.
  func running(_ input: String, until shown: String) throws -> SampleRun {
    let run = try SampleRun(executable: "recipe-reminders", arguments: Self.now, home: home)
    run.send(input)
    try run.wait(for: shown)
    return run
  }

  /// The reminders lists titled `title`.
  func lists(titled title: String, in store: EKEventStore) -> [EKCalendar] {
    store.calendars(for: .reminder).filter { $0.title == title }
  }

  /// The reminders in the one list titled `title`, by title; empty when there is no such list.
  func items(of title: String, in store: EKEventStore) throws -> [EKReminder] {
    let lists = lists(titled: title, in: store)
    #expect(lists.count <= 1, "\(lists.count) lists titled \(title)")
    guard let list = lists.first else { return [] }
    return Self.fetch(store.predicateForReminders(in: [list]), from: store)
      .sorted { $0.title < $1.title }
  }

  /// Every reminder in the store.
  func allReminders(in store: EKEventStore) -> [EKReminder] {
    Self.fetch(store.predicateForReminders(in: nil), from: store)
  }

  static func fetch(_ predicate: NSPredicate, from store: EKEventStore) -> [EKReminder] {
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    store.fetchReminders(matching: predicate) { reminders in
      box.reminders = reminders ?? []
      done.signal()
    }
    done.wait()
    return box.reminders
  }

  final class Box: @unchecked Sendable { var reminders: [EKReminder] = [] }

  /// What the app recorded of a recipe's list: its calendar identifier and its items'.
  func recorded(_ recipe: String) throws -> (list: String?, items: [String: String]) {
    let database = try home.database(app: "recipe-reminders", file: "recipes.sqlite")
    return try database.read { db in
      let list = try String.fetchOne(
        db,
        sql: """
          SELECT calendarIdentifier FROM shoppingList JOIN recipe ON recipe.id = recipeId
          WHERE recipe.name = ?
          """, arguments: [recipe])
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT ingredientKey, calendarItemIdentifier FROM shoppingItem
          JOIN recipe ON recipe.id = recipeId WHERE recipe.name = ?
          """, arguments: [recipe])
      return (
        list,
        Dictionary(
          uniqueKeysWithValues: rows.map { ($0["ingredientKey"], $0["calendarItemIdentifier"]) })
      )
    }
  }

  static let crepes = ["butter", "eggs", "flour", "milk", "salt", "sugar"]

  // MARK: The book

  @Test func browsingRecipesNeverTouchesTheCalendarStore() throws {
    let run = try session(
      """
      recipes
      recipe crepes
      recipe CHOCOLATE CAKE
      recipe choclate cake
      recipe "Crêpes"
      recipe nothing like it

      """)
    #expect(run.status == 1)
    for name in [
      "Chocolate cake", "Crêpes", "Guacamole", "Ratatouille", "Spaghetti carbonara",
      "Banana bread", "Tomato soup", "Quiche lorraine",
    ] {
      #expect(run.output.contains("\n  \(name) "), "\(name) missing: \(run.output)")
    }
    #expect(run.output.contains("recipe crepes\nCrêpes, for its shopping list"))
    #expect(run.output.contains("  50 cl    milk\n"))
    #expect(run.output.contains("recipe CHOCOLATE CAKE\nChocolate cake, for its shopping list"))
    #expect(
      run.output.contains(
        "Error: There is no recipe named 'choclate cake'; did you mean \"Chocolate cake\"?"))
    #expect(run.output.contains("recipe \"Crêpes\"\nCrêpes, for"))
    #expect(run.output.contains("Error: There is no recipe named 'nothing like it'; 'recipes'"))
    // No store, no privacy database, no question: only the app's own folder.
    let made = try FileManager.default.contentsOfDirectory(atPath: home.url.path)
    #expect(made.filter { $0 != "state" } == ["recipe-reminders"], "\(made)")
    #expect(!run.output.contains("Would Like"))
  }

  @Test func addRecipeIsAFormOfIngredientLines() throws {
    let run = try session(
      """
      add-recipe
      crepes
      Lemon tart

      200 g
      1 sheet shortcrust pastry
      lemons, 4
      3 eggs
      Eggs
      150 g of sugar
      salt

      recipe lemon tart
      add-recipe Flan
      cancel
      recipe flan

      """)
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Name: crepes\nThe book already has Crêpes; give the new recipe another name.\nName: "))
    #expect(run.output.contains("A recipe needs one ingredient at least (or 'cancel')."))
    #expect(run.output.contains("'200 g' has an amount but no ingredient"))
    #expect(run.output.contains("Eggs is in the recipe already."))
    #expect(run.output.contains("Added Lemon tart, with 5 ingredients."))
    #expect(run.output.contains("  1 sheet  shortcrust pastry\n"))
    #expect(run.output.contains("  4        lemons\n"))
    #expect(run.output.contains("  3        eggs\n"))
    #expect(run.output.contains("  150 g    sugar\n"))
    #expect(run.output.contains("           salt\n"))
    #expect(run.output.contains("Nothing added."))
    #expect(run.output.contains("Error: There is no recipe named 'flan'"))
  }

  @Test func anApostropheInANameIsNoQuote() throws {
    let run = try session("add-recipe Gâteau d'été\n200 g flour\n\nrecipe gateau d'ete\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Added Gâteau d'été, with 1 ingredient"), "\(run.output)")
    #expect(run.output.contains("  200 g  flour\n"), "\(run.output)")
  }

  // MARK: Access, at the moment of need

  @Test func grantedAtThePromptTheListIsWritten() throws {
    let run = try session("recipes\nshop crepes\n1\n")
    #expect(run.status == 0, "\(run.output)")
    // The alert comes at `shop`, not at `recipes`, with the Info.plist's reason.
    let alert = try #require(run.output.range(of: "Would Like Full Access to Your Reminders"))
    #expect(run.output.range(of: "recipes> shop crepes")!.lowerBound < alert.lowerBound)
    #expect(
      run.output.contains("makes a shopping list in your reminders from a recipe's ingredients"))
    #expect(run.output.contains("Made the reminders list \"Crêpes\" in Local"))
    #expect(
      run.output.range(
        of:
          #"Added 6 items to "Crêpes" in one commit: \d+\.\d ms \(synchronous=NORMAL: commits sync to disk only at checkpoints\)\."#,
        options: .regularExpression) != nil, "\(run.output)")
    let store = try home.store()
    let items = try items(of: "Crêpes", in: store)
    #expect(items.map(\.title) == Self.crepes)
    #expect(items.first { $0.title == "milk" }?.notes == "50 cl")
    #expect(items.allSatisfy { !$0.isCompleted })
    // Recorded: the list's identifier and each item's, by ingredient.
    let recorded = try recorded("Crêpes")
    #expect(recorded.list == items.first?.calendar.calendarIdentifier)
    #expect(Set(recorded.items.values) == Set(items.map(\.calendarItemIdentifier)))
    #expect(recorded.items["milk"] == items.first { $0.title == "milk" }?.calendarItemIdentifier)
  }

  @Test(arguments: [
    ("at the prompt", "", "shop crepes\n2\nshop crepes\n", "You did not allow Recipe Reminders"),
    ("before", "denied", "shop crepes\n", "You did not allow Recipe Reminders"),
    ("restricted", "restricted", "shop crepes\n", "Access to reminders is restricted"),
  ])
  func refusedNothingIsWrittenAndTheWayToChangeItIsSaid(
    when: String, decision: String, input: String, says: String
  ) throws {
    if !decision.isEmpty { try decide(decision) }
    let run = try session(input + "recipe crepes\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: \(says)"), "\(when): \(run.output)")
    #expect(run.output.contains("A shopping list is a list in your reminders, so this needs them."))
    #expect(
      run.output.contains(
        "To change that: ekctl privacy set --app \(Self.app) --entity reminders full"))
    // Asked once at most; refused again at once; the book still works.
    let asked = run.output.components(separatedBy: "Would Like Full Access").count - 1
    #expect(asked == (decision.isEmpty ? 1 : 0))
    #expect(
      run.output.components(separatedBy: "Error: \(says)").count - 1 == (decision.isEmpty ? 2 : 1))
    #expect(run.output.contains("Crêpes, for its shopping list"))
    #expect(try recorded("Crêpes").list == nil)
    // Refused before: the app never made the store. Refused at the prompt: it is empty.
    let made = FileManager.default.fileExists(atPath: home.calendarDatabase.path)
    #expect(made == decision.isEmpty)
    guard made else { return }
    let store = try home.store()
    #expect(lists(titled: "Crêpes", in: store).isEmpty)
    #expect(allReminders(in: store).isEmpty)
  }

  @Test func alreadyGrantedNothingIsAsked() throws {
    try decide("full")
    let run = try session("shop chocolate cake\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("Would Like"))
    #expect(try items(of: "Chocolate cake", in: home.store()).count == 8)
  }

  @Test func noAnswerDecidesNothingAndAsksAgain() throws {
    let run = try session("shop crepes\n")
    #expect(run.status == 1)
    #expect(run.output.contains("Error: No answer, so the app did not use your reminders"))
    let again = try session("shop crepes\nyes\n")
    #expect(again.status == 0, "\(again.output)")
    #expect(try items(of: "Crêpes", in: home.store()).count == 6)
  }

  // MARK: One batch

  @Test func anotherProcessSeesNoneOrAllOfABatchButPartsOfOneByOne() throws {
    try decide("full")
    let ingredients = (1...300).map { "ingredient \($0), \($0) g" }.joined(separator: "\n")
    let run = try running(
      "add-recipe Big shop\n\(ingredients)\n\nadd-recipe Big shop twice\n\(ingredients)\n\n",
      until: "Added Big shop twice")
    try home.ekctl(["calendars"])  // makes the store, for the reader below
    let store = try home.store()
    /// The item counts of the list titled `title` seen while `shop` writes it.
    func counts(writing title: String, _ command: String) throws -> Set<Int> {
      var seen: Set<Int> = []
      let before = run.output.components(separatedBy: "Added 300 items").count - 1
      run.send(command)
      while run.output.components(separatedBy: "Added 300 items").count - 1 == before {
        store.refreshSourcesIfNecessary()
        seen.insert(try items(of: title, in: store).count)
        #expect(!run.output.contains("error:"), "\(run.output)")
      }
      return seen
    }
    let batched = try counts(writing: "Big shop", "shop big shop\n")
    #expect(batched.isSubset(of: [0, 300]), "\(batched.sorted())")
    // The same reader sees the parts of a list written one commit per item: so it could
    // have seen a part of the batch, had there been one.
    let oneByOne = try counts(writing: "Big shop twice", "shop big shop twice --no-batch\n")
    #expect(oneByOne.contains { $0 > 0 && $0 < 300 }, "\(oneByOne.sorted())")
    let output = try run.finish().output
    #expect(
      output.range(
        of:
          #"Added 300 items to "Big shop" in one commit: \d+\.\d ms \(synchronous=NORMAL: commits sync to disk only at checkpoints\)\."#,
        options: .regularExpression) != nil, "\(output)")
    #expect(
      output.range(
        of:
          #"Added 300 items to "Big shop twice" with 300 commits, one per item: \d+\.\d ms \(synchronous=NORMAL: commits sync to disk only at checkpoints\)\."#,
        options: .regularExpression) != nil)
    #expect(try items(of: "Big shop", in: store).count == 300)
    #expect(try items(of: "Big shop twice", in: store).count == 300)
  }

  @Test func aListDeletedBeforeTheCommitLeavesNoHalfListAndIsReset() throws {
    try decide("full")
    let run = try running("shop crepes\n", until: "Added 6 items")
    let store = try home.store()
    let eggs = try #require(try items(of: "Crêpes", in: store).first { $0.title == "eggs" })
    try store.remove(eggs, commit: true)
    let list = try #require(lists(titled: "Crêpes", in: store).first)
    // Another process deletes the list and holds its write open until the app has read the
    // list and is writing the missing eggs: the app's commit waits for the lock, then finds
    // the list gone.
    let database = try DatabaseQueue(path: home.calendarDatabase.path)
    try database.write { db in
      try db.execute(sql: "DELETE FROM calendar WHERE id = ?", arguments: [list.calendarIdentifier])
      run.send("shop crepes\n")
      try run.wait(for: "adding eggs.")
    }
    try run.wait(for: "makes a new list.")
    #expect(
      run.output.contains(
        "Error: The list \"Crêpes\" was deleted by another app while its items were being "
          + "written, so none were added (the unsaved ones were dropped with reset())."),
      "\(run.output)")
    store.refreshSourcesIfNecessary()
    #expect(lists(titled: "Crêpes", in: store).isEmpty)
    #expect(allReminders(in: store).isEmpty)
    #expect(try recorded("Crêpes").list == nil)
    // Reset: the eggs staged for the failed commit do not come back with the next one.
    run.send("shop crepes\n")
    let output = try run.finish().output
    #expect(
      output.components(separatedBy: "Added 6 items to \"Crêpes\"").count - 1 == 2, "\(output)")
    store.refreshSourcesIfNecessary()
    #expect(try items(of: "Crêpes", in: store).map(\.title) == Self.crepes)
  }

  /// An item command's own save is not told back as another app's change: the command takes
  /// what it wrote as shown once it saved, and the notice its save posts, run later, finds no
  /// difference there.
  @Test func anItemCommandsOwnChangeIsNotToldBack() throws {
    try decide("full")
    let run = try running("shop crepes\ncheck crepes eggs\n", until: "Checked off eggs")
    try run.waitUntilInputIsRead()
    // Another app's change after it: once that is told, the command's notice has run too.
    let store = try home.store()
    let milk = try #require(try items(of: "Crêpes", in: store).first { $0.title == "milk" })
    milk.isCompleted = true
    try store.save(milk, commit: true)
    try run.poke(until: "milk was checked off.")
    let output = try run.finish().output
    #expect(!output.contains("eggs was checked off"), "\(output)")
  }

  /// A list made by another copy of the app (its `shop`, in the app's own database too) is
  /// told; the copy's own `shop` is not told back to it.
  @Test func aListAnotherCopyOfTheAppMadeIsTold() throws {
    try decide("full")
    let run = try running("shop crepes\n", until: "adding its 6 ingredients")
    try run.waitUntilInputIsRead()
    let other = try session("shop guacamole\n")
    #expect(other.status == 0, "\(other.output)")
    try run.poke(until: "Reminders: The list \"Guacamole\" was made, with ")
    let output = try run.finish().output
    #expect(!output.contains("\"Crêpes\" was made"), "\(output)")
  }

  @Test func anotherAppsChangeJustBeforeACommandOnTheSameListIsTold() throws {
    try decide("full")
    let run = try running("shop crepes\n", until: "adding its 6 ingredients")
    try run.waitUntilInputIsRead()
    let store = try home.store()
    let salt = try #require(try items(of: "Crêpes", in: store).first { $0.title == "salt" })
    try store.remove(salt, commit: true)
    // At once, before the notice comes (a moment after the commit): the command writes the
    // same list, and must not take salt's removal for its own.
    run.send("check crepes eggs\n")
    try run.poke(until: "salt was removed")
    let output = try run.finish().output
    #expect(output.contains("Checked off eggs"), "\(output)")
    #expect(!output.contains("eggs was checked off"), "\(output)")
  }

  /// Another app adds items to a list while this one checks and unchecks another item of that
  /// list, command after command: each addition is told once, though many land while a command
  /// runs (a command takes only the item it wrote as its own; taking the whole list, 7 of the
  /// 30 were never told).
  @Test func anotherAppsItemsAddedWhileCommandsWriteTheSameListAreEachTold() throws {
    try decide("full")
    let run = try running("shop crepes\n", until: "adding its 6 ingredients")
    try run.waitUntilInputIsRead()
    let store = try home.store()
    let list = try #require(lists(titled: "Crêpes", in: store).first)
    let commands = 300
    run.send(String(repeating: "check crepes eggs\nuncheck crepes eggs\n", count: commands / 2))
    let added = 30
    for number in 1...added {
      // Spread over the commands: each after two more of this app's checks.
      try run.wait(for: "Checked off eggs", count: 2 * number)
      let item = EKReminder(eventStore: store)
      item.title = "extra-\(number)"
      item.calendar = list
      try store.save(item, commit: true)
    }
    try run.waitUntilInputIsRead(timeout: 120)
    try run.poke(until: "extra-\(added) was added")
    let output = try run.finish().output
    for number in 1...added {
      let told = output.components(separatedBy: "extra-\(number) was added").count - 1
      #expect(told == 1, "extra-\(number) told \(told) times")
    }
    #expect(!output.contains("eggs was checked off"), "\(output)")
    #expect(!output.contains("eggs was unchecked"), "\(output)")
  }

  // MARK: Shopping again

  @Test func shoppingAgainAddsOnlyWhatTheListLacks() throws {
    try decide("full")
    let run = try running("shop crepes\nshop crepes\n", until: "nothing to add")
    #expect(run.output.contains("\"Crêpes\" already has all 6 ingredients; nothing to add."))
    // The command is done, its own changes settled, before another app writes: else they
    // would be taken as the command's own and never told.
    try run.waitUntilInputIsRead()
    let store = try home.store()
    let first = try items(of: "Crêpes", in: store)
    #expect(first.map(\.title) == Self.crepes)
    // Elsewhere: eggs removed, milk checked off, butter added by hand under another name.
    let eggs = try #require(first.first { $0.title == "eggs" })
    try store.remove(eggs, commit: true)
    let milk = try #require(first.first { $0.title == "milk" })
    milk.isCompleted = true
    try store.save(milk, commit: true)
    try run.poke(until: "milk was checked off.")
    run.send("shop crêpes\n")
    try run.wait(for: "Added 1 item")
    // Told in one sentence, or in two if the two commits were heard apart.
    #expect(run.output.contains("Reminders: On \"Crêpes\": eggs was removed"), "\(run.output)")
    #expect(run.output.contains("milk was checked off."), "\(run.output)")
    #expect(run.output.contains("\"Crêpes\" has 5 of the 6 ingredients; adding eggs."))
    store.refreshSourcesIfNecessary()
    let second = try items(of: "Crêpes", in: store)
    #expect(second.map(\.title) == Self.crepes)
    #expect(second.first { $0.title == "milk" }?.isCompleted == true)
    let newEggs = try #require(second.first { $0.title == "eggs" })
    #expect(newEggs.calendarItemIdentifier != eggs.calendarItemIdentifier)
    #expect(try recorded("Crêpes").items["eggs"] == newEggs.calendarItemIdentifier)
    // The whole list deleted elsewhere: a new one, said.
    let list = try #require(lists(titled: "Crêpes", in: store).first)
    try store.removeCalendar(list, commit: true)
    try run.poke(until: "Reminders: The list \"Crêpes\" was deleted.")
    run.send("shop crepes\n")
    let output = try run.finish().output
    #expect(output.contains("Reminders: The list \"Crêpes\" was deleted."), "\(output)")
    #expect(
      output.contains(
        "The list made before for Crêpes was deleted elsewhere. Made the reminders list "
          + "\"Crêpes\" in Local; adding its 6 ingredients."))
    store.refreshSourcesIfNecessary()
    let third = try items(of: "Crêpes", in: store)
    #expect(third.map(\.title) == Self.crepes)
    #expect(third.allSatisfy { !$0.isCompleted })
    let newList = try #require(third.first?.calendar)
    #expect(newList.calendarIdentifier != list.calendarIdentifier)
    #expect(try recorded("Crêpes").list == newList.calendarIdentifier)
    #expect(store.calendars(for: .reminder).filter { $0.title == "Crêpes" }.count == 1)
  }

  /// Lists for Crêpes and Lemonade, then the Crêpes list deleted by another app.
  func crepesListDeletedElsewhere() throws {
    try decide("full")
    try session("shop crepes\nshop lemonade\n")
    let store = try home.store()
    let list = try #require(lists(titled: "Crêpes", in: store).first)
    try store.removeCalendar(list, commit: true)
  }

  @Test func listsSayWhichListWasDeletedElsewhere() throws {
    try crepesListDeletedElsewhere()
    let run = try session("lists\nlist crepes\ncheck crepes eggs\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains("  Crêpes    -       -       deleted in another app\n"), "\(run.output)")
    #expect(run.output.contains("  Lemonade  4       0\n"))
    let gone =
      "Error: The shopping list for Crêpes was deleted in another app; 'shop Crêpes' makes a new "
      + "one, 'delete-list Crêpes' forgets it."
    #expect(run.output.components(separatedBy: gone).count - 1 == 2, "\(run.output)")
  }

  @Test func deleteListForgetsAListDeletedElsewhere() throws {
    try crepesListDeletedElsewhere()
    let run = try session("delete-list crepes\nlists\ndelete-list crepes\n")
    #expect(
      run.output.contains("Forgot the list for Crêpes, which was deleted in another app.\n"),
      "\(run.output)")
    // Forgotten: the list is no longer shown, and deleting it again says there is none.
    #expect(
      run.output.contains("  list      to buy  bought\n  Lemonade  4       0\n"), "\(run.output)")
    #expect(!run.output.contains("deleted in another app\n  "), "\(run.output)")
    #expect(
      run.output.contains("Error: Crêpes has no shopping list yet; 'shop Crêpes' makes one."),
      "\(run.output)")
    #expect(try recorded("Crêpes").list == nil)
    #expect(try recorded("Lemonade").list != nil)
    // Shopping again makes a new list.
    try session("shop crepes\n")
    #expect(lists(titled: "Crêpes", in: try home.store()).count == 1)
  }

  /// A list renamed by another app to a name that holds terminal escapes, C1 controls and a
  /// bidi override, with such an item (issue 42): the table, the list and the notice show them
  /// inert, and the table's columns still line up.
  @Test func aHostileListNameIsShownInertAndItsTableLinesUp() throws {
    try decide("full")
    try session("shop crepes\nshop lemonade\n")
    let store = try home.store()
    let list = try #require(lists(titled: "Crêpes", in: store).first)
    let name = "Crêpes" + HostileText.all
    list.title = name
    try store.saveCalendar(list, commit: true)
    let item = EKReminder(eventStore: store)
    item.title = "jam" + HostileText.clearScreen + HostileText.c1ControlSequence
    item.calendar = list
    try store.save(item, commit: true)

    let run = try session("lists\nlist crepes\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(HostileText.activeCharacters(in: run.output) == [], "\(run.output.debugDescription)")
    let shown = HostileText.shown(name)
    let padding = String(repeating: " ", count: shown.count - "Lemonade".count)
    #expect(run.output.contains("  \(shown)  7       0\n"), "\(run.output)")
    #expect(run.output.contains("  Lemonade\(padding)  4       0\n"), "\(run.output)")
    #expect(run.output.contains("\"\(shown)\": 7 to buy, 0 bought."), "\(run.output)")
    #expect(run.output.contains(HostileText.shown(item.title)), "\(run.output)")
  }

  @Test func onATerminalTheNoticeComesWhileThePromptWaits() throws {
    try decide("full")
    try session("shop crepes\n")
    let home = self.home
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("recipe-reminders"), arguments: Self.now,
      environment: home.environment,
      steps: [
        .after("recipes> ", send: "lists\r"),
        .after(
          "bought",
          .run {
            // Another app checks milk off.
            guard let store = try? home.store(),
              let list = store.calendars(for: .reminder).first(where: { $0.title == "Crêpes" }),
              let milk = Self.fetch(store.predicateForReminders(in: [list]), from: store)
                .first(where: { $0.title == "milk" })
            else { return }
            milk.isCompleted = true
            try? store.save(milk, commit: true)
          }),
        // Nothing typed: the notice comes on its own, and the prompt is drawn again below it.
        .after("Reminders: On \"Crêpes\": milk was checked off.", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 3, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    let after = outcome.shown.components(separatedBy: "milk was checked off.").last ?? ""
    #expect(after.contains("recipes> "), "the prompt is drawn again: \(outcome.shown)")
  }

  // MARK: The item commands

  @Test func checkAndUncheckSetTheCompletionDate() throws {
    try decide("full")
    let run = try session(
      """
      shop chocolate cake
      check chocolate cake dark chocolate
      check "Chocolate cake" Eggs
      check chocolate cake eggs
      check chocolate cake egs
      uncheck chocolate cake eggs
      list chocolate cake

      """)
    #expect(run.status == 1)
    #expect(run.output.contains("Checked off dark chocolate on \"Chocolate cake\"."))
    #expect(run.output.contains("Checked off eggs on \"Chocolate cake\"."))
    #expect(run.output.contains("eggs is already checked off on \"Chocolate cake\"."))
    #expect(
      run.output.contains("Error: \"Chocolate cake\" has no item 'egs'; did you mean \"eggs\"?"))
    #expect(run.output.contains("eggs is back on \"Chocolate cake\", to buy."))
    #expect(run.output.contains("\"Chocolate cake\": 7 to buy, 1 bought."))
    #expect(run.output.contains("  [x]  dark chocolate  200 g"))
    let items = try items(of: "Chocolate cake", in: home.store())
    let chocolate = try #require(items.first { $0.title == "dark chocolate" })
    #expect(chocolate.isCompleted)
    // The app's clock (--now), not the system's: a transcript with --now is the same each day.
    #expect(run.output.contains("bought Mon 23 Nov 2026 10:00"), "\(run.output)")
    let completed = try #require(chocolate.completionDate)
    #expect(ISO8601DateFormatter().string(from: completed).hasPrefix("2026-11-23"))
    let eggs = try #require(items.first { $0.title == "eggs" })
    #expect(!eggs.isCompleted)
    #expect(eggs.completionDate == nil)
  }

  @Test func dueGivesDateComponentsAndAnAbsoluteAlarm() throws {
    try decide("full")
    let run = try session(
      """
      shop crepes
      due crepes milk fri 18:00
      due crepes butter 2026-12-01
      due crepes flour soon

      """)
    #expect(run.status == 1)
    #expect(
      run.output.contains("milk on \"Crêpes\" is due Fri 27 Nov 2026 18:00, with an alarm then."))
    #expect(
      run.output.contains(
        "butter on \"Crêpes\" is due Tue 1 Dec 2026, with an alarm at 09:00 that day."))
    #expect(run.output.contains("Error: 'soon' is not a day or a time I can read"))
    let items = try items(of: "Crêpes", in: home.store())
    let milk = try #require(items.first { $0.title == "milk" })
    let due = try #require(milk.dueDateComponents)
    #expect([due.year, due.month, due.day, due.hour, due.minute] == [2026, 11, 27, 18, 0])
    #expect(due.timeZone?.identifier == "Europe/Paris")
    #expect(
      milk.alarms?.map(\.absoluteDate) == [
        ISO8601DateFormatter().date(from: "2026-11-27T17:00:00Z")
      ])
    let butter = try #require(items.first { $0.title == "butter" })
    let day = try #require(butter.dueDateComponents)
    #expect([day.year, day.month, day.day] == [2026, 12, 1])
    #expect(day.hour == nil)
    #expect(
      butter.alarms?.map(\.absoluteDate) == [
        ISO8601DateFormatter().date(from: "2026-12-01T08:00:00Z")
      ])
    #expect(items.first { $0.title == "flour" }?.dueDateComponents == nil)
  }

  @Test func nearIsALocationAlarmOnArriving() throws {
    try decide("full")
    let run = try session(
      """
      shop crepes
      near crepes milk Corner shop 48.8584 2.2945 150
      near crepes eggs "Market" 48.85 2.35
      near crepes sugar Moon 123 2
      near crepes sugar 48.85 2.35 150
      near crepes butter Opera House -33.8568 151.2153 50

      """)
    #expect(run.status == 1)
    // A coordinate below zero is a word of the place's, not an option.
    #expect(
      run.output.contains(
        "butter on \"Crêpes\" will remind you on arriving at Opera House (-33.8568, 151.2153, "
          + "within 50 m)."), "\(run.output)")
    #expect(
      run.output.contains(
        "milk on \"Crêpes\" will remind you on arriving at Corner shop (48.8584, 2.2945, within 150 m)."
      ))
    #expect(run.output.contains("Error: 123.0 2.0 is not a place on Earth"))
    #expect(run.output.contains("Error: Name the place before its coordinates"))
    let items = try items(of: "Crêpes", in: home.store())
    let milk = try #require(items.first { $0.title == "milk" }?.alarms?.first)
    #expect(milk.proximity == .enter)
    let place = try #require(milk.structuredLocation)
    #expect(place.title == "Corner shop")
    #expect(
      place.geoLocation?.coordinate == CLLocationCoordinate2D(latitude: 48.8584, longitude: 2.2945))
    #expect(place.radius == 150)
    let eggs = try #require(items.first { $0.title == "eggs" }?.alarms?.first)
    #expect(eggs.structuredLocation?.title == "Market")
    #expect(eggs.structuredLocation?.radius == 0)
    #expect(items.first { $0.title == "sugar" }?.alarms?.isEmpty ?? true)
  }

  /// What the recipe article says of its alarms, as the alarm agent's listing sees them: a
  /// due item's alarm fires at its due time (09:00 for a day alone), not once it is checked
  /// off; a `near` item's never fires and is listed apart.
  @Test func theAgentFiresDueAlarmsAndListsLocationOnesApart() throws {
    try decide("full")
    let run = try session(
      """
      shop crepes
      due crepes milk fri 18:00
      due crepes butter 2026-12-01
      due crepes flour 2026-11-28 10:00
      check crepes flour
      near crepes eggs "Market" 48.85 2.35

      """)
    #expect(run.status == 0, "\(run.output)")
    let alarms = try home.ekctl([
      "alarms", "--from", "2026-11-23", "--to", "2026-12-08", "--calendar", "Crêpes",
    ])
    #expect(alarms.status == 0, "\(alarms.output)")
    let parts = alarms.output.components(separatedBy: "\n\n")
    let timed = parts[0].split(separator: "\n").map { $0.components(separatedBy: "  ") }
    #expect(
      timed.map { $0[0] + " " + $0[1] } == [
        "2026-11-27T18:00:00 milk", "2026-12-01T09:00:00 butter",
      ])
    #expect(parts.count == 2 && parts[1].contains("never fire") && parts[1].contains("eggs"))
    #expect(!parts[0].contains("eggs") && !alarms.output.contains("flour"))
  }

  @Test func repeatNeedsADueDateAndSaysSo() throws {
    try decide("full")
    let run = try session(
      """
      shop crepes
      repeat crepes flour weekly
      due crepes flour 2026-11-28 10:00
      repeat crepes flour weekly
      due crepes milk fri 18:00
      repeat crepes milk monthly
      repeat crepes milk never
      repeat crepes milk daily

      """)
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: flour has no due date, and a repeating reminder needs one to repeat from. "
          + "Give it one first: due Crêpes flour WHEN"))
    #expect(run.output.contains("flour on \"Crêpes\" now repeats weekly, from its due date."))
    #expect(run.output.contains("milk on \"Crêpes\" no longer repeats."))
    #expect(run.output.contains("Error: 'daily' is not weekly, monthly or never."))
    let items = try items(of: "Crêpes", in: home.store())
    let flour = try #require(items.first { $0.title == "flour" })
    #expect(flour.recurrenceRules?.map(\.frequency) == [.weekly])
    #expect(flour.recurrenceRules?.first?.interval == 1)
    #expect(items.first { $0.title == "milk" }?.recurrenceRules?.isEmpty ?? true)
  }

  @Test func listShowsWhatIsLeftAndDeleteListRemovesIt() throws {
    try decide("full")
    let run = try session(
      """
      lists
      list crepes
      shop crepes
      shop guacamole
      check guacamole lime
      lists
      delete-list crepes
      lists
      list crepes

      """)
    #expect(run.status == 1)
    #expect(run.output.contains("No shopping lists yet; 'shop RECIPE' makes one."))
    #expect(run.output.contains("Error: Crêpes has no shopping list yet; 'shop Crêpes' makes one."))
    #expect(
      run.output.contains(
        "  list       to buy  bought\n  Crêpes     6       0\n  Guacamole  6       1\n"),
      "\(run.output)")
    #expect(run.output.contains("Deleted the list \"Crêpes\" and its items."))
    #expect(run.output.contains("  list       to buy  bought\n  Guacamole  6       1\n"))
    let store = try home.store()
    #expect(lists(titled: "Crêpes", in: store).isEmpty)
    #expect(allReminders(in: store).count == 7)
    #expect(try recorded("Crêpes").list == nil)
  }

  /// A name with an emoji is shown whole, and the columns after it line up: the cake takes
  /// two columns of the terminal (`Gâteau 🍰 d'été` is 15 wide).
  @Test func wideNamesAreWholeAndLinedUp() throws {
    try decide("full")
    let run = try session(
      """
      add-recipe
      Gâteau 🍰 d'été
      200 g flour
      3 eggs

      shop "Gâteau 🍰 d'été"
      shop crepes
      recipes
      lists

      """)
    #expect(run.status == 0, "\(run.output)")
    // Widest of the book: Spaghetti carbonara, 19.
    #expect(run.output.contains("\n  Gâteau 🍰 d'été      2\n"), "\(run.output)")
    #expect(run.output.contains("\n  Spaghetti carbonara  5\n"))
    #expect(
      run.output.contains(
        "  list             to buy  bought\n  Crêpes           6       0\n"
          + "  Gâteau 🍰 d'été  2       0\n"), "\(run.output)")
    #expect(lists(titled: "Gâteau 🍰 d'été", in: try home.store()).count == 1)
  }
}
