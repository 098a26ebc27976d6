import Foundation
import OpenEventKit
import TestSupport
import Testing

/// Golden transcripts of the four samples: each article's main session and the access flows,
/// compared byte for byte (once normalised: ``Transcript/normalise(_:home:)``) with
/// `Transcripts/*.txt`, recorded from the samples before issue 43 moved their EventKit calls
/// out of the kit. What a sample prints must not change when its code moves.
///
/// `scripts/record-transcripts` records them again: only on purpose, when a sample's output
/// is meant to change, and with the diff read before it is committed.
@Suite struct TranscriptTests {
  /// The clocks of the articles' sessions.
  static let loanNow = ["--now", "2025-03-01T09:30"]
  static let pokerNow = ["--now", "2026-05-06T12:00"]
  static let recipeNow = ["--now", "2026-11-23T10:00"]
  static let weddingNow = ["--now", "2026-11-23T10:00"]

  static let environment =
    "Environment: TZ=Europe/Paris NO_COLOR=1, OPENEVENTKIT_HOME a new temporary folder (<home>)."

  /// `input`'s lines, for a header: each indented, an empty one said.
  static func lines(_ input: String) -> [String] {
    var lines: [String] = []
    var empty = 0
    func sayEmpty() {
      if empty > 0 {
        lines.append(empty == 1 ? "    (an empty line)" : "    (\(empty) empty lines)")
      }
      empty = 0
    }
    for line in input.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      if line.isEmpty {
        empty += 1
      } else {
        sayEmpty()
        lines.append("    \(line)")
      }
    }
    sayEmpty()
    return lines
  }

  /// Midnight UTC of `day` (`2025-03-01`).
  static func day(_ day: String) -> Date {
    ISO8601DateFormatter().date(from: "\(day)T00:00:00Z")!
  }

  /// The command line of `executable` with `arguments`, as a person types it.
  static func command(_ executable: String, _ arguments: [String]) -> String {
    ([executable] + arguments.map { $0.contains(" ") ? "\"\($0)\"" : $0 })
      .joined(separator: " ")
  }

  /// Runs `executable` piped with all of `input` in a new home, after `decision` (`denied`,
  /// `restricted`, `write-only`, or nil for none) of `entity`'s access for `app`.
  static func piped(
    _ transcript: inout Transcript, _ executable: String, _ arguments: [String], _ input: String,
    app: String, entity: String, decision: String?
  ) throws {
    let home = try SampleHome()
    if let decision { try home.decide(decision, app: app, entity: entity) }
    let run = try SampleRun.session(executable, input, arguments: arguments, home: home)
    let before = decision.map { "  (\(entity) \($0) beforehand)" } ?? ""
    transcript.add(command(executable, arguments) + before, run, home: home, files: true)
  }

  /// The four ways to be refused, each in a new home: denied and restricted beforehand
  /// (`ekctl privacy set`), no answer at the alert (the input ends), and refused at the alert
  /// (`2`, then the same command again). `needing` is a command that needs access; `browsing`
  /// one that does not.
  static func refusals(
    _ name: String, _ executable: String, _ arguments: [String], app: String, entity: String,
    needing: String, browsing: String, extra: [(decision: String, input: String)] = []
  ) throws -> Transcript {
    let flows: [(decision: String?, input: String, note: String)] =
      extra.map { ($0.decision, $0.input, "\($0.decision) beforehand") } + [
        ("denied", "\(needing)\n\(browsing)\n", "denied beforehand"),
        ("restricted", "\(needing)\n\(browsing)\n", "restricted beforehand"),
        (nil, "\(needing)\n", "no answer at the alert: the input ends there"),
        (nil, "\(needing)\n2\n\(needing)\n\(browsing)\n", "refused at the alert (2)"),
      ]
    var notes = [
      "\(executable): its access limited or refused, each run in a new home.", environment,
    ]
    for (number, flow) in flows.enumerated() {
      notes.append("Run \(number + 1), \(flow.note); its input:")
      notes += lines(flow.input)
    }
    var transcript = Transcript(name, notes[0], notes: Array(notes.dropFirst()))
    for flow in flows {
      try piped(
        &transcript, executable, arguments, flow.input, app: app, entity: entity,
        decision: flow.decision)
    }
    return transcript
  }

  // MARK: loan-scheduler

  static let loanApp = "org.openeventkit.loan-scheduler"

  /// LoanScheduler.md, "A session".
  @Test func loanSchedulerSession() throws {
    try Transcript.check {
      let input = """
        loans
        new
        1
        Claire
        1320.38

        3
        daily
        2025-03-02
        payment 1 3
        new Bob 2400 6 4 biweekly 2025-03-10 --single-events
        pay Bob 1
        reschedule Claire 2 2025-03-06
        agenda 2025-03-06
        month 2025-03
        delete-payment Claire 1
        delete-payment Bob 3 --future
        show Bob
        show
        loans
        delete Claire
        quit

        """
      var transcript = Transcript(
        "loan-scheduler", "loan-scheduler: LoanScheduler.md's session.",
        notes: [Self.environment, "Its input (1 answers the alert):"] + Self.lines(input))
      try Self.piped(
        &transcript, "loan-scheduler", Self.loanNow, input, app: Self.loanApp, entity: "events",
        decision: nil)
      return transcript
    }
  }

  /// Another process's change told at the next prompt, then access withdrawn while the app
  /// runs and given back (LoanScheduler.md, "Notes on the patterns").
  @Test func loanSchedulerChangesAndAccessWithdrawn() throws {
    try Transcript.check {
      let home = try SampleHome()
      try home.decide("full", app: Self.loanApp, entity: "events")
      let app = try TypedSession("loan-scheduler", Self.loanNow, home: home)
      let privacy = [
        "privacy", "set", "--app", Self.loanApp, "--entity", "events", "--db",
        home.calendarDatabase.path,
      ]
      let first = "new Claire 300 0 3 daily 2025-03-02\nloans\n"
      try app.type(first)
      let watch = try StoreWatch(home)
      let series = try #require(
        watch.store.events(
          matching: watch.store.predicateForEvents(
            withStart: Self.day("2025-03-01"), end: Self.day("2025-03-08"), calendars: nil)
        ).first?.eventIdentifier)
      try watch.afterChange {
        try home.ekctl([
          "rm", series, "--occurrence", "2025-03-03", "--db", home.calendarDatabase.path,
        ])
      }
      try app.type("\n")
      // A store keeps the decision it read for a second (unless it hears of a change first),
      // so the app is given that long to see the new one, as LoanSchedulerKitTests does.
      try home.ekctl(privacy + ["denied"])
      Thread.sleep(forTimeInterval: 1.5)
      let denied = "show 1\nloans\nagenda\n"
      try app.type(denied)
      try home.ekctl(privacy + ["full"])
      Thread.sleep(forTimeInterval: 1.5)
      try app.type("show 1\n")
      let run = try app.finish()
      var transcript = Transcript(
        "loan-scheduler-changes",
        "loan-scheduler: another process's change told at the next prompt; access withdrawn, "
          + "then given back.",
        notes: [
          Self.environment, "Before: ekctl privacy set --app \(Self.loanApp) --entity events full",
          "Typed, each step read and answered before the next:", "  typed:",
        ] + Self.lines(first) + [
          "  ekctl rm <the series> --occurrence 2025-03-03   (another process)", "  typed:",
        ] + Self.lines("\n") + [
          "  ekctl privacy set --app \(Self.loanApp) --entity events denied, then 1.5 s",
          "  typed:",
        ] + Self.lines(denied) + [
          "  ekctl privacy set --app \(Self.loanApp) --entity events full, then 1.5 s",
          "  typed:",
        ] + Self.lines("show 1\n"))
      transcript.add(Self.command("loan-scheduler", Self.loanNow), run, home: home)
      return transcript
    }
  }

  @Test func loanSchedulerRefusals() throws {
    try Transcript.check {
      try Self.refusals(
        "loan-scheduler-access", "loan-scheduler", Self.loanNow, app: Self.loanApp,
        entity: "events", needing: "new Claire 100 0 1 daily 2025-03-02", browsing: "loans")
    }
  }

  // MARK: poker-vote

  static let pokerApp = "org.openeventkit.poker-vote"

  /// PokerVote.md, "Two players": ann and bob, each a process of their own on one store,
  /// typing in turn.
  @Test func pokerVoteTwoPlayers() throws {
    try Transcript.check {
      let home = try SampleHome()
      func player(_ name: String) throws -> TypedSession {
        try TypedSession(
          "poker-vote", ["--player", name] + Self.pokerNow, home: home)
      }
      // Each step: who, what they type, whether it writes (the other player's store must
      // hear of it before the other's next step).
      let steps: [(player: String, input: String, writes: Bool)] = [
        ("ann", "times\n1\n", true),
        ("bob", "times\n", false),
        ("ann", "suggest fri 20:00\n", true),
        ("bob", "suggest sat 21:00\n", true),
        ("ann", "times\nvote 2\nvote 1\n", true),
        ("bob", "vote 1\ntimes\nvote 2\n", true),
        ("ann", "vote 2\ntimes\n", false),
        ("bob", "withdraw 1\nunvote 1\n", true),
        ("ann", "winner\nagenda\n", false),
        ("bob", "times\nmonth\n", false),
      ]
      let ann = try player("ann")
      var bob: TypedSession?
      var watch: StoreWatch?
      var notes = [
        Self.environment,
        "poker-vote --player ann and --player bob, both with \(Self.pokerNow[1]),",
        "typed in turn; after a step that writes, the other's store hears of it first:",
      ]
      for step in steps {
        notes.append("  \(step.player):")
        notes += Self.lines(step.input)
        let session = try step.player == "ann" ? ann : bob ?? player("bob")
        if step.player == "bob" { bob = session }
        if step.writes, let watch {
          try watch.afterChange { try session.type(step.input) }
        } else {
          try session.type(step.input)
        }
        // The store exists once ann has answered the alert.
        if watch == nil { watch = try StoreWatch(home) }
      }
      // Both quit: ann's status is 0, bob's 1 (his `withdraw 1` failed).
      notes.append("  ann, then bob:")
      notes += Self.lines("quit\n")
      ann.run.send("quit\n")
      let annRun = try ann.finish()
      let bobSession = try #require(bob)
      bobSession.run.send("quit\n")
      let bobRun = try bobSession.finish()
      var transcript = Transcript(
        "poker-vote-two-players", "poker-vote: PokerVote.md's two players.", notes: notes)
      transcript.add(
        Self.command("poker-vote", ["--player", "ann"] + Self.pokerNow), annRun, home: home)
      transcript.add(
        Self.command("poker-vote", ["--player", "bob"] + Self.pokerNow), bobRun, home: home)
      return transcript
    }
  }

  @Test func pokerVoteRefusals() throws {
    try Transcript.check {
      try Self.refusals(
        "poker-vote-access", "poker-vote", ["--player", "ann"] + Self.pokerNow,
        app: Self.pokerApp, entity: "events", needing: "suggest fri 20:00", browsing: "help vote")
    }
  }

  // MARK: recipe-reminders

  static let recipeApp = "org.openeventkit.recipe-reminders"

  /// RecipeReminders.md, "A session", with the sugar removed by another process in the middle.
  @Test func recipeRemindersSession() throws {
    try Transcript.check {
      let home = try SampleHome()
      let app = try TypedSession(
        "recipe-reminders", Self.recipeNow, home: home)
      let first = """
        recipes
        recipe crepes
        shop crepes
        1
        shop crepes
        check crepes eggs
        due crepes milk fri 18:00
        near crepes butter Corner shop 48.8606 2.3376 150
        repeat crepes flour weekly
        list crepes

        """
      let then = """
        shop crêpes
        shop chocolate cake --no-batch
        shop banana bread
        lists

        """
      try app.type(first)
      let watch = try StoreWatch(home)
      let list = try #require(
        watch.store.calendars(for: .reminder).first { $0.title == "Crêpes" })
      let sugar = try #require(
        RecipeRemindersTests.fetch(
          watch.store.predicateForReminders(in: [list]), from: watch.store
        ).first { $0.title == "sugar" })
      try watch.afterChange {
        try home.ekctl(["rm", sugar.calendarItemIdentifier, "--db", home.calendarDatabase.path])
      }
      try app.type(then)
      var transcript = Transcript(
        "recipe-reminders", "recipe-reminders: RecipeReminders.md's session.",
        notes: [
          Self.environment,
          "Typed, each step read and answered before the next (1 answers the alert):",
          "  typed:",
        ] + Self.lines(first) + [
          "  ekctl rm <sugar's identifier>   (another process)", "  typed:",
        ] + Self.lines(then))
      transcript.add(Self.command("recipe-reminders", Self.recipeNow), try app.finish(), home: home)
      return transcript
    }
  }

  /// A list deleted by another process: told at the next prompt, shown as deleted, refused,
  /// forgotten, made again.
  @Test func recipeRemindersDeletedList() throws {
    try Transcript.check {
      let home = try SampleHome()
      try home.decide("full", app: Self.recipeApp, entity: "reminders")
      let app = try TypedSession(
        "recipe-reminders", Self.recipeNow, home: home)
      let first = "shop crepes\nshop lemonade\nlists\n"
      let then = """
        lists
        list crepes
        check crepes eggs
        delete-list crepes
        lists
        delete-list crepes
        shop crepes
        lists

        """
      try app.type(first)
      let watch = try StoreWatch(home)
      try watch.afterChange {
        try home.ekctl(["calendars", "rm", "Crêpes", "--yes", "--db", home.calendarDatabase.path])
      }
      try app.type(then)
      var transcript = Transcript(
        "recipe-reminders-deleted-list",
        "recipe-reminders: a shopping list deleted by another process.",
        notes: [
          Self.environment,
          "Before: ekctl privacy set --app \(Self.recipeApp) --entity reminders full",
          "Typed, each step read and answered before the next:", "  typed:",
        ] + Self.lines(first) + [
          "  ekctl calendars rm Crêpes --yes   (another process)", "  typed:",
        ] + Self.lines(then))
      transcript.add(Self.command("recipe-reminders", Self.recipeNow), try app.finish(), home: home)
      return transcript
    }
  }

  @Test func recipeRemindersRefusals() throws {
    try Transcript.check {
      try Self.refusals(
        "recipe-reminders-access", "recipe-reminders", Self.recipeNow, app: Self.recipeApp,
        entity: "reminders", needing: "shop crepes", browsing: "recipe crepes")
    }
  }

  // MARK: wedding-planner

  static let weddingApp = "org.openeventkit.wedding-planner"

  /// WeddingPlanner.md's sports calendar, for `conflicts`.
  static let sports = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//example//EN
    BEGIN:VEVENT
    UID:golf-2027-05-14@example
    DTSTAMP:20261101T000000Z
    DTSTART;TZID=Europe/Paris:20270514T140000
    DTEND;TZID=Europe/Paris:20270514T180000
    SUMMARY:Golf
    END:VEVENT
    BEGIN:VEVENT
    UID:tennis-2027-05-14@example
    DTSTAMP:20261101T000000Z
    DTSTART;TZID=Europe/Paris:20270514T160000
    DTEND;TZID=Europe/Paris:20270514T170000
    SUMMARY:Tennis
    END:VEVENT
    END:VCALENDAR

    """

  static let weddingSession = """
    wedding 2027-06-12 "Villa Lario" --zone America/New_York
    1
    ceremony 15:30
    add tasting 2027-05-14 15:00 --vendor "Sweet Things"
    \(String(repeating: "\n", count: 11))fittings 2027-04-03 10:00
    plan
    countdown
    conflicts

    """

  /// WeddingPlanner.md's session in a new home, after the sports calendar's import.
  static func weddingPlan(_ transcript: inout Transcript, home: SampleHome) throws {
    let file = home.url.appendingPathComponent("sports.ics")
    try Data(sports.utf8).write(to: file)
    let imported = try home.ekctl([
      "import", file.path, "--calendar", "Sports", "--db", home.calendarDatabase.path,
    ])
    transcript.add("ekctl import sports.ics --calendar Sports", imported, home: home)
    let run = try SampleRun.session(
      "wedding-planner", weddingSession, arguments: weddingNow, home: home)
    transcript.add(command("wedding-planner", weddingNow), run, home: home, files: true)
  }

  static let weddingNotes =
    [
      environment, "sports.ics is WeddingPlanner.md's (Golf and Tennis on 14 May 2027).",
      "wedding-planner's input (1 answers the alert, the 11 empty lines the editor):",
    ] + lines(weddingSession)

  /// WeddingPlanner.md, "A session", whole.
  @Test func weddingPlannerSession() throws {
    try Transcript.check {
      let home = try SampleHome()
      var transcript = Transcript(
        "wedding-planner", "wedding-planner: WeddingPlanner.md's session.", notes: Self.weddingNotes
      )
      try Self.weddingPlan(&transcript, home: home)
      return transcript
    }
  }

  /// WeddingPlanner.md, "Other apps' changes": after the session, another process removes the
  /// tasting, one fitting, renames the calendar and deletes it; each is told at the next
  /// command.
  @Test func weddingPlannerChanges() throws {
    try Transcript.check {
      let home = try SampleHome()
      var transcript = Transcript(
        "wedding-planner-changes",
        "wedding-planner: other apps' changes, told at the next command.",
        notes: Self.weddingNotes)
      try Self.weddingPlan(&transcript, home: home)
      let app = try TypedSession(
        "wedding-planner", Self.weddingNow, home: home)
      let watch = try StoreWatch(home)
      let events = watch.store.events(
        matching: watch.store.predicateForEvents(
          withStart: Self.day("2027-03-01"), end: Self.day("2027-07-01"), calendars: nil))
      let tasting = try #require(events.first { $0.title == "Tasting: Sweet Things" })
      let fitting = try #require(events.first { $0.title == "Dress fitting" })
      let db = ["--db", home.calendarDatabase.path]
      let steps: [(change: [String], note: String, input: String)] = [
        ([], "", "plan\n"),
        (["rm", tasting.eventIdentifier] + db, "ekctl rm <the tasting>", "countdown\n"),
        (
          ["rm", fitting.eventIdentifier, "--occurrence", "2027-05-01"] + db,
          "ekctl rm <the fittings> --occurrence 2027-05-01", "plan\n"
        ),
        (
          ["calendars", "rename", "Wedding", "Our wedding"] + db,
          "ekctl calendars rename Wedding \"Our wedding\"", "countdown\n"
        ),
        (
          ["calendars", "rm", "Our wedding", "--yes"] + db,
          "ekctl calendars rm \"Our wedding\" --yes",
          "add florist 2027-05-20 11:00\nrestore\nplan\n"
        ),
      ]
      transcript.notes.append(
        "Then wedding-planner again, typed, each step read and answered before the next:")
      for step in steps {
        if !step.change.isEmpty {
          transcript.notes.append("  \(step.note)   (another process)")
          try watch.afterChange { try home.ekctl(step.change) }
        }
        transcript.notes.append("  typed:")
        transcript.notes += Self.lines(step.input)
        try app.type(step.input)
      }
      transcript.add(Self.command("wedding-planner", Self.weddingNow), try app.finish(), home: home)
      return transcript
    }
  }

  /// Write-only access (WeddingPlanner.md, "Access"), then the four refusals.
  @Test func weddingPlannerAccess() throws {
    try Transcript.check {
      let writeOnly = """
        wedding 2027-06-12 "Villa Lario" --zone America/New_York
        ceremony 15:30
        fittings 2027-04-03 10:00
        plan
        countdown
        conflicts
        show 2
        wedding 2027-06-19 "Villa Lario" --zone America/New_York

        """
      return try Self.refusals(
        "wedding-planner-access", "wedding-planner", Self.weddingNow, app: Self.weddingApp,
        entity: "events", needing: "wedding 2027-06-12 \"Villa Lario\" --zone America/New_York",
        browsing: "countdown", extra: [("write-only", writeOnly)])
    }
  }
}
