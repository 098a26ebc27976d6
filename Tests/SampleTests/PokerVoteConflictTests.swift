import Foundation
import OpenEventKit
import TestSupport
import Testing

@testable import poker_vote

/// poker-vote's conflict-safe write (`VoteWriter.update`, VoteWriter.swift) beside the forms an
/// app on Apple's EventKit can write: the same loop with its "OpenEventKit only" lines replaced
/// as their comments say (plain `save`, an error of the app's own), and a read, change and save
/// with no check at all. Eight stores on one database, each on a thread of its own as eight
/// apps would be, vote ten times each at once on an event the sample suggested.
///
/// What the Apple forms keep depends on how the threads interleave, so only the sample's form
/// is held to a count; the others' counts are printed (`PokerVoteConflictTests: …`), the
/// figures VoteWriter's comment and PokerVote.md cite. Nothing is timed. They were gathered
/// with the suite's three tests side by side:
///
///     for _ in $(seq 8); do swift test --skip-build \
///       --filter PokerVoteConflictTests; done | grep kept | sort | uniq -c
@Suite struct PokerVoteConflictTests {
  let home: SampleHome
  static let threads = 8
  static let votesEach = 10
  static let all = threads * votesEach

  init() throws { home = try SampleHome() }

  /// Lines typed in another calendar app stay as they were, where they were, through votes
  /// cast and taken back.
  @Test func aBallotKeepsTypedLinesWhereTheyAre() {
    var ballot = Ballot(notes: "Bring chips\nSuggested by: ann\nVote: bob\n\nCall Dan first\n")
    #expect(ballot.add("cy") && !ballot.add("cy"))
    #expect(
      ballot.notes == "Bring chips\nSuggested by: ann\nVote: bob\nVote: cy\n\nCall Dan first\n")
    #expect(ballot.remove("bob") && !ballot.remove("bob"))
    #expect(ballot.notes == "Bring chips\nSuggested by: ann\nVote: cy\n\nCall Dan first\n")
    #expect(ballot.suggester == "ann" && ballot.voters == ["cy"])
    var typedOnly = Ballot(notes: "Typed only")
    #expect(typedOnly.add("ann") && typedOnly.notes == "Vote: ann\nTyped only")
    #expect(typedOnly.remove("ann") && typedOnly.notes == "Typed only")
    var last = Ballot(suggester: "ann")
    #expect(last.notes == "Suggested by: ann")
    #expect(last.add("bob") && last.notes == "Suggested by: ann\nVote: bob")
    #expect(last.remove("bob") && last.notes == "Suggested by: ann")
    // Written by an app that breaks lines with CRLF, or a lone CR: the same ballot, and the
    // other app's text and breaks as they were (a line separator, U+2028, is text).
    var crlf = Ballot(notes: "Suggested by: ann\r\nVote: bob\r\nBring chips\u{2028}and dip\r\n")
    #expect(crlf.suggester == "ann" && crlf.voters == ["bob"] && !crlf.add("bob"))
    #expect(
      crlf.add("cy")
        && crlf.notes
          == "Suggested by: ann\r\nVote: bob\r\nVote: cy\r\nBring chips\u{2028}and dip\r\n"
    )
    #expect(Ballot(notes: "Old line\rVote: zed").voters == ["zed"])
    // Down to one line and back: still the notes' own break.
    var one = Ballot(notes: "Suggested by: ann\r\nVote: bob")
    #expect(one.remove("bob") && one.notes == "Suggested by: ann")
    #expect(one.add("cy") && one.notes == "Suggested by: ann\r\nVote: cy")
  }

  @Test func saveIfUnchangedKeepsEveryVote() throws {
    let (saved, voters) = try voteAtOnce {
      try VoteWriter.update(eventIdentifier: $0, in: Self.poker($1), of: $1, $2)
    }
    #expect(saved == Self.all)
    #expect(voters.count == Self.all)
    #expect(Set(voters).count == Self.all)
    print("PokerVoteConflictTests: saveIfUnchanged kept \(voters.count) of \(Self.all) votes")
  }

  /// Every call says it saved: a vote lost is lost silently, overwritten by a save made from
  /// notes read before it was written.
  @Test func fetchCompareAndSaveSaysEveryVoteSavedYetMayKeepFewer() throws {
    let (saved, voters) = try voteAtOnce {
      try compareThenSave(eventIdentifier: $0, in: Self.poker($1), of: $1, $2)
    }
    #expect(saved == Self.all)
    #expect(voters.count <= Self.all)
    print("PokerVoteConflictTests: fetch, compare, save kept \(voters.count) of \(Self.all) votes")
  }

  /// The same with no check: what the fetch and compare save from loss.
  @Test func readChangeAndSaveMayKeepFewerStill() throws {
    let (saved, voters) = try voteAtOnce(readChangeSave)
    #expect(saved == Self.all)
    #expect(voters.count <= Self.all)
    print("PokerVoteConflictTests: read, change, save kept \(voters.count) of \(Self.all) votes")
  }

  /// A shared item another app made repeat: each vote goes to the whole event (the series),
  /// where the next vote reads it. Saved with `.thisEvent`, the first vote detached the first
  /// occurrence, and the next read the series' notes without it and wrote over it.
  @Test func votesOnARepeatingEventAreAllKept() throws {
    let (id, store, _) = try suggestionMadeWeekly()
    for (player, add) in [("bob", true), ("cy", true), ("dan", true), ("bob", false)] {
      let voter = try home.store()
      let outcome = try VoteWriter.update(eventIdentifier: id, in: Self.poker(voter), of: voter) {
        add ? $0.add(player) : $0.remove(player)
      }
      guard case .saved = outcome else {
        Issue.record("\(player): \(String(describing: outcome))")
        return
      }
    }
    let series = try #require(try home.store().event(withIdentifier: id))
    #expect(Ballot(notes: series.notes).voters == ["cy", "dan"])
    let occurrences = store.events(
      matching: store.predicateForEvents(
        withStart: series.startDate, end: series.startDate.addingTimeInterval(30 * 86_400),
        calendars: [series.calendar]))
    #expect(occurrences.count == 4)
    #expect(
      occurrences.allSatisfy { !$0.isDetached && Ballot(notes: $0.notes).voters == ["cy", "dan"] })
    // One occurrence moved on its own by another app (a time of its own, with an identifier
    // of its own): a vote on it is on it alone; the series is neither split nor moved.
    let starts = occurrences.map(\.startDate)
    let third = occurrences[2]
    third.startDate = third.startDate.addingTimeInterval(86_400)
    third.endDate = third.endDate.addingTimeInterval(86_400)
    try store.save(third, span: .thisEvent, commit: true)
    let detached = try #require(third.eventIdentifier)
    let voter = try home.store()
    let outcome = try VoteWriter.update(
      eventIdentifier: detached, in: Self.poker(voter), of: voter
    ) { $0.add("eve") }
    guard case .saved = outcome else {
      Issue.record("eve: \(String(describing: outcome))")
      return
    }
    let after = try home.store()
    let now = after.events(
      matching: after.predicateForEvents(
        withStart: series.startDate, end: series.startDate.addingTimeInterval(30 * 86_400),
        calendars: [series.calendar]))
    #expect(
      now.map(\.startDate)
        == starts.enumerated().map {
          $0.offset == 2 ? $0.element?.addingTimeInterval(86_400) : $0.element
        })
    #expect(
      now.map { Ballot(notes: $0.notes).voters } == [
        ["cy", "dan"], ["cy", "dan"], ["cy", "dan", "eve"], ["cy", "dan"],
      ])
    #expect(Set(now.map(\.calendarItemExternalIdentifier)).count == 1)
  }

  /// A time another app made repeat and whose second night it moved (an identifier of its
  /// own): half the players vote on the time, half on the moved night, at once. Each vote on
  /// the moved night writes to the series' row too; none may be lost (the eighteenth reader
  /// saw 6 or 7 of 8 kept on the series, each said saved).
  @Test func votesOnATimeAndOnItsMovedNightAtOnceAreAllKept() throws {
    let (id, store, event) = try suggestionMadeWeekly()
    let second = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: event.startDate.addingTimeInterval(86_400),
          end: event.startDate.addingTimeInterval(8 * 86_400), calendars: [event.calendar])
      ).first)
    second.startDate = second.startDate.addingTimeInterval(3600)
    second.endDate = second.endDate.addingTimeInterval(3600)
    try store.save(second, span: .thisEvent, commit: true)
    let moved = try #require(second.eventIdentifier)
    let (saved, voters) = try voteAtOnce(on: [id, moved]) {
      try VoteWriter.update(eventIdentifier: $0, in: Self.poker($1), of: $1, $2)
    }
    #expect(saved == Self.all)
    for (index, event) in [id, moved].enumerated() {
      let cast = (0..<Self.threads).filter { $0 % 2 == index }.flatMap { thread in
        (0..<Self.votesEach).map { "t\(thread)v\($0)" }
      }
      #expect(Set(voters[event] ?? []) == Set(cast))
      let name = index == 0 ? "the time" : "its moved night"
      print("PokerVoteConflictTests: \(name) kept \(voters[event]?.count ?? 0) of \(cast.count)")
    }
  }

  /// A time another app moves to another calendar while a vote is being written is gone to
  /// the vote (nil, which poker-vote says), not voted on in that calendar.
  @Test func aTimeMovedToAnotherCalendarWhileAVoteIsWrittenIsGone() throws {
    let id = try suggestion()
    let other = try home.store()
    let poker = try #require(other.event(withIdentifier: id)).calendar
    let elsewhere = EKCalendar(for: .event, eventStore: other)
    elsewhere.title = "Other"
    elsewhere.source = poker?.source
    try other.saveCalendar(elsewhere, commit: true)
    let voter = try home.store()  // opened after: it knows both calendars
    var moved = false
    let outcome = try VoteWriter.update(eventIdentifier: id, in: Self.poker(voter), of: voter) {
      ballot in
      if !moved, let event = other.event(withIdentifier: id) {  // after the vote's read
        moved = true
        event.calendar = elsewhere
        try? other.save(event, span: .thisEvent, commit: true)
      }
      return ballot.add("zed")
    }
    #expect(moved)
    #expect(outcome == nil)
    let after = try #require(try home.store().event(withIdentifier: id))
    #expect(after.calendar.title == "Other")
    #expect(!Ballot(notes: after.notes).voters.contains("zed"))
  }

  /// A time another app moved to another calendar before the vote read it is not a time of
  /// the app's any more: nothing is written there (the writer took the calendar it first
  /// found the event in as the time's, and voted in "Other").
  @Test func aTimeMovedToAnotherCalendarBeforeTheVoteIsGone() throws {
    let id = try suggestion()
    let other = try home.store()
    let event = try #require(other.event(withIdentifier: id))
    let elsewhere = EKCalendar(for: .event, eventStore: other)
    elsewhere.title = "Other"
    elsewhere.source = event.calendar.source
    try other.saveCalendar(elsewhere, commit: true)
    event.calendar = elsewhere
    try other.save(event, span: .thisEvent, commit: true)
    let voter = try home.store()
    let outcome = try VoteWriter.update(eventIdentifier: id, in: Self.poker(voter), of: voter) {
      $0.add("zed")
    }
    #expect(outcome == nil)
    let after = try #require(try home.store().event(withIdentifier: id))
    #expect(after.calendar.title == "Other")
    #expect(!Ballot(notes: after.notes).voters.contains("zed"))
  }

  /// `compareThenSave` below is `VoteWriter.update` with its "OpenEventKit only" lines replaced
  /// as their comments say; checked, so that its figures are those of the form they describe.
  @Test func theAppleFormIsTheSamplesWithItsMarkedLinesReplaced() throws {
    let tests = URL(fileURLWithPath: #filePath)
    let sample = tests.deletingLastPathComponent()
      .appending(path: "../../Samples/PokerVote/VoteWriter.swift")
    let marked = [
      "do {\ntry store.saveIfUnchanged(event, span: span)\nreturn .saved(ballot)\n"
        + "} catch is SaveConflictError {}":
        "try store.save(event, span: span, commit: true)\nreturn .saved(ballot)",
      "throw SaveConflictError(\ncalendarItemIdentifier: event.calendarItemIdentifier, "
        + "title: event.title, wasRemoved: false)": "throw VoteNotSaved()",
      "timeIntervalSinceNow: patience": "timeIntervalSinceNow: VoteWriter.patience",  // outside
    ]
    var replaced = try Self.body(
      of: "static func update(", in: String(contentsOf: sample, encoding: .utf8)
    ).joined(separator: "\n")
    for (line, apple) in marked {
      #expect(replaced.contains(line), "VoteWriter.swift no longer has \(line)")
      replaced = replaced.replacingOccurrences(of: line, with: apple)
    }
    let appleForm = try Self.body(
      of: "private func compareThenSave(", in: String(contentsOf: tests, encoding: .utf8))
    #expect(replaced == appleForm.joined(separator: "\n"))
  }

  /// The body of the function whose declaration starts with `function`: its lines trimmed,
  /// without comments or empty lines.
  static func body(of function: String, in source: String) throws -> [String] {
    let lines = source.components(separatedBy: "\n")
    let first = try #require(
      lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(function) })
    let indent = lines[first].prefix { $0 == " " }
    let open = try #require(lines[first...].firstIndex { $0.hasSuffix("{") })
    let close = try #require(lines[open...].firstIndex { $0 == indent + "}" })
    return lines[(open + 1)..<close].compactMap { line in
      let code = line.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
      return code.isEmpty ? nil : code
    }
  }

  /// Every thread's votes through `update`, at once: how many calls said `.saved`, and the
  /// voters in the event's notes afterwards.
  func voteAtOnce(
    _ update:
      @escaping @Sendable (String, EKEventStore, (inout Ballot) -> Bool) throws
      -> VoteWriter.Outcome?
  ) throws -> (saved: Int, voters: [String]) {
    let id = try suggestion()
    let (saved, voters) = try voteAtOnce(on: [id], update)
    return (saved, voters[id] ?? [])
  }

  /// The same on several events: thread `n` votes on `ids[n % ids.count]`. The voters are
  /// by event.
  func voteAtOnce(
    on ids: [String],
    _ update:
      @escaping @Sendable (String, EKEventStore, (inout Ballot) -> Bool) throws
      -> VoteWriter.Outcome?
  ) throws -> (saved: Int, voters: [String: [String]]) {
    let stores = try (0..<Self.threads).map { _ in try home.store() }
    let tally = Tally()
    // A thread each, started together (`concurrentPerform` would run two at a time on two
    // cores): eight voters really at once, as eight apps are.
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for thread in 0..<Self.threads {
      done.enter()
      Thread {
        go.wait()
        for vote in 0..<Self.votesEach {
          let player = "t\(thread)v\(vote)"
          let id = ids[thread % ids.count]
          do {
            if case .saved = try update(id, stores[thread], { $0.add(player) }) { tally.saved() }
          } catch {
            tally.failed("\(player): \(error)")
          }
        }
        done.leave()
      }.start()
    }
    for _ in 0..<Self.threads { go.signal() }
    done.wait()
    #expect(tally.failures.isEmpty, "\(tally.failures)")
    let after = try home.store()
    let voters = ids.map { ($0, Ballot(notes: after.event(withIdentifier: $0)?.notes).voters) }
    return (tally.savedCount, Dictionary(voters) { first, _ in first })
  }

  /// cy's suggestion, which another app (this test) then makes weekly, four times: its
  /// identifier, that app's store, and the series.
  func suggestionMadeWeekly() throws -> (String, EKEventStore, EKEvent) {
    let id = try suggestion()
    let store = try home.store()
    let event = try #require(store.event(withIdentifier: id))
    event.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 4)))
    try store.save(event, span: .futureEvents, commit: true)
    return (id, store, event)
  }

  /// The poker calendar of `store`, where poker-vote puts the times (`update` takes a time
  /// moved out of it as gone).
  static func poker(_ store: EKEventStore) throws -> EKCalendar {
    try #require(store.calendars(for: .event).first { $0.title == "Poker" })
  }

  /// The identifier of the event of cy's suggestion, made by the sample.
  func suggestion() throws -> String {
    try home.decide("full", app: "org.openeventkit.poker-vote", entity: "events")
    let run = try SampleRun.session(
      "poker-vote", "suggest fri 20:00\n",
      arguments: ["--player", "cy", "--now", "2026-05-06T12:00"], home: home)
    #expect(run.status == 0, "\(run.output)")
    let store = try home.store()
    let start = ISO8601DateFormatter().date(from: "2026-05-08T18:00:00Z")!
    let predicate = store.predicateForEvents(
      withStart: start, end: start.addingTimeInterval(3600), calendars: nil)
    let event = store.events(matching: predicate).first { $0.title == "Poker" }
    return try #require(event?.eventIdentifier)
  }
}

/// `VoteWriter.update` as an app on Apple's EventKit writes it: its "OpenEventKit only" lines
/// replaced as their comments say.
private func compareThenSave(
  eventIdentifier: String, in calendar: EKCalendar, of store: EKEventStore,
  _ change: (inout Ballot) -> Bool
) throws -> VoteWriter.Outcome? {
  guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
  let span: EKSpan = event.isDetached ? .thisEvent : .futureEvents
  let deadline = Date(timeIntervalSinceNow: VoteWriter.patience)
  while Date() < deadline {
    guard event.calendar?.calendarIdentifier == calendar.calendarIdentifier else { return nil }
    let read = event.notes
    var ballot = Ballot(notes: read)
    guard change(&ballot) else { return .unchanged(ballot) }
    guard let stored = store.event(withIdentifier: eventIdentifier) else { return nil }
    if stored.notes == read {
      event.notes = ballot.notes
      try store.save(event, span: span, commit: true)
      return .saved(ballot)
    }
    event.rollback()
    guard event.refresh() else { return nil }
    Thread.sleep(forTimeInterval: .random(in: 0...0.02))
  }
  throw VoteNotSaved()
}

/// The Apple form's own error: every attempt lost.
private struct VoteNotSaved: Error {}

/// A vote with no check: read the notes, change them, save.
private func readChangeSave(
  eventIdentifier: String, in store: EKEventStore, _ change: (inout Ballot) -> Bool
) throws -> VoteWriter.Outcome? {
  guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
  var ballot = Ballot(notes: event.notes)
  guard change(&ballot) else { return .unchanged(ballot) }
  event.notes = ballot.notes
  try store.save(event, span: .futureEvents, commit: true)
  return .saved(ballot)
}

/// What the threads' calls said, gathered from several threads.
private final class Tally: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var list: [String] = []
  func saved() { lock.withLock { count += 1 } }
  func failed(_ failure: String) { lock.withLock { list.append(failure) } }
  var savedCount: Int { lock.withLock { count } }
  var failures: [String] { lock.withLock { list } }
}
