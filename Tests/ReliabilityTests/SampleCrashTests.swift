import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// The samples killed between the calendar store and their own database (loans, recipes,
/// the wedding plan): the next start repairs what the stopped run left half done, says so,
/// and leaves the two in step (the kit's `CalendarWork`).
///
/// `OPENEVENTKIT_KILL_BEFORE_FINISHING=1` kills a sample exactly there, after the store was
/// changed and before its database records it; `loanKilledAtRandom` kills one at random
/// moments of a multi-step command instead.
@Suite struct SampleCrashTests {
  static let killHere = ["OPENEVENTKIT_KILL_BEFORE_FINISHING": "1"]

  /// A home where `app` has full access to `entity`.
  static func home(_ app: String, _ entity: String) throws -> TemporaryHome {
    let home = try TemporaryHome()
    try home.decide("full", app: "org.openeventkit.\(app)", entity: entity)
    return home
  }

  /// Runs a sample with `input`; with `kill`, killed between the store and its database.
  static func sample(
    _ app: String, _ input: String, home: TemporaryHome, kill: Bool = false,
    arguments: [String] = []
  ) throws -> Finished {
    try Started(
      app, arguments, home: home, input: input, environment: kill ? killHere : [:]
    ).finish()
  }

  // MARK: loan-scheduler

  @Test(arguments: ["--single-events", ""])
  func aLoanStoppedBeforeItIsRecordedIsTakenOffTheCalendar(_ how: String) throws {
    let home = try Self.home("loan-scheduler", "events")
    let stopped = try Self.sample(
      "loan-scheduler", "new Claire 1200 0 12 monthly 2027-01-05 \(how)\n", home: home,
      kill: true)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    #expect(try Self.loanState(home).events > 0, "the kill came after the store's commit")

    let next = try Self.sample("loan-scheduler", "loans\n", home: home)
    #expect(
      next.output.contains(
        "Repaired: making a loan to Claire was stopped before it was recorded; removed the "),
      "\(next)")
    #expect(next.output.contains("No loans yet"), "\(next)")
    let state = try Self.loanState(home)
    #expect(state.loans == 0 && state.events == 0 && state.orphans == 0, "\(state)")
    // Repaired once: the start after says nothing of it.
    let after = try Self.sample("loan-scheduler", "loans\n", home: home)
    #expect(!after.output.contains("Repaired"), "\(after)")
  }

  @Test func aLoanDeletionStoppedHalfWayIsFinished() throws {
    let home = try Self.home("loan-scheduler", "events")
    let made = try Self.sample(
      "loan-scheduler", "new Claire 1200 0 12 monthly 2027-01-05 --single-events\n", home: home)
    #expect(made.status == 0, "\(made)")
    let stopped = try Self.sample("loan-scheduler", "delete 1\n", home: home, kill: true)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    // The loan went in the transaction that recorded the events to remove.
    #expect(try Self.loanState(home).loans == 0)

    let next = try Self.sample("loan-scheduler", "loans\n", home: home)
    #expect(next.output.contains("Repaired: deleting loan 1 to Claire was stopped"), "\(next)")
    let state = try Self.loanState(home)
    #expect(state.loans == 0 && state.events == 0, "\(state)")
  }

  /// `new` with 36 single events, killed at random moments; after each, the next start leaves
  /// loans and events in step: every recorded payment has its event, and every payment
  /// event is a recorded payment's.
  @Test func loanKilledAtRandom() throws {
    var random = TestSeed("loanKilledAtRandom")
    let input = "new Claire 3600 0 36 monthly 2027-01-05 --single-events\n"
    let reference = try Self.home("loan-scheduler", "events")
    let start = Date()
    _ = try Self.sample("loan-scheduler", input, home: reference)
    let took = Date().timeIntervalSince(start)
    #expect(try Self.loanState(reference).events == 36)

    var outcomes = ["made": 0, "not made": 0, "repaired": 0]
    for _ in 0..<Scale.rounds(short: 6, full: 60) {
      let home = try Self.home("loan-scheduler", "events")
      _ = try Self.sample("loan-scheduler", "loans\n", home: home)  // its database exists
      let delay = Double.random(in: 0.2 * took...1.2 * took, using: &random)
      let writer = try Started(
        "loan-scheduler", [], home: home, input: input)
      _ = writer.kill(after: delay)
      _ = writer.finish()
      let next = try Self.sample("loan-scheduler", "loans\n", home: home)
      #expect(next.status == 0, "\(next)")
      let state = try Self.loanState(home)
      let context = "loan-scheduler killed after \(delay) s: \(state)\n\(next.output)"
      #expect(state.orphans == 0 && state.missing == 0, "\(context)")
      #expect(
        (state.loans == 0 && state.events == 0) || (state.loans == 1 && state.events == 36),
        "\(context)")
      outcomes[state.loans == 1 ? "made" : "not made", default: 0] += 1
      if next.output.contains("Repaired:") { outcomes["repaired", default: 0] += 1 }
    }
    print("crash: loan-scheduler new: \(outcomes)")
  }

  /// `new` with 36 single events stopped half way through writing the payments (row 18),
  /// then right after each of its store's commits in turn (`OPENEVENTKIT_CRASH_AFTER`,
  /// `commit:N` from 1 until the command ends on its own): after each stop the next start
  /// leaves loans and events in step, and a stop that came after the payments' commit, before
  /// the loan was recorded, is repaired and said so.
  @Test func loanStoppedAtEachCommitAndHalfWay() throws {
    let input = "new Claire 3600 0 36 monthly 2027-01-05 --single-events\n"
    var stops: [String] = []
    for point in ["row:18"] + (1...40).map({ "commit:\($0)" }) {
      let home = try Self.home("loan-scheduler", "events")
      _ = try Self.sample("loan-scheduler", "loans\n", home: home)  // its database exists
      let writer = try Started(
        "loan-scheduler", [], home: home, input: input,
        environment: [CrashPoint.variable: point]
      ).finish()
      let state = try Self.loanState(home)
      guard writer.status == SIGKILL else {
        // Past its last commit: the command ran to its end.
        #expect(writer.status == 0, "\(point): \(writer)")
        #expect(state.loans == 1 && state.events == 36, "\(point): \(state)")
        break
      }
      let next = try Self.sample("loan-scheduler", "loans\n", home: home)
      #expect(next.status == 0, "\(next)")
      let after = try Self.loanState(home)
      let context = "stopped after \(point): \(state), then \(after)\n\(next.output)"
      #expect(after.orphans == 0 && after.missing == 0, "\(context)")
      #expect(
        (after.loans == 0 && after.events == 0) || (after.loans == 1 && after.events == 36),
        "\(context)")
      // Payments in the calendar that no loan records: what the next start must repair.
      if state.loans == 0 && state.events > 0 {
        #expect(next.output.contains("Repaired: making a loan to Claire"), "\(context)")
      }
      stops.append("\(point): \(state.events) events, \(state.loans) loans")
    }
    print("crash points: loan-scheduler new: \(stops)")
    #expect(stops.first == "row:18: 0 events, 0 loans", "\(stops)")
    #expect(stops.count > 1 && stops.count < 41, "\(stops)")
    #expect(
      stops.contains { $0.hasSuffix("36 events, 0 loans") },
      "no stop came between the payments' commit and the loan's record: \(stops)")
  }

  /// The loans, the payment events in the calendar, those no payment records (orphans), and
  /// the recorded payments whose events are gone (missing).
  static func loanState(_ home: TemporaryHome) throws -> (
    loans: Int, events: Int, orphans: Int, missing: Int
  ) {
    let file = home.url.appendingPathComponent("loan-scheduler/loans.sqlite")
    var loans = 0
    var recorded: Set<String> = []
    if FileManager.default.fileExists(atPath: file.path) {
      let database = try home.database(app: "loan-scheduler", file: "loans.sqlite")
      try database.read { db in
        loans = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loan") ?? 0
        recorded = Set(
          try String.fetchAll(
            db, sql: "SELECT eventIdentifier FROM payment WHERE eventIdentifier IS NOT NULL"))
      }
    }
    // A run killed before its first command that needs the calendar made no store at all.
    guard FileManager.default.fileExists(atPath: home.calendarDatabase.path) else {
      return (loans, 0, 0, recorded.count)
    }
    let store = try home.store()
    let events = store.events(
      matching: store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_798_761_600),  // 2027-01-01
        end: Date(timeIntervalSince1970: 1_924_992_000), calendars: nil)  // 2031-01-01
    ).filter { $0.title?.contains(" owes ") == true }
    let present = Set(events.map { $0.eventIdentifier as String })
    return (
      loans, events.count, present.subtracting(recorded).count,
      recorded.subtracting(present).count
    )
  }

  // MARK: recipe-reminders

  @Test func aShoppingListStoppedBeforeItIsRecordedIsRemoved() throws {
    let home = try Self.home("recipe-reminders", "reminders")
    let stopped = try Self.sample("recipe-reminders", "shop Crêpes\n", home: home, kill: true)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    #expect(try Self.lists(titled: "Crêpes", in: home) == 1)

    let next = try Self.sample("recipe-reminders", "lists\n", home: home)
    #expect(
      next.output.contains(
        "Repaired: making the list \"Crêpes\" was stopped before it was recorded; removed the "
          + "list it had added to your reminders"), "\(next)")
    #expect(try Self.lists(titled: "Crêpes", in: home) == 0)
    // Made again, whole, once.
    let again = try Self.sample("recipe-reminders", "shop Crêpes\nlists\n", home: home)
    #expect(again.output.contains("Added 6 items"), "\(again)")
    #expect(try Self.lists(titled: "Crêpes", in: home) == 1)
  }

  @Test func itemsStoppedBeforeTheyAreRecordedAreRemoved() throws {
    let home = try Self.home("recipe-reminders", "reminders")
    let made = try Self.sample("recipe-reminders", "shop Crêpes\n", home: home)
    #expect(made.status == 0, "\(made)")
    // Another app empties the list: `shop` then adds the six items to the recorded list.
    let store = try home.store()
    for reminder in try Self.allReminders(in: store) { try store.remove(reminder, commit: false) }
    try store.commit()
    let stopped = try Self.sample("recipe-reminders", "shop Crêpes\n", home: home, kill: true)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    #expect(try Self.reminders(in: home) == 6)

    let next = try Self.sample("recipe-reminders", "lists\n", home: home)
    #expect(
      next.output.contains(
        "Repaired: adding 6 items to \"Crêpes\" was stopped before it was recorded; removed "
          + "the 6 reminders it had added to your reminders"), "\(next)")
    // The repair is the app's own doing, not another app's: it runs before the app starts
    // watching the lists, so nothing of it is told.
    #expect(!next.output.contains("Reminders:"), "\(next)")
    #expect(try Self.reminders(in: home) == 0)
    #expect(try Self.lists(titled: "Crêpes", in: home) == 1, "the list was recorded: it stays")
  }

  @Test func aListDeletionStoppedHalfWayIsFinished() throws {
    let home = try Self.home("recipe-reminders", "reminders")
    _ = try Self.sample("recipe-reminders", "shop Crêpes\n", home: home)
    let stopped = try Self.sample(
      "recipe-reminders", "delete-list Crêpes\n", home: home, kill: true)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    let next = try Self.sample("recipe-reminders", "lists\n", home: home)
    #expect(next.output.contains("Repaired: deleting the list \"Crêpes\""), "\(next)")
    #expect(next.output.contains("No shopping lists yet"), "\(next)")
    #expect(try Self.lists(titled: "Crêpes", in: home) == 0)
  }

  static func lists(titled title: String, in home: TemporaryHome) throws -> Int {
    try home.store().calendars(for: .reminder).filter { $0.title == title }.count
  }

  static func reminders(in home: TemporaryHome) throws -> Int {
    try allReminders(in: home.store()).count
  }

  static func allReminders(in store: EKEventStore) throws -> [EKReminder] {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var found: [EKReminder] = []
    store.fetchReminders(matching: store.predicateForReminders(in: nil)) {
      found = $0 ?? []
      done.signal()
    }
    done.wait()
    return found
  }

  // MARK: wedding-planner

  @Test func aPlanItemStoppedBeforeItIsRecordedGoesWithItsEvent() throws {
    let home = try Self.home("wedding-planner", "events")
    let now = ["--now", "2027-01-10T10:00:00"]
    let day = try Self.sample(
      "wedding-planner", "wedding 2027-06-12 \"Villa Lario\"\n", home: home, arguments: now)
    #expect(day.status == 0, "\(day)")
    let stopped = try Self.sample(
      "wedding-planner", "ceremony 15:00\n", home: home, kill: true, arguments: now)
    #expect(stopped.status == SIGKILL, "\(stopped)")
    #expect(try Self.events(titled: "Ceremony", in: home) == 1)

    let next = try Self.sample("wedding-planner", "plan\n", home: home, arguments: now)
    #expect(
      next.output.contains(
        "Repaired: adding the ceremony was stopped before it was recorded; removed the event"),
      "\(next)")
    #expect(!next.output.contains("Ceremony"), "the item went too: \(next)")
    #expect(try Self.events(titled: "Ceremony", in: home) == 0)
    // And it can be planned again.
    let again = try Self.sample(
      "wedding-planner", "ceremony 15:00\nplan\n", home: home, arguments: now)
    #expect(again.output.contains("Ceremony"), "\(again)")
    #expect(try Self.events(titled: "Ceremony", in: home) == 1)
  }

  /// Work under way in a running process is its own: another process of the app that starts
  /// meanwhile repairs nothing of it. (`add` holds its work open while the editor waits.)
  @Test func workUnderWayInAnotherProcessIsLeftAlone() throws {
    let home = try Self.home("wedding-planner", "events")
    let now = ["--now", "2027-01-10T10:00:00"]
    _ = try Self.sample(
      "wedding-planner", "wedding 2027-06-12 \"Villa Lario\"\n", home: home, arguments: now)
    let editing = try SampleRun(
      executable: "wedding-planner", arguments: now, home: home)
    defer { _ = editing.stop() }
    editing.send("add tasting 2027-05-14 15:00\n")
    try editing.wait(for: "cancel stops without saving")
    let meanwhile = try Self.sample("wedding-planner", "plan\n", home: home, arguments: now)
    #expect(!meanwhile.output.contains("Repaired"), "\(meanwhile)")
    editing.send(String(repeating: "\n", count: 11) + "plan\n")
    try editing.wait(for: "Tasting")
    #expect(try editing.finish().status == 0)
    let after = try Self.sample("wedding-planner", "plan\n", home: home, arguments: now)
    #expect(after.output.contains("Tasting"), "\(after)")
    #expect(try Self.events(titled: "Tasting", in: home) == 1)
  }

  static func events(titled title: String, in home: TemporaryHome) throws -> Int {
    let store = try home.store()
    return store.events(
      matching: store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_798_761_600),
        end: Date(timeIntervalSince1970: 1_830_297_600), calendars: nil)
    ).filter { $0.title == title }.count
  }
}
