import Foundation
import OpenEventKit
import TestSupport
import Testing

/// `ekctl mcp` against a real MCP client: every tool, a repeating event edited with each
/// span and read back with `ekctl events`, the person's decision (undecided, denied,
/// write-only, asked on the terminal), malformed calls, and a change from another process
/// arriving as a notice.
@Suite struct MCPServerTests {
  let home: TemporaryHome

  init() throws {
    home = try TemporaryHome()
    // The store made, as a person's first ekctl command makes it.
    _ = try EKEventStore(ownerOf: home.calendarDatabase, create: true)
  }

  func allow(events: String, reminders: String) throws {
    try home.decide(events, app: "org.openeventkit.mcp", entity: "events")
    try home.decide(reminders, app: "org.openeventkit.mcp", entity: "reminders")
  }

  static let allTools = [
    "complete_reminder", "create_calendar", "create_event", "create_reminder", "delete_event",
    "delete_reminder", "free_busy", "list_calendars", "list_events", "list_reminders",
    "search_events", "undo", "update_event",
  ]

  @Test func everyToolAnswersAndEachSpanLandsInTheStore() throws {
    try allow(events: "full", reminders: "full")
    let seen = try MCPClient.run("tour", home: home)
    #expect(seen["server"] as? String == "openeventkit")
    #expect(seen["subscribe"] as? Bool == true)
    #expect(seen["tools"] as? [String] == Self.allTools)
    for key in [
      "calendarsBefore", "createCalendar", "dentist", "standup", "picnic", "retreat", "events",
      "eventsInStJohns",
      "search", "freeBusy", "freeBusyAllDay", "thisSpan", "futureSpan", "deleteThis", "rename",
      "undoRename", "deleteDentist", "undoDelete", "shopping", "milk", "bread", "incomplete",
      "dueBefore", "complete", "completed", "deleteConfirmed", "undoDeleteReminders", "all",
    ] {
      #expect(!seen.isError(key), "\(key): \(seen.text(key))")
    }

    // Wall-clock input with its zone, answered with offsets.
    let dentist = seen.value("dentist")["event"] as? [String: Any] ?? [:]
    #expect(dentist["start"] as? String == "2026-03-02T09:00:00+01:00")
    #expect(dentist["timeZone"] as? String == "Europe/Paris")
    // On the call's zone when it names one: a negative offset with minutes.
    let inStJohns = seen.value("eventsInStJohns")["events"] as? [[String: Any]] ?? []
    let dentistThere = inStJohns.first { $0["title"] as? String == "Dentist" }
    #expect(dentistThere?["start"] as? String == "2026-03-02T04:30:00-03:30", "\(inStJohns)")
    let listed = seen.value("events")["events"] as? [[String: Any]] ?? []
    let standups = listed.filter { $0["title"] as? String == "Standup" }
    #expect(standups.count == 5)
    #expect(
      standups.allSatisfy { $0["repeats"] as? Bool == true && $0["detached"] as? Bool == false })
    let retreat = listed.first { $0["title"] as? String == "Retreat" }
    #expect(
      retreat?["start"] as? String == "2026-03-05" && retreat?["end"] as? String == "2026-03-06")
    #expect(
      (seen.value("search")["events"] as? [[String: Any]])?.map { $0["title"] as? String } == [
        "Dentist"
      ])

    // Free/busy: the free picnic blocks nothing; the dentist and the standup are one stretch.
    let busy = seen.value("freeBusy")["busy"] as? [[String: Any]] ?? []
    #expect(busy.map { $0["start"] as? String } == ["2026-03-02T09:00:00+01:00"])
    #expect(busy.map { $0["end"] as? String } == ["2026-03-02T10:00:00+01:00"])
    let free = seen.value("freeBusy")["free"] as? [[String: Any]] ?? []
    #expect(free.map { $0["minutes"] as? Int } == [60, 120])
    let allDay = seen.value("freeBusyAllDay")["busy"] as? [[String: Any]] ?? []
    #expect(allDay.map { $0["start"] as? String } == ["2026-03-05T00:00:00+01:00"])
    #expect(allDay.map { $0["end"] as? String } == ["2026-03-06T00:00:00+01:00"])

    // Never a guessed span; a future span only when confirmed.
    #expect(seen.isError("noSpan") && seen.value("noSpan")["error"] as? String == "needsSpan")
    #expect(seen.value("futureUnconfirmed")["error"] as? String == "needsConfirmation")
    #expect(seen.value("deleteUnconfirmed")["error"] as? String == "needsConfirmation")
    // A `this` edit undone sets the occurrence back; a `future` one says it cannot.
    #expect(!seen.isError("undoThis") && !seen.isError("thisSpanAgain"), "\(seen.text("undoThis"))")
    let ninth = seen.value("afterUndoThis")["events"] as? [[String: Any]] ?? []
    #expect(
      ninth.map { "\($0["title"] ?? "") \($0["start"] ?? "")" } == [
        "Standup 2026-03-09T09:30:00+01:00"
      ])
    #expect(seen.value("undoFuture")["error"] as? String == "cannotUndo")

    // The series as ekctl reads it back: 2 March as it was, 9 March moved (this), 16 March
    // gone (this), 23 March on renamed (future), through the sixth, 6 April.
    let standup = try home.events(from: "2026-03-01", to: "2026-04-30").filter {
      ($0["title"] as? String ?? "").localizedCaseInsensitiveContains("standup")
    }
    let lines = standup.map { "\($0["start"] as? String ?? "") \($0["title"] as? String ?? "")" }
    #expect(
      lines == [
        "2026-03-02T08:30:00Z Standup", "2026-03-09T09:00:00Z Standup (moved)",
        // Paris moved to summer time on 29 March: 09:30 there is 07:30Z after it.
        "2026-03-23T08:30:00Z Late standup", "2026-03-30T07:30:00Z Late standup",
        "2026-04-06T07:30:00Z Late standup",
      ])
    #expect(standup[1]["isDetached"] as? Bool == true)

    // Undo: the rename set back, the deleted event made again, the reminders too.
    let afterRename = seen.value("afterUndoRename")["events"] as? [[String: Any]] ?? []
    #expect(afterRename.map { $0["title"] as? String } == ["Dentist"])
    let dentists = try home.events(from: "2026-03-02", to: "2026-03-03").filter {
      $0["title"] as? String == "Dentist"
    }
    #expect(dentists.count == 1 && dentists.first?["location"] as? String == "Rue de la Paix")
    #expect(seen.value("undoAgain")["error"] as? String == "nothingToUndo")
    let reminders = seen.value("all")["reminders"] as? [[String: Any]] ?? []
    #expect(Set(reminders.compactMap { $0["title"] as? String }) == ["Milk", "Bread"])
    let due = seen.value("dueBefore")["reminders"] as? [[String: Any]] ?? []
    #expect(due.map { $0["title"] as? String } == ["Milk"])
    let bread = seen.value("bread")["reminder"] as? [[String: Any]]
    _ = bread
    let breadDue = (seen.value("bread")["reminder"] as? [String: Any])?["due"] as? String
    #expect(breadDue == "2026-03-10T18:00:00+01:00")

    // Calendars are resources.
    let agent =
      (seen.value("createCalendar")["calendar"] as? [String: Any])?["id"] as? String ?? "?"
    #expect((seen["resources"] as? [String])?.contains("calendar://\(agent)") == true)

    // Every write said on standard error, with its tool, items and span.
    #expect(seen.stderr.contains("create_event: \"Standup\""))
    #expect(seen.stderr.contains("update_event: \"Late standup\""))
    #expect(seen.stderr.contains("span=future"))
    #expect(seen.stderr.contains("delete_event: \"Standup\""))
    #expect(seen.stderr.contains("span=this"))
    #expect(seen.stderr.contains("undo: Set \"Dentist\" back as it was."))
  }

  /// What `ekctl events` lists in 2026 (the store's own holidays among them), as text.
  func eventsOf2026() throws -> String {
    "\(try home.events(from: "2026-01-01", to: "2027-01-01").map { $0["eventIdentifier"] as? String })"
  }

  @Test func anUndecidedServerNamesTheCommandAndWritesNothing() throws {
    let calendarsBefore = try home.calendarTitles()
    let eventsBefore = try eventsOf2026()
    let seen = try MCPClient.run("access", home: home)
    #expect(seen["tools"] as? [String] == Self.allTools)
    let db = home.calendarDatabase.path
    for key in ["listEvents", "createEvent", "createReminder", "createCalendar", "listCalendars"] {
      #expect(seen.isError(key), "\(key)")
      #expect(seen.value(key)["error"] as? String == "access")
      #expect(seen.text(key).contains("`ekctl mcp --authorize --db \(db)`"), "\(seen.text(key))")
      #expect(
        seen.text(key).contains(
          "`ekctl privacy set --db \(db) --app org.openeventkit.mcp --entity "))
    }
    #expect(seen.text("createEvent").contains("--entity events full"))
    #expect(seen.text("createReminder").contains("--entity reminders full"))
    #expect(try eventsOf2026() == eventsBefore)
    #expect(try home.calendarTitles() == calendarsBefore)
    // Nothing was decided by being asked.
    let decisions = try runEkctl(["privacy", "list", "--db", db], environment: home.environment)
    #expect(decisions.stdout == "No app has asked for access yet.\n")
  }

  @Test func aDeniedServerListsNothingAndWritesNothing() throws {
    try allow(events: "denied", reminders: "denied")
    let calendarsBefore = try home.calendarTitles()
    let eventsBefore = try eventsOf2026()
    let seen = try MCPClient.run("access", home: home)
    #expect(seen["tools"] as? [String] == [])
    for key in ["listEvents", "createEvent", "createReminder", "createCalendar", "listCalendars"] {
      #expect(seen.isError(key), "\(key)")
      #expect(seen.text(key).contains("denied"), "\(seen.text(key))")
    }
    #expect(try eventsOf2026() == eventsBefore)
    #expect(try home.calendarTitles() == calendarsBefore)
  }

  @Test func writeOnlyAccessListsTheWriteToolOnly() throws {
    try allow(events: "write-only", reminders: "denied")
    let seen = try MCPClient.run("access", home: home)
    #expect(seen["tools"] as? [String] == ["create_event"])
    #expect(!seen.isError("createEvent"), "\(seen.text("createEvent"))")
    #expect(seen.isError("listEvents"))
    #expect(seen.text("listEvents").contains("add events only"))
    #expect(seen.isError("createReminder"))
    let added = try home.events(from: "2026-03-02", to: "2026-03-03")
    #expect(added.compactMap { $0["title"] as? String }.filter { $0 == "Agent's" }.count == 1)
  }

  @Test func malformedCallsAreProtocolErrorsAndWriteNothing() throws {
    try allow(events: "full", reminders: "full")
    let calendarsBefore = try home.calendarTitles()
    let eventsBefore = try eventsOf2026()
    let seen = try MCPClient.run("malformed", home: home)
    let errors = seen["errors"] as? [[String: Any]] ?? []
    #expect(errors.count == 13)
    for error in errors {
      // JSON-RPC's invalid params, with words saying which argument.
      #expect(error["code"] as? Int == -32602, "\(error)")
      #expect(!(error["message"] as? String ?? "").isEmpty)
    }
    let messages = errors.compactMap { $0["message"] as? String }
    #expect(messages.contains { $0.contains("\"colour\"") })
    #expect(messages.contains { $0.contains("timeZone") && $0.contains("without an offset") })
    #expect(messages.contains { $0.contains("IANA") })
    #expect((seen["unknownMethod"] as? [String: Any])?["code"] as? Int == -32601)
    // What the store refuses is the tool's error, in the store's words.
    #expect(seen.isError("storeRefusal"))
    #expect(seen.value("storeRefusal")["error"] as? String == "invalid")
    print("MCPServerTests: the store refused with: \(seen.text("storeRefusal"))")
    #expect(try eventsOf2026() == eventsBefore)
    #expect(try home.calendarTitles() == calendarsBefore)
    #expect(!seen.stderr.contains("create_event:"))
  }

  /// What no client library sends: a line that is not JSON, params of the wrong shape.
  @Test func rawMalformedLinesAreProtocolErrorsAndWriteNothing() throws {
    try allow(events: "full", reminders: "full")
    let eventsBefore = try eventsOf2026()
    let session = try RawSession(home: home)
    defer { session.finish() }
    try session.send(
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","#
        + #""capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#)
    try session.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    try session.send(#"{"title": "not JSON-RPC" "#)
    try session.send(
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_event","#
        + #""arguments":"title=A"}}"#)
    try session.send(
      #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_event","#
        + #""arguments":{"title":"A","start":"2026-03-02T09:00:00Z","end":null,"x":1}}}"#)
    try session.send(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[]}"#)
    let answers = session.answers(5)
    func code(_ id: Int) -> Int? {
      let answer = answers.first { $0["id"] as? Int == id }
      return (answer?["error"] as? [String: Any])?["code"] as? Int
    }
    #expect(
      answers.contains { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }, "\(answers)")
    for id in [2, 3, 4] {
      // Invalid params, never the SDK's internal error for params it could not decode.
      #expect(code(id) == -32602, "\(id): \(answers)")
    }
    #expect(try eventsOf2026() == eventsBefore)
  }

  @Test func aChangeByAnotherProcessArrivesAsANotice() throws {
    try allow(events: "full", reminders: "full")
    let other = [
      BuildProducts.executable("ekctl").path, "calendars", "add", "Elsewhere", "--db",
      home.calendarDatabase.path,
    ]
    let seen = try MCPClient.run("notice", home: home, other: other)
    #expect((seen["other"] as? [String: Any])?["status"] as? Int == 0)
    let subscribed = (seen["resources"] as? [String])?.first
    #expect(subscribed != nil)
    #expect(seen["updated"] as? String == subscribed, "\(seen.values)")
    print(
      "MCPServerTests: resources/updated \(seen["seconds"] ?? "-") s after the other process started"
    )
  }

  @Test func authorizeAsksOnTheTerminalAndRecordsTheAnswers() throws {
    let db = home.calendarDatabase.path
    var environment = home.environment
    // Answered on standard input here, as the terminal's lines would be.
    environment["OPENEVENTKIT_PROMPT"] = "stdin"
    let run = try runEkctl(
      ["mcp", "--authorize", "--db", db], input: "1\n2\n", environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("org.openeventkit.mcp: events full access, reminders denied."))
    #expect(run.stderr.contains("Would Like Full Access to Your Calendar"))
    let list = try runEkctl(["privacy", "list", "--db", db], environment: home.environment)
    #expect(list.stdout.contains("org.openeventkit.mcp  events     full"), "\(list.stdout)")
    #expect(list.stdout.contains("org.openeventkit.mcp  reminders  denied"), "\(list.stdout)")
  }

  /// ekctl execs ekctl-mcp: its own start carries no MCP library (issue 47).
  @Test func ekctlLinksNoMCPLibraryAndEkctlMCPDoes() throws {
    func mcpSymbols(_ program: String) throws -> Int {
      let nm = try runProgram(
        try Programs.path("nm", package: "binutils"), [BuildProducts.executable(program).path],
        input: nil, environment: ProcessInfo.processInfo.environment)
      // Swift mangles the module as 3MCP.
      return nm.stdout.split(separator: "\n").filter { $0.contains("s3MCP") }.count
    }
    #expect(try mcpSymbols("ekctl") == 0)
    let count = try mcpSymbols("ekctl-mcp")
    print("MCPServerTests: ekctl-mcp has \(count) MCP symbols")
    #expect(count > 100)
  }
}
