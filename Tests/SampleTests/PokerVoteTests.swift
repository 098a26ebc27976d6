import Foundation
import OpenEventKit
import TestSupport
import Testing

/// poker-vote driven as players would drive it: several processes on one temporary store,
/// each a player, piped (and one on a terminal).
@Suite struct PokerVoteTests {
  let home: SampleHome

  static let app = "org.openeventkit.poker-vote"
  /// Wednesday 6 May 2026, noon in Paris (the samples' clock in tests).
  static let now = ["--now", "2026-05-06T12:00"]

  init() throws { home = try SampleHome() }

  /// Gives poker-vote full access to events beforehand, so that no line answers the alert.
  func grant(_ decision: String = "full") throws {
    try home.decide(decision, app: Self.app, entity: "events")
  }

  func arguments(_ player: String) -> [String] { ["--player", player] + Self.now }

  /// A whole piped session of `player`.
  @discardableResult
  func play(_ player: String, _ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("poker-vote", input, arguments: arguments(player), home: home)
  }

  /// A running session of `player`.
  func start(_ player: String) throws -> SampleRun {
    try SampleRun(executable: "poker-vote", arguments: arguments(player), home: home)
  }

  /// `player`'s running session, once it has answered `input` with `shown`.
  func running(_ player: String, _ input: String, until shown: String) throws -> SampleRun {
    let run = try start(player)
    run.send(input)
    try run.wait(for: shown)
    return run
  }

  /// Another player's whole session, then `run`'s session told of it: `notice` shown.
  func meanwhile(_ player: String, _ input: String, told run: SampleRun, _ notice: String) throws {
    try play(player, input)
    try run.poke(until: notice)
  }

  /// Ann's suggestion of Friday 8 May 2026, 20:00, which another app (this test) then makes
  /// weekly, three times: that app's store.
  func annsTimeMadeWeekly() throws -> EKEventStore {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let store = try home.store()
    let first = try #require(try pokerEvents().first)
    let event = try #require(store.event(withIdentifier: first.eventIdentifier))
    event.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
    try store.save(event, span: .futureEvents, commit: true)
    return store
  }

  /// Another app moves the poker night of `day` (an occurrence) an hour later, on its own.
  func moveNightAnHourLater(_ day: String, in store: EKEventStore) throws {
    let night = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: date("\(day)T00:00:00Z"), end: date("\(day)T23:59:59Z"), calendars: nil)
      ).first { $0.title == "Poker" })
    night.startDate = night.startDate.addingTimeInterval(3600)
    night.endDate = night.endDate.addingTimeInterval(3600)
    try store.save(night, span: .thisEvent, commit: true)
  }

  /// The events titled Poker in May–July 2026 in the store, by start.
  func pokerEvents() throws -> [EKEvent] {
    let store = try home.store()
    let predicate = store.predicateForEvents(
      withStart: date("2026-05-01T00:00:00Z"), end: date("2026-08-01T00:00:00Z"), calendars: nil)
    return store.events(matching: predicate).filter { $0.title == "Poker" }
  }

  func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  // MARK: Suggesting

  @Test func whenTakesWhatPeopleTypeOnThePlayersClock() throws {
    try grant()
    let run = try play(
      "ann",
      """
      suggest 2026-05-08 20:00
      suggest fri 21:00
      suggest tomorrow 19:00
      suggest today 22:00
      suggest friday 8pm
      suggest soon
      suggest 2026-05-01 20:00
      suggest fri 25:00
      suggest 2026-09-01 20:00
      times

      """)
    #expect(run.status == 1)
    let examples = "say when as 2026-05-08 20:00, fri 20:00, tomorrow 19:00 or today 22:00"
    #expect(run.output.contains("Made the calendar \"Poker\" in \"Local\""), "\(run.output)")
    #expect(
      run.output.contains(
        "poker> suggest soon\nError: 'soon' is not a time I can read; \(examples)"))
    #expect(
      run.output.contains("poker> suggest fri 25:00\nError: 'fri 25:00' is not a time I can read"))
    #expect(run.output.contains("Error: '2026-05-01 20:00' has already passed"))
    // Beyond the window the suggestions are read from, it would be listed to nobody.
    #expect(
      run.output.contains(
        "Error: '2026-09-01 20:00' is more than two months ahead; times are suggested up to two "
          + "months ahead"), "\(run.output)")
    #expect(!run.output.contains("withdrawn"), "\(run.output)")
    #expect(
      run.output.contains(
        "poker> suggest friday 8pm\nError: Fri 8 May 2026 20:00 is already suggested, as time 3; "
          + "vote for it with 'vote 3'"), "\(run.output)")
    // Paris is UTC+2 in May: each start on the player's clock, an hour long, in its zone.
    let events = try pokerEvents()
    #expect(
      events.map { $0.startDate } == [
        date("2026-05-06T20:00:00Z"), date("2026-05-07T17:00:00Z"), date("2026-05-08T18:00:00Z"),
        date("2026-05-08T19:00:00Z"),
      ])
    for event in events {
      #expect(event.endDate.timeIntervalSince(event.startDate) == 3600)
      #expect(event.timeZone?.identifier == "Europe/Paris")
      #expect(event.notes == "Suggested by: ann")
      #expect(event.calendar.title == "Poker")
    }
    #expect(run.output.contains("  1  Wed 6 May 2026 22:00  ann           0 votes\n"))
    #expect(run.output.contains("  4  Fri 8 May 2026 21:00  ann           0 votes\n"))
  }

  @Test func aSuggestionIsSeenByAnotherProcess() throws {
    try grant()
    let ann = try start("ann")
    ann.send("times\n")
    try ann.wait(for: "No times are suggested yet")
    let bob = try play("bob", "suggest fri 20:00\n")
    #expect(bob.status == 0, "\(bob.output)")
    ann.send("times\n")
    try ann.waitReportingLatency(
      for: "1  Fri 8 May 2026 20:00  bob           0 votes", tight: 1, what: "bob's suggestion seen"
    )
    _ = try ann.finish()
  }

  // MARK: Voting

  @Test func aHundredPlayersVotingAtOnceAreAllCounted() throws {
    try grant()
    try play("cy", "suggest fri 20:00\n")
    let failures = Failures()
    // Ten lanes of ten players each: at most ten processes at once.
    DispatchQueue.concurrentPerform(iterations: 10) { lane in
      for seat in 0..<10 {
        let player = "p\(lane * 10 + seat)"
        do {
          let run = try play(player, "vote 1\n")
          if run.status != 0 || !run.output.contains("You voted for Fri 8 May 2026 20:00") {
            failures.add("\(player): \(run.output)")
          }
        } catch {
          failures.add("\(player): \(error)")
        }
      }
    }
    #expect(failures.all.isEmpty, "\(failures.all)")
    let times = try play("cy", "times\n")
    #expect(
      times.output.contains("1  Fri 8 May 2026 20:00  cy            100 votes"), "\(times.output)")
    let voters = try pokerEvents().first?.notes?.split(separator: "\n").filter {
      $0.hasPrefix("Vote: ")
    }
    #expect(Set(voters ?? []).count == 100)
    #expect(voters?.count == 100)
  }

  @Test func aPlayerVotesOnceAndMayTakeItBack() throws {
    try grant()
    try play("ann", "suggest fri 20:00\nsuggest sat 20:00\n")
    let run = try play("bob", "vote 2\nvote 2\ntimes\nunvote 2\nunvote 2\nvote 1\nwinner\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("poker> vote 2\nYou voted for Sat 9 May 2026 20:00: 1 vote.\n"))
    #expect(
      run.output.contains(
        "poker> vote 2\nYou have already voted for Sat 9 May 2026 20:00 (1 vote).\n"))
    #expect(
      run.output.contains("  2  Sat 9 May 2026 20:00  ann           1 vote   bob     <- leader\n"))
    #expect(
      run.output.contains(
        "poker> unvote 2\nYou took back your vote for Sat 9 May 2026 20:00: 0 votes.\n"))
    #expect(run.output.contains("poker> unvote 2\nYou have not voted for Sat 9 May 2026 20:00.\n"))
    #expect(
      run.output.contains(
        "The winner so far: Fri 8 May 2026 20:00, suggested by ann, with 1 vote (bob)."))
    let notes = try pokerEvents().map { $0.notes ?? "" }
    #expect(notes == ["Suggested by: ann\nVote: bob", "Suggested by: ann"])
  }

  /// A name with an emoji is whole in the standings, and the columns after it line up: the
  /// joker takes two columns of the terminal (`Zoë 🃏 Ørsted` is 13 wide).
  @Test func aWideNameIsWholeInTheStandings() throws {
    try grant()
    let zoe = "Zoë 🃏 Ørsted"
    try play("ann", "suggest sat 20:00\n")
    let run = try play(zoe, "suggest fri 20:00\nvote 2\ntimes\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        """
          #  when                  suggested by   votes    voters
          1  Fri 8 May 2026 20:00  Zoë 🃏 Ørsted  0 votes
          2  Sat 9 May 2026 20:00  ann            1 vote   Zoë 🃏 Ørsted  <- leader

        """), "\(run.output)")
    let notes = try pokerEvents().map { $0.notes ?? "" }
    #expect(notes == ["Suggested by: \(zoe)", "Suggested by: ann\nVote: \(zoe)"])
  }

  @Test func theWinnerIsTheEarlierOnATie() throws {
    try grant()
    let ann = try play("ann", "winner\nsuggest sat 20:00\nsuggest fri 20:00\nwinner\nvote 2\n")
    #expect(ann.output.contains("No times are suggested yet;"), "\(ann.output)")
    #expect(ann.output.contains("poker> winner\nNo time has a vote yet.\n"))
    #expect(ann.output.contains("You voted for Sat 9 May 2026 20:00: 1 vote."))
    let bob = try play("bob", "vote 1\nwinner\n")
    #expect(
      bob.output.contains(
        "The winner so far: Fri 8 May 2026 20:00, suggested by ann, with 1 vote (bob)."),
      "\(bob.output)")
  }

  /// A time another app made weekly: listed once, a vote on the whole series, and `withdraw`
  /// removes the whole event, not its first occurrence alone (what the identifier finds).
  @Test func withdrawingATimeAnotherAppMadeRepeatRemovesTheSeries() throws {
    let store = try annsTimeMadeWeekly()
    #expect(try pokerEvents().count == 3)
    // One time (its first occurrence): the series' occurrences share its identifier, and a
    // list keyed by identifier stopped the app on them.
    let bob = try play("bob", "times\nvote 1\n")
    #expect(bob.status == 0, "\(bob.output)")
    #expect(bob.output.contains("1  Fri 8 May 2026 20:00  ann"), "\(bob.output)")
    #expect(!bob.output.contains("\n  2  "), "\(bob.output)")
    #expect(try pokerEvents().allSatisfy { $0.notes?.contains("Vote: bob") == true })
    // The second occurrence moved on its own by another app: a time of its own, and its
    // withdrawal takes it alone, not the occurrences after it.
    let second = try #require(try pokerEvents().dropFirst().first)
    let moved = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: second.startDate, end: second.endDate, calendars: nil)
      ).first { $0.title == "Poker" })
    moved.startDate = moved.startDate.addingTimeInterval(3600)
    moved.endDate = moved.endDate.addingTimeInterval(3600)
    try store.save(moved, span: .thisEvent, commit: true)
    let times = try play("ann", "times\n")
    #expect(times.output.contains("2  Fri 15 May 2026 21:00  ann"), "\(times.output)")
    let withdrawn = try play("ann", "withdraw 2\n")
    #expect(withdrawn.status == 0, "\(withdrawn.output)")
    #expect(
      try pokerEvents().map(\.startDate) == [
        date("2026-05-08T18:00:00Z"), date("2026-05-22T18:00:00Z"),
      ])
    let ann = try play("ann", "withdraw 1\n")
    #expect(ann.status == 0, "\(ann.output)")
    #expect(try pokerEvents().isEmpty, "\(ann.output)")
  }

  /// Withdrawing a repeating time takes the nights another app moved on their own (times of
  /// their own on the list): that is the player's doing, not told back to her as another's.
  @Test func withdrawingARepeatingTimeDoesNotTellItsMovedNightsBack() throws {
    let store = try annsTimeMadeWeekly()
    try moveNightAnHourLater("2026-05-22", in: store)
    let ann = try running("ann", "times\n", until: "2  Fri 22 May 2026 21:00  ann")
    ann.send("withdraw 1\n")
    try ann.wait(for: "Withdrew Fri 8 May 2026 20:00")
    #expect(try pokerEvents().isEmpty)
    // A sentinel: once bob's suggestion is told, a notice of the withdrawal would have been.
    try meanwhile("bob", "suggest sat 21:00\n", told: ann, "bob suggested Sat 9 May 2026 21:00")
    let told = try ann.finish()
    #expect(!told.output.contains("was withdrawn"), "\(told.output)")
  }

  /// The same with a night moved after the list was shown (told as moved, not numbered yet):
  /// it goes with its series, is said, and is not told back as withdrawn by another.
  @Test func withdrawingARepeatingTimeTakesANightMovedSinceTheListWasShown() throws {
    let store = try annsTimeMadeWeekly()
    let ann = try running("ann", "times\n", until: "1  Fri 8 May 2026 20:00  ann")
    try moveNightAnHourLater("2026-05-22", in: store)
    try ann.poke(until: "was moved to Fri 22 May 2026 21:00, a time of its own.")
    ann.send("withdraw 1\n")
    try ann.wait(for: "Withdrew Fri 8 May 2026 20:00")
    #expect(try pokerEvents().isEmpty)
    try meanwhile("bob", "suggest sat 21:00\n", told: ann, "bob suggested Sat 9 May 2026 21:00")
    let told = try ann.finish()
    #expect(told.output.contains(", and the night of it moved on their own."), "\(told.output)")
    #expect(!told.output.contains("was withdrawn"), "\(told.output)")
  }

  /// Withdrawing a night moved on its own takes it alone: its series, still there, is not told
  /// back to the player as a new suggestion of hers.
  @Test func withdrawingAMovedNightDoesNotTellItsSeriesAsNew() throws {
    let store = try annsTimeMadeWeekly()
    try moveNightAnHourLater("2026-05-22", in: store)
    let ann = try running("ann", "times\n", until: "2  Fri 22 May 2026 21:00  ann")
    ann.send("withdraw 2\n")
    try ann.wait(for: "Withdrew Fri 22 May 2026 21:00")
    #expect(try pokerEvents().count == 2)
    try meanwhile("bob", "suggest sat 21:00\n", told: ann, "bob suggested Sat 9 May 2026 21:00")
    let told = try ann.finish()
    #expect(!told.output.contains("ann suggested"), "\(told.output)")
  }

  /// A night of a repeating time moved on its own by another app is a time of its own (its own
  /// identifier): told as that night moved, not as a new suggestion by the time's suggester.
  @Test func aNightOfARepeatingTimeMovedElsewhereIsToldAsMoved() throws {
    let store = try annsTimeMadeWeekly()
    let bob = try running("bob", "times\n", until: "1  Fri 8 May 2026 20:00  ann")
    try moveNightAnHourLater("2026-05-15", in: store)
    try bob.poke(
      until: "Calendar: Fri 15 May 2026 20:00 (ann's) was moved to Fri 15 May 2026 21:00, "
        + "a time of its own.")
    let told = try bob.finish().output
    #expect(!told.contains("ann suggested"), "\(told)")
  }

  @Test func onlyTheSuggesterMayWithdraw() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let bob = try play("bob", "withdraw 1\ntimes\n")
    #expect(bob.status == 1)
    #expect(
      bob.output.contains(
        "poker> withdraw 1\nError: time 1 was suggested by ann; only they can withdraw it\n"))
    #expect(try pokerEvents().count == 1)
    let ann = try play("ann", "vote 1\nwithdraw 1\ntimes\n")
    #expect(ann.status == 0, "\(ann.output)")
    #expect(ann.output.contains("Withdrew Fri 8 May 2026 20:00 (it had 1 vote)."))
    #expect(ann.output.contains("No times are suggested yet"))
    #expect(try pokerEvents().isEmpty)
  }

  // MARK: What is a suggestion

  @Test func pokerOutsideTheWindowOrTheCalendarIsNotShown() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let store = try home.store()
    let poker = try #require(store.calendars(for: .event).first { $0.title == "Poker" })
    let other = try #require(store.defaultCalendarForNewEvents)
    #expect(other != poker)
    func add(_ title: String, _ start: String, in calendar: EKCalendar) throws {
      let event = EKEvent(eventStore: store)
      event.title = title
      event.calendar = calendar
      event.startDate = date(start)
      event.endDate = event.startDate.addingTimeInterval(3600)
      try store.save(event, span: .thisEvent)
    }
    try add("Poker", "2026-05-09T18:00:00Z", in: other)  // another calendar
    try add("Poker", "2026-05-04T18:00:00Z", in: poker)  // two days ago
    try add("Poker", "2026-07-07T18:00:00Z", in: poker)  // two months and a day ahead
    try add("Poker night", "2026-05-10T18:00:00Z", in: poker)  // another title
    try add("Poker", "2026-05-05T13:00:00Z", in: poker)  // 23 hours ago: still shown
    let run = try play("bob", "times\n")
    let rows = run.output.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.contains("#") }
    #expect(rows.count == 2, "\(run.output)")
    #expect(run.output.contains("  1  Tue 5 May 2026 15:00  someone       0 votes\n"))
    #expect(run.output.contains("  2  Fri 8 May 2026 20:00  ann           0 votes\n"))
    // The week's view shows the same two: not the Poker of another calendar on Saturday.
    let agenda = try play("bob", "agenda 2026-05-04\n").output
    #expect(agenda.contains("Tuesday 5 May 2026\n  15:00–16:00  Poker · Poker\n"), "\(agenda)")
    #expect(agenda.contains("Friday 8 May 2026\n  20:00–21:00  Poker · Poker\n"))
    #expect(agenda.contains("Saturday 9 May 2026\n  No poker\n"))
    #expect(agenda.contains("Sunday 10 May 2026\n  No poker\n"))
  }

  // MARK: Other players' changes

  @Test func anotherPlayersChangesAreToldWithTheStandings() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let ann = try running("ann", "vote 1\n", until: "You voted for")
    try meanwhile(
      "bob", "vote 1\nsuggest sat 21:00\n", told: ann,
      "Calendar: bob suggested Sat 9 May 2026 21:00.\nStandings")
    ann.send("winner\n")
    let run = try ann.finish()
    // What came after ann's vote and before `winner`: the other player's doing, then the
    // standings (once, or after each part if the two commits were heard apart).
    let told = try #require(
      run.output.components(separatedBy: "You voted for").last?
        .components(separatedBy: "poker> winner\n").first, "\(run.output)")
    let sentences = told.components(separatedBy: "Standings ('times' numbers them):\n")
    #expect(sentences.count >= 2, "\(run.output)")
    #expect(told.contains("Calendar: bob voted for Fri 8 May 2026 20:00: 2 votes.\n"))
    #expect(told.contains("Calendar: bob suggested Sat 9 May 2026 21:00.\nStandings"))
    #expect(
      sentences.last?.replacingOccurrences(of: "poker> \n", with: "")
        == """
          when                  suggested by  votes    voters
          Fri 8 May 2026 20:00  ann           2 votes  ann, bob  <- leader
          Sat 9 May 2026 21:00  bob           0 votes

        """)
    // Ann's own vote is not told back to her.
    #expect(!run.output.contains("ann voted"))
  }

  /// A suggestion another app renames, and one it removes, are told each as what happened.
  @Test func aTimeRenamedOrRemovedElsewhereIsToldAsSuch() throws {
    try grant()
    try play("ann", "suggest fri 20:00\nsuggest sat 20:00\n")
    let bob = try running("bob", "times\n", until: "0 votes")
    let store = try home.store()
    let found = try pokerEvents().sorted { $0.startDate < $1.startDate }
    let friday = try #require(store.event(withIdentifier: found[0].eventIdentifier))
    friday.title = "Cards at Ann's"
    try store.save(friday, span: .thisEvent, commit: true)
    let saturday = try #require(store.event(withIdentifier: found[1].eventIdentifier))
    try store.remove(saturday, span: .thisEvent, commit: true)
    try bob.poke(
      until: "Calendar: Sat 9 May 2026 20:00 was withdrawn (removed from the calendar).")
    let told = try bob.finish().output
    #expect(
      told.contains(
        "Calendar: Fri 8 May 2026 20:00 was renamed \"Cards at Ann's\": no longer a poker night."),
      "\(told)")
  }

  /// A suggestion another app moves to another calendar is no longer one: told as moved there
  /// (the app watches its own calendar only), not among three reasons.
  @Test func aTimeMovedToAnotherCalendarIsToldAsGoneOrMoved() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let bob = try running("bob", "times\n", until: "0 votes")
    let store = try home.store()
    let found = try #require(try pokerEvents().first)
    let event = try #require(store.event(withIdentifier: found.eventIdentifier))
    let other = EKCalendar(for: .event, eventStore: store)
    other.title = "Other"
    other.source = event.calendar.source
    try store.saveCalendar(other, commit: true)
    event.calendar = other
    try store.save(event, span: .thisEvent, commit: true)
    try bob.poke(until: "Calendar: Fri 8 May 2026 20:00 was moved to the calendar \"Other\".")
    bob.send("vote 1\n")
    let told = try bob.finish().output
    #expect(
      told.contains(
        "Error: time 1 was withdrawn, renamed or moved to another calendar; 'times' lists the "
          + "times now"
      ),
      "\(told)")
    // No time is left: no standings' header over an empty list.
    #expect(!told.contains("Standings ('times' numbers them):\nNo times"), "\(told)")
  }

  @Test func everyPlayerIsToldEveryOtherVoteCastAtTheSameTime() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let names = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]
    let runs = try names.map { try running($0, "times\n", until: "0 votes") }
    // At once: a vote that loses to another's save reads the ballot again and saves both, so
    // a player's own save carries votes the player has not been told of yet.
    for run in runs { run.send("vote 1\n") }
    for run in runs { try run.wait(for: "You voted for Fri 8 May 2026 20:00") }
    for (name, run) in zip(names, runs) {
      let others = Set(names).subtracting([name])
      // Piped, news is told before a prompt: an empty line at a time until all are told.
      let deadline = Date().addingTimeInterval(30)
      while !Self.votersTold(in: run.output).isSuperset(of: others), Date() < deadline {
        let prompts = run.output.components(separatedBy: "poker> ").count
        run.send("\n")
        try run.wait(for: "poker> ", count: prompts)
      }
      let output = try run.finish().output
      #expect(Self.votersTold(in: output) == others, "\(name): \(output)")
    }
  }

  @Test func aVoteForATimeNotToldYetIsNotToldBack() throws {
    try grant()
    let ann = try running("ann", "winner\n", until: "No times are suggested yet")
    try play("bob", "suggest fri 20:00\n")
    ann.send("vote 1\n")
    try ann.wait(for: "You voted for Fri 8 May 2026 20:00: 1 vote.")
    // A later change told: anything about the first time would have been told by then.
    try meanwhile("bob", "suggest sat 21:00\n", told: ann, "bob suggested Sat 9 May 2026 21:00.")
    let output = try ann.finish().output
    #expect(output.components(separatedBy: "bob suggested Fri 8 May 2026 20:00").count <= 2)
    #expect(!output.contains("(ann)"), "ann's own vote told back: \(output)")
  }

  /// The players named in "Calendar: ann and bob voted for …" sentences.
  static func votersTold(in output: String) -> Set<String> {
    var voters: Set<String> = []
    for line in output.split(separator: "\n") {
      guard let calendar = line.range(of: "Calendar: "),
        let voted = line.range(of: " voted for ", range: calendar.upperBound..<line.endIndex)
      else { continue }
      let names = line[calendar.upperBound..<voted.lowerBound]
        .replacingOccurrences(of: " and ", with: ", ")
      voters.formUnion(names.components(separatedBy: ", "))
    }
    return voters
  }

  @Test func changesAreToldInTheOrderOfTheirTimes() throws {
    try grant()
    try play("ann", "suggest thu 19:00\n")
    let ann = try running("ann", "times\n", until: "0 votes")
    // Four suggestions, not made in the order of their times: their event identifiers, which
    // the tracker keys them by, are random.
    try play("bob", "suggest sun 20:00\nsuggest fri 21:00\nsuggest sat 19:00\nsuggest thu 20:00\n")
    let told = [
      "bob suggested Thu 7 May 2026 20:00.", "bob suggested Fri 8 May 2026 21:00.",
      "bob suggested Sat 9 May 2026 19:00.", "bob suggested Sun 10 May 2026 20:00.",
    ]
    // Piped, news is told before a prompt: an empty line at a time until all four are told.
    let deadline = Date().addingTimeInterval(30)
    while !told.allSatisfy(ann.output.contains), Date() < deadline {
      let prompts = ann.output.components(separatedBy: "poker> ").count
      ann.send("\n")
      try ann.wait(for: "poker> ", count: prompts)
    }
    let output = try ann.finish().output
    let positions = told.compactMap { output.range(of: $0)?.lowerBound }
    #expect(positions.count == 4, "\(output)")
    #expect(positions == positions.sorted(), "told in the order of their times: \(output)")
  }

  @Test func aNumberMeansTheTimeThePlayerWasShown() throws {
    try grant()
    try play("ann", "suggest sat 20:00\n")
    let ann = try running("ann", "times\n", until: "1  Sat 9 May 2026 20:00")
    // An earlier time comes first in start order now; ann's line was typed before she knew.
    try meanwhile("bob", "suggest fri 20:00\n", told: ann, "Calendar: bob suggested Fri 8 May")
    ann.send("vote 1\ntimes\nvote 1\n")
    let run = try ann.finish()
    #expect(run.output.contains("Calendar: bob suggested Fri 8 May 2026 20:00."), "\(run.output)")
    #expect(run.output.contains("You voted for Sat 9 May 2026 20:00: 1 vote."), "\(run.output)")
    // After `times`, 1 is Friday.
    #expect(run.output.contains("You voted for Fri 8 May 2026 20:00: 1 vote."), "\(run.output)")
  }

  @Test func onATerminalTheNoticeComesWhileThePromptWaits() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let home = self.home
    let arguments = self.arguments("bob")
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("poker-vote"), arguments: self.arguments("ann"),
      environment: home.environment,
      steps: [
        .after("poker> ", send: "times\r"),
        .after(
          "0 votes",
          .run {
            _ = try? SampleRun.session("poker-vote", "vote 1\n", arguments: arguments, home: home)
          }),
        // Nothing typed: the notice comes on its own, and the prompt is drawn again below it.
        .after("Calendar: bob voted for Fri 8 May 2026 20:00: 1 vote.", send: ""),
        .after("1 vote  bob", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 4, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    let after = outcome.shown.components(separatedBy: "Calendar: bob voted").last ?? ""
    #expect(after.contains("poker> "), "the prompt is drawn again: \(outcome.shown)")
  }

  @Test func onATerminalWithdrawnAccessIsToldWhileThePromptWaits() throws {
    try grant()
    try play("ann", "suggest fri 20:00\n")
    let home = self.home
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("poker-vote"), arguments: arguments("ann"),
      environment: home.environment,
      steps: [
        .after("poker> ", send: "times\r"),
        .after("0 votes", .run { try? home.decide("denied", app: Self.app, entity: "events") }),
        // Nothing typed: the withdrawal is told on its own, with the way to change it.
        .after("--entity events full", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 3, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    #expect(
      outcome.shown.contains("Calendar: this app may no longer use your calendar."),
      "\(outcome.shown)")
    let after = outcome.shown.components(separatedBy: "--entity events full").last ?? ""
    #expect(after.contains("poker> "), "the prompt is drawn again: \(outcome.shown)")
  }

  @Test func onATerminalTheCalendarIsMadeOnlyWhenThePlayerSaysSo() throws {
    try grant()
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("poker-vote"), arguments: arguments("ann"),
      environment: home.environment,
      steps: [
        .after("poker> ", send: "times\r"),
        .after("Make one in \"Local\"? [yes]: ", send: "no\r"),
        .after("choose one with 'calendar'", send: "times\r"),
        .after("Make one in \"Local\"? [yes]: ", send: "\r"),
        .after("No times are suggested yet", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 5, "\(outcome.shown)")
    #expect(
      outcome.shown.contains(
        "Error: no \"Poker\" calendar; make one in your calendar app, or choose one with "
          + "'calendar'"))
    #expect(outcome.shown.contains("Made the calendar \"Poker\" in \"Local\""))
    let calendars = try home.store().calendars(for: .event).filter { $0.title == "Poker" }
    #expect(calendars.count == 1)
    #expect(calendars.first?.source.sourceType == .local)
  }

  /// Another player's app makes "Poker" while this one's question waits: the answer takes
  /// that calendar rather than make a second, where neither player would see the other's
  /// times (a new reader found two).
  @Test func onATerminalACalendarMadeWhileTheQuestionWaitsIsTheOneUsed() throws {
    try grant()
    let home = self.home
    let bob = self.arguments("bob")
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("poker-vote"), arguments: arguments("ann"),
      environment: home.environment,
      steps: [
        .after("poker> ", send: "times\r"),
        .after(
          "Make one in \"Local\"? [yes]: ",
          .run {
            _ = try? SampleRun.session(
              "poker-vote", "suggest fri 20:00\n", arguments: bob, home: home)
          }),
        .after(nil, send: "\r"),
        .after("0 votes", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 4, "\(outcome.shown)")
    #expect(!outcome.shown.contains("Made the calendar"), "\(outcome.shown)")
    let calendars = try home.store().calendars(for: .event).filter { $0.title == "Poker" }
    #expect(calendars.count == 1)
  }

  // MARK: Access

  @Test func aPlayerWithoutAccessWritesNothing() throws {
    try play("ann", "suggest fri 20:00\nyes\n")
    #expect(try pokerEvents().count == 1)
    let before = try pokerEvents().map { $0.notes }
    try grant("denied")
    let run = try play("bob", "suggest sat 20:00\nvote 1\nwithdraw 1\ntimes\ncalendar\n")
    #expect(run.status == 1)
    let refusal =
      "Error: This app does not have full access to your calendar. To change that: ekctl privacy "
      + "set --app \(Self.app) --entity events full"
    for command in ["suggest sat 20:00", "vote 1", "withdraw 1", "times", "calendar"] {
      #expect(run.output.contains("poker> \(command)\n\(refusal)\n"), "\(command): \(run.output)")
    }
    #expect(try pokerEvents().map { $0.notes } == before)
  }

  @Test func wordsReadTheSameQuotedOrApart() throws {
    try grant()
    let run = try play(
      "ann",
      """
      suggest "fri 20:00"
      suggest sat 20:00
      suggest tonight
      vote 1 2
      suggest "\(String(repeating: "x", count: 3000))"

      """)
    #expect(run.output.contains("Suggested Fri 8 May 2026 20:00"), "\(run.output)")
    #expect(run.output.contains("Suggested Sat 9 May 2026 20:00"), "\(run.output)")
    #expect(
      run.output.contains(
        "Error: 'tonight' is a day without a time; say the time too, such as 'tonight 20:00'"),
      "\(run.output)")
    // Numbers are never one value of several words: no hint at quotes.
    #expect(
      run.output.contains(
        "Error: Unexpected argument '2'\nUsage: vote <n>\n"
          + "  See 'vote --help' for more information.\npoker> "), "\(run.output)")
    // The 3,000-character time is not echoed whole, and the hint after it is kept.
    let last = run.output.components(separatedBy: "\n").last { $0.hasPrefix("Error: ") } ?? ""
    #expect(last.count <= 507, "\(last)")
    #expect(last.hasSuffix("tomorrow 19:00 or today 22:00"), "\(last)")
  }

  @Test func copiedWithoutItsResourcesTheRefusalSaysNoInfoPlistWasFound() throws {
    let folder = try TemporaryFolder()
    let copy = folder.url.appendingPathComponent("poker-vote")
    try FileManager.default.copyItem(at: BuildProducts.executable("poker-vote"), to: copy)
    let run = try SampleRun.session(
      copy.path, "suggest fri 20:00\n", arguments: arguments("ann"), home: home)
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "poker-vote asked for access, but no Info.plist was found for it (looked in "
          + "\(folder.url.path) and in the poker-vote resource bundle there)"),
      "\(run.output)")
    #expect(run.output.contains("with NSCalendarsFullAccessUsageDescription saying why"))
    #expect(!run.output.contains("without NSCalendarsFullAccessUsageDescription in its Info.plist"))
  }

  @Test func aBadPlayerNameOrArgumentIsRefused() throws {
    let comma = try SampleRun.session(
      "poker-vote", "", arguments: ["--player", "ann, bob"], home: home)
    #expect(comma.status == 64)
    #expect(comma.output.contains("Usage: poker-vote [--now <iso-date-time>] [--player <name>]"))
    #expect(comma.output.contains("cannot be a player's name"))
    let unknown = try SampleRun.session("poker-vote", "", arguments: ["--colour"], home: home)
    #expect(unknown.status == 64)
    #expect(unknown.output.contains("Error: Unknown option '--colour'\nUsage: poker-vote"))
  }
}

/// Failures gathered from several threads.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func add(_ failure: String) { lock.withLock { list.append(failure) } }
  var all: [String] { lock.withLock { list } }
}
