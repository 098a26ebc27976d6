import Foundation
import OpenEventKit
import TestSupport
import Testing

/// The samples' own patterns of many processes on one store: two poker-vote players voting
/// and taking their votes back at the same moments on one event's notes, and a
/// recipe-reminders list written in batches while another process lists it.
@Suite struct SampleConcurrencyTests {
  static let now = ["--now", "2026-05-04T10:00:00"]

  @Test func twoPlayersVotingAtOnceAreBothCounted() throws {
    let home = try TemporaryHome()
    try home.decide("full", app: "org.openeventkit.poker-vote", entity: "events")
    let suggested = try run(
      "poker-vote", ["--player", "cy"] + Self.now, home: home, input: "suggest fri 20:00\n")
    #expect(suggested.status == 0, "\(suggested)")
    // Each player votes and takes the vote back, again and again, and votes at the end.
    let rounds = Scale.rounds(short: 25, full: 200)
    let input = String(repeating: "vote 1\nunvote 1\n", count: rounds) + "vote 1\n"
    let players = try ["ann", "bob"].map {
      try Started("poker-vote", ["--player", $0] + Self.now, home: home, input: input)
    }
    for player in players {
      let finished = player.finish()
      #expect(finished.status == 0, "\(finished.output.suffix(2_000))")
      #expect(!finished.output.contains("locked"), "\(finished.output.suffix(2_000))")
      // Every vote and every unvote took: none met the other player's write half done.
      #expect(finished.output.components(separatedBy: "You voted for").count - 1 == rounds + 1)
    }
    let times = try run("poker-vote", ["--player", "cy"] + Self.now, home: home, input: "times\n")
    #expect(times.output.contains("2 votes"), "\(times)")
    let store = try home.store()
    let notes = store.events(
      matching: store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_777_593_600),  // 2026-05-01
        end: Date(timeIntervalSince1970: 1_778_371_200), calendars: nil)  // 2026-05-10
    ).compactMap(\.notes).joined(separator: "\n")
    #expect(notes.split(separator: "\n").filter { $0.hasPrefix("Vote: ") }.count == 2, "\(notes)")
  }

  @Test func aListWrittenWhileAnotherProcessListsIsSeenWholeOrNotAtAll() throws {
    let home = try TemporaryHome()
    try home.decide("full", app: "org.openeventkit.recipe-reminders", entity: "reminders")
    let rounds = Scale.rounds(short: 15, full: 100)
    let writer = try Started(
      "recipe-reminders", [], home: home,
      input: String(repeating: "shop Crêpes\ndelete-list Crêpes\n", count: rounds))
    // The reader asks for the lists over and over for as long as the writer writes.
    let reader = try SampleRun(executable: "recipe-reminders", home: home)
    defer { reader.stop() }
    var asked = 0
    while writer.process.isRunning {
      reader.send("lists\n")
      asked += 1
      Thread.sleep(forTimeInterval: 0.005)
    }
    let written = writer.finish()
    let read = try reader.finish()
    #expect(written.status == 0, "\(written.output.suffix(2_000))")
    #expect(read.status == 0, "\(read.output.suffix(2_000))")
    #expect(written.output.components(separatedBy: "Added 6 items").count - 1 == rounds)
    // The list is made and committed before its items, which come in one commit: a reader
    // sees it empty or whole ("Crêpes  6  0"), never in part.
    let seen = read.output.split(separator: "\n").filter { $0.hasPrefix("  Crêpes ") }
    let counts = seen.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "?" }
    #expect(counts.allSatisfy { $0 == "0" || $0 == "6" }, "\(Set(counts))")
    print(
      "concurrency: recipe lists read \(seen.count) times while written, to buy: \(Set(counts))")
  }
}
