import Foundation
import OpenEventKit
import TestSupport
import Testing

/// `ekctl calendars add`, `rename` and `rm` over a real store in a temporary folder: what each
/// makes or changes, what each refuses (in one line, changing nothing), the question `rm`
/// asks on a terminal, and the change notice another process hears.
@Suite struct CalendarCommandTests {
  let temporary: TemporaryFolder
  let database: String

  init() throws {
    temporary = try TemporaryFolder(prefix: "EkctlCalendars")
    database = temporary.url.appendingPathComponent("Calendar.sqlite").path
    // Made by the first import; Calendar, Reminders and Holidays, and "Team Google" with its
    // stand-up series, the series' moved occurrence, an offsite and a retro.
    let result = try ekctl(["import", StoreCommandTests.fixture("google.ics")])
    #expect(result.stdout == "4 events added, 0 updated in \"Team Google\".\n")
  }

  /// `ekctl ARGUMENTS --db DATABASE`.
  func ekctl(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
    try runEkctl(arguments + ["--db", database], input: input, environment: ["TZ": "UTC"])
  }

  /// The calendars as `ekctl calendars --json` lists them.
  func listed() throws -> [[String: Any]] {
    let result = try ekctl(["calendars", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try result.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  func titles() throws -> [String] { try listed().compactMap { $0["title"] as? String } }

  func identifier(of title: String) throws -> String {
    try #require(
      try listed().first { $0["title"] as? String == title }?["calendarIdentifier"] as? String)
  }

  /// The store as another program opens it, for what `calendars` does not print (colours).
  func store() throws -> EKEventStore {
    try EKEventStore(ownerOf: URL(fileURLWithPath: database))
  }

  @Test func addMakesCalendarsAndReminderListsInTheDefaultSource() throws {
    let before = try ekctl(["calendars"]).stdout
    #expect(before.hasPrefix("title        kind       source  "))
    // The listing is `list`, and the default: the same lines either way.
    #expect(try ekctl(["calendars", "list"]).stdout == before)
    #expect(
      try ekctl(["calendars", "list", "--json"]).stdout == ekctl(["calendars", "--json"]).stdout)

    var result = try ekctl(["calendars", "add", "Work"])
    #expect(result.status == 0, "\(result.stderr)")
    let work = try identifier(of: "Work")
    #expect(result.stdout == "Added the calendar \"Work\" in Local: \(work)\n")
    result = try ekctl(["calendars", "add", "Groceries", "--reminders", "--color", "#1badf8"])
    #expect(result.status == 0, "\(result.stderr)")
    let groceries = try identifier(of: "Groceries")
    #expect(result.stdout == "Added the reminder list \"Groceries\" in Local: \(groceries)\n")

    let lines = try listed()
    let made = lines.filter { ["Work", "Groceries"].contains($0["title"] as? String) }
    #expect(made.map { $0["entity"] as? String } == ["events", "reminders"])
    #expect(
      made.allSatisfy { $0["source"] as? String == "Local" && $0["writable"] as? Bool == true })
    let store = try store()
    let list = try #require(store.calendar(withIdentifier: groceries))
    #expect(list.allowedEntityTypes == .reminder && list.type == .local)
    #expect(list.cgColor == CGColor(red: 0x1B / 255, green: 0xAD / 255, blue: 0xF8 / 255, alpha: 1))
  }

  @Test func aWideTitleIsWholeAndTheColumnsLineUp() throws {
    #expect(try ekctl(["calendars", "add", "Zoë 🃏 Ørsted"]).status == 0)
    #expect(try ekctl(["calendars", "add", "日本語"]).status == 0)
    let lines = try ekctl(["calendars"]).stdout.split(separator: "\n").map(String.init)
    let wide = try #require(lines.first { $0.hasPrefix("Zoë 🃏 Ørsted  ") }, "\(lines)")
    let japanese = try #require(lines.first { $0.hasPrefix("日本語") }, "\(lines)")
    // The kind column starts at the same terminal column on every line: the title column
    // is 13 columns wide (the joker takes two), and 日本語 takes six.
    #expect(wide.hasPrefix("Zoë 🃏 Ørsted  events"), "\(wide)")
    #expect(japanese.hasPrefix("日本語" + String(repeating: " ", count: 9) + "events"), "\(japanese)")
    #expect(lines[0].hasPrefix("title" + String(repeating: " ", count: 10) + "kind"), "\(lines[0])")
  }

  @Test func addTakesASourceByTitleOrIdentifier() throws {
    let local = try #require(try store().sources.first { $0.sourceType == .local })
    var result = try ekctl(["calendars", "add", "By title", "--source", "LOCAL"])
    #expect(result.status == 0, "\(result.stderr)")
    result = try ekctl(["calendars", "add", "By id", "--source", local.sourceIdentifier])
    #expect(result.status == 0, "\(result.stderr)")
    let made = try listed().filter { ($0["title"] as? String)?.hasPrefix("By ") == true }
    #expect(made.map { $0["source"] as? String } == ["Local", "Local"])
  }

  @Test func badColoursAndSourcesAreRefusedAndMakeNothing() throws {
    let before = try ekctl(["calendars", "--json"]).stdout
    for color in ["red", "#1BADF", "#1BADF8FF", "1BADF8", "#GGGGGG", "#1BADF8 "] {
      let result = try ekctl(["calendars", "add", "Work", "--color", color])
      #expect(result.status != 0)
      #expect(
        result.stderr.contains("a colour is written #RRGGBB, six hexadecimal digits, like #1BADF8"),
        "\(color): \(result.stderr)")
    }
    let refusals = [
      (["--source", "Locl"], "Error: no source titled \"Locl\"; did you mean \"Local\"? "),
      (
        ["--source", "subscribed calendars"],
        "Error: The source \"Subscribed Calendars\" does not allow adding calendars.\n"
      ),
      (
        ["--reminders", "--source", "Subscribed Calendars"],
        "Error: the source \"Subscribed Calendars\" holds no reminder lists\n"
      ),
    ]
    for (arguments, message) in refusals {
      let result = try ekctl(["calendars", "add", "Work"] + arguments)
      #expect(result.status != 0)
      #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
    }
    #expect(try ekctl(["calendars", "add", ""]).stderr == "Error: The calendar needs a title.\n")
    #expect(try ekctl(["calendars", "--json"]).stdout == before)
  }

  @Test func renameByIdentifierAndByTitle() throws {
    _ = try ekctl(["calendars", "add", "Work"])
    let work = try identifier(of: "Work")
    var result = try ekctl(["calendars", "rename", work, "Office"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Renamed \"Work\" to \"Office\".\n")
    // By title, ignoring case and accents; the identifier stays.
    result = try ekctl(["calendars", "rename", "office", "Bureau d'été"])
    #expect(result.stdout == "Renamed \"Office\" to \"Bureau d'été\".\n")
    result = try ekctl(["calendars", "rename", "bureau d'ete", "Reminders at work"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try identifier(of: "Reminders at work") == work)

    result = try ekctl(["calendars", "rename", "Ofice", "X"])
    #expect(result.status != 0)
    #expect(result.stderr.hasPrefix("Error: no calendar titled \"Ofice\""))
  }

  @Test func aTitleSeveralCalendarsShareNamesNone() throws {
    _ = try ekctl(["calendars", "add", "Team"])
    _ = try ekctl(["calendars", "add", "team", "--reminders"])
    let ids = try listed().filter { ($0["title"] as? String)?.lowercased() == "team" }
      .compactMap { $0["calendarIdentifier"] as? String }
    #expect(ids.count == 2)
    let before = try ekctl(["calendars", "--json"]).stdout
    for arguments in [["rename", "Team", "X"], ["rm", "Team", "--yes"]] {
      let result = try ekctl(["calendars"] + arguments)
      #expect(result.status != 0)
      #expect(
        result.stderr
          == "Error: 2 calendars are titled \"Team\"; name one by its identifier: "
          + "\(ids[0]) (events, Local), \(ids[1]) (reminders, Local)\n")
    }
    #expect(try ekctl(["calendars", "--json"]).stdout == before)
    // Either is named by its identifier.
    // --db after the group, before its subcommand, is read as well.
    let result = try runEkctl(["calendars", "--db", database, "rm", ids[1]])
    #expect(result.stdout == "Removed \"team\".\n", "\(result.stderr)")
  }

  @Test func anEmptyCalendarIsRemovedWithoutAQuestion() throws {
    _ = try ekctl(["calendars", "add", "Spare"])
    let result = try ekctl(["calendars", "rm", "Spare"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Removed \"Spare\".\n")
    #expect(result.stderr == "")
    #expect(try !titles().contains("Spare"))
  }

  /// Without a terminal to ask on, a calendar with items is removed only with --yes; then its
  /// events go with it.
  @Test func aCalendarWithItemsNeedsYesWithoutATerminal() throws {
    let exported = try ekctl(["export", "--calendar", "Team Google"]).stdout
    var result = try ekctl(["calendars", "rm", "Team Google"], input: "y\n")
    #expect(result.status != 0)
    #expect(
      result.stderr
        == "Error: \"Team Google\" holds 4 events, which would go with it; there is no terminal "
        + "to ask on, so pass --yes to remove it anyway\n")
    #expect(try ekctl(["export", "--calendar", "Team Google"]).stdout == exported)

    result = try ekctl(["calendars", "rm", "team google", "--yes"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Removed \"Team Google\" and its 4 events.\n")
    #expect(try !titles().contains("Team Google"))
    result = try ekctl(["show", "standup-7f3a@google.com"])
    #expect(
      result.stderr == "Error: no event or reminder with identifier standup-7f3a@google.com\n")
  }

  @Test func subscribedAndReadOnlyCalendarsAreRefused() throws {
    let before = try ekctl(["calendars", "--json"]).stdout
    for (arguments, action) in [
      (["rename", "Holidays", "Days off"], "rename"), (["rm", "holidays", "--yes"], "remove"),
    ] {
      let result = try ekctl(["calendars"] + arguments)
      #expect(result.status != 0)
      #expect(
        result.stderr
          == "Error: cannot \(action) \"Holidays\": it is a subscribed calendar, which its feed "
          + "keeps as it is; `ekctl unsubscribe` removes one you subscribed to\n")
    }
    #expect(try ekctl(["calendars", "--json"]).stdout == before)
  }

  /// `ekctl rm` with a calendar's identifier says which command removes calendars.
  @Test func rmOfACalendarIdentifierPointsToCalendarsRm() throws {
    let id = try identifier(of: "Team Google")
    let result = try ekctl(["rm", id])
    #expect(
      result.stderr
        == "Error: \(id) is the calendar \"Team Google\", not an event or reminder; "
        + "`ekctl calendars rm \(id)` removes a calendar\n")
  }

  /// On a terminal, `rm` asks; "n" (or just Return) keeps the calendar and everything in it.
  @Test func onATerminalNoKeepsTheCalendar() throws {
    let exported = try ekctl(["export", "--calendar", "Team Google"]).stdout
    for answer in ["n\r", "\r"] {
      let run = try PseudoTerminal.run(
        BuildProducts.executable("ekctl"),
        arguments: ["calendars", "rm", "Team Google", "--db", database],
        steps: [.after("? [y/N] ", send: answer)])
      #expect(run.ending == .exited(0), "\(run.shown)")
      #expect(run.shown.contains("Delete \"Team Google\" and its 4 events? [y/N] "))
      #expect(run.shown.contains("Kept \"Team Google\"."))
      #expect(try ekctl(["export", "--calendar", "Team Google"]).stdout == exported)
    }
  }

  @Test func onATerminalYesRemovesIt() throws {
    let run = try PseudoTerminal.run(
      BuildProducts.executable("ekctl"),
      arguments: ["calendars", "rm", "Team Google", "--db", database],
      steps: [.after("? [y/N] ", send: "y\r")])
    #expect(run.ending == .exited(0), "\(run.shown)")
    #expect(run.shown.contains("Delete \"Team Google\" and its 4 events? [y/N] "))
    #expect(run.shown.contains("Removed \"Team Google\" and its 4 events."))
    #expect(try !titles().contains("Team Google"))
  }

  /// Each change is a commit like any other: `ekctl watch`, in another process, hears it.
  @Test func anotherProcessHearsEachChange() async throws {
    let (watch, lines) = try await LineCollector.watching(database)
    defer { if watch.isRunning { watch.terminate() } }
    /// The lines `watch` prints for a change to no item.
    func calendarChanges(_ lines: [String]) -> Int {
      lines.filter { $0.hasSuffix(" changed (calendars or settings)") }.count
    }

    _ = try ekctl(["calendars", "add", "Work"])
    try await lines.wait { calendarChanges($0) == 1 }
    _ = try ekctl(["calendars", "rename", "Work", "Office"])
    try await lines.wait { calendarChanges($0) == 2 }
    _ = try ekctl(["calendars", "rm", "Team Google", "--yes"])
    try await lines.wait { $0.filter { $0.contains(" removed \"") }.count == 4 }
    #expect(lines.snapshot.contains { $0.contains(" removed \"Retro\" ") })
    watch.terminate()
  }
}
