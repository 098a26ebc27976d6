import ArgumentParser
import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The app's commands, over the kit's session. Each checks what was typed, then asks for the
/// store (access is asked at the first command that needs it), and marks the suggestion it
/// changes in ``changes``, so that the player's own doing is not told back as news.
struct PokerCommands {
  let session: AppSession
  let player: Player
  let board = PokerBoard()
  /// Access to the calendar, checked for every command that needs it (CalendarAccess.swift).
  let access: EventAccess
  /// The suggestions as the player last saw them; other players' changes are told with the
  /// new standings (StoreChanges.swift).
  let changes: StoreChanges

  init(session: AppSession, player: Player) {
    self.session = session
    self.player = player
    let access = EventAccess(console: session.console)
    let changes = StoreChanges(
      session: session, board: board,
      calendar: { [session] store in PokerCalendar.current(session: session, in: store) })
    changes.sayFirst = { access.tellIfAccessChanged() }
    self.access = access
    self.changes = changes
  }

  /// The store, access checked (asking at need), watched from the first time on.
  func store() throws -> EKEventStore {
    let store = try access.store()  // CalendarAccess.swift: the switch, asking at need
    changes.start(watching: store)  // StoreChanges.swift: once
    changes.tellWhatChanged()  // a change whose notice has not come yet: told before any write
    return store
  }

  /// The shared calendar (the kit's `calendar` command chooses another), over this app's
  /// store.
  var calendars: CalendarChoice {
    PokerCalendar.choice(session: session, store: { [self] in try store() })
  }

  /// The shared calendar, for a command. Access taken away just after the check hides every
  /// calendar, and making one then fails with the store's own error: checked again first,
  /// that is refused as such. (A refusal, or no answer, is the app's own error already.)
  func pokerCalendar() throws -> EKCalendar {
    do { return try calendars.calendar() } catch let error as EKError {
      _ = try store()
      throw error
    }
  }

  var console: Console { session.console }
  var dates: DateText { DateText(timeZone: console.timeZone) }

  var all: [REPLCommand] {
    let numbers: @Sendable ([String]) -> [String] = { [board] words in
      words.isEmpty ? board.numbered.indices.map { "\($0 + 1)" } : []
    }
    let isSuggestion: @Sendable (EKEventStore) throws -> (EKEvent) -> Bool = {
      [session] store in
      let id = PokerCalendar.current(session: session, in: store)?.calendarIdentifier
      return { $0.title == PokerTimes.title && $0.calendar?.calendarIdentifier == id }
    }
    return [
      REPLCommand(
        "suggest", Suggest.self,
        help: "Suggests a time for poker: 2026-05-08 20:00, fri 20:00, tomorrow 19:00."
      ) { try suggest($0.when) },
      REPLCommand("times", help: "Lists the suggested times, with their votes.") {
        try times()
      },
      REPLCommand("vote", TimeNumber.self, help: "Votes for time N.", complete: numbers) {
        try vote($0.n)
      },
      REPLCommand(
        "unvote", TimeNumber.self, help: "Takes back your vote for time N.", complete: numbers
      ) { try unvote($0.n) },
      REPLCommand("winner", help: "Says the time with the most votes so far.") {
        try winner()
      },
      REPLCommand(
        "withdraw", TimeNumber.self, help: "Withdraws time N, which you suggested.",
        complete: numbers
      ) { try withdraw($0.n) },
      CalendarViews.agenda(
        session: session, items: "poker", store: { [self] in try store() }, include: isSuggestion
      ),
      CalendarViews.month(
        session: session, items: "poker", store: { [self] in try store() }, include: isSuggestion
      ),
      calendars.command,
    ]
  }

  // MARK: Commands

  /// `suggest WHEN`: a one-hour event titled "Poker" in the shared calendar, on the player's
  /// clock, with the player as its suggester.
  func suggest(_ words: [String]) throws {
    let start = try SuggestedTime.read(words, now: console.now, in: console.timeZone)
    let calendar = try pokerCalendar()
    let store = try self.store()
    let standings = fetch(calendar, store)
    if let same = standings.times.first(where: { $0.start == start }),
      let number = standings.number(of: same.eventIdentifier)
    {
      remember(standings)
      throw REPLError(
        "\(dates.dayAndTime(start)) is already suggested, as time \(number); "
          + "vote for it with 'vote \(number)'")
    }
    let event = EKEvent(eventStore: store)
    event.title = PokerTimes.title
    event.timeZone = console.timeZone
    event.startDate = start
    event.endDate = start.addingTimeInterval(PokerTimes.length)
    event.calendar = calendar
    event.notes = Ballot(suggester: player.name).notes
    try store.save(event, span: .thisEvent)
    let id = event.eventIdentifier!
    changes.noteOwnChange(id) { $0 = Suggestion(event) }  // once written: StoreChanges.swift
    let now = fetch(calendar, store)
    remember(now)
    let number = now.number(of: id)
    console.print(
      "Suggested \(dates.dayAndTime(start))"
        + (number.map { " as time \($0). Vote for it with 'vote \($0)'." } ?? "."))
  }

  /// `times`: the suggestions, numbered in start order, with their votes and the leader.
  func times() throws {
    let calendar = try pokerCalendar()
    let standings = fetch(calendar, try store())
    PokerCommands.show(standings, on: console, numberingFor: board)
  }

  /// `vote N`: once per player; a second vote is said, not counted.
  func vote(_ word: String) throws {
    try changeBallot(
      word, change: { $0.add(player.name) },
      say: { outcome, when in
        switch outcome {
        case .saved(let ballot):
          "You voted for \(when): \(Suggestion.votesText(ballot.voters.count))."
        case .unchanged(let ballot):
          "You have already voted for \(when) (\(Suggestion.votesText(ballot.voters.count)))."
        }
      })
  }

  /// `unvote N`: takes the player's vote back.
  func unvote(_ word: String) throws {
    try changeBallot(
      word, change: { $0.remove(player.name) },
      say: { outcome, when in
        switch outcome {
        case .saved(let ballot):
          "You took back your vote for \(when): \(Suggestion.votesText(ballot.voters.count))."
        case .unchanged: "You have not voted for \(when)."
        }
      })
  }

  func winner() throws {
    let calendar = try pokerCalendar()
    let standings = fetch(calendar, try store())
    guard !standings.times.isEmpty else {
      console.print("No times are suggested yet; suggest one with 'suggest fri 20:00'.")
      return
    }
    guard let leader = standings.leader else {
      console.print("No time has a vote yet.")
      return
    }
    console.print(
      "The winner so far: \(dates.dayAndTime(leader.start)), suggested by \(leader.suggester), "
        + "with \(leader.votesText) (\(leader.ballot.voters.joined(separator: ", "))).")
  }

  // MARK: Helpers

  /// Changes the ballot of time `word` with ``VoteWriter``, and says how it went (`say` is
  /// given the outcome and the time's date).
  private func changeBallot(
    _ word: String, change: (inout Ballot) -> Bool,
    say: (VoteWriter.Outcome, String) -> String
  ) throws {
    let (store, calendar, suggestion) = try numbered(word)
    let id = suggestion.eventIdentifier
    let when = dates.dayAndTime(suggestion.start)
    let written: VoteWriter.Outcome?
    do {
      written = try VoteWriter.update(eventIdentifier: id, in: calendar, of: store, change)
    } catch is SaveConflictError {  // others saved first all along
      throw REPLError(
        "others kept saving time \(word) (\(when)) for \(Int(VoteWriter.patience)) s while "
          + "yours was being written; nothing of yours was saved: try again")
    } catch {
      _ = try self.store()  // access taken away meanwhile: refused as such, and said
      throw error
    }
    guard let outcome = written else {
      _ = try self.store()  // nil is also "no access": taken away meanwhile, refused as such
      changes.noteOwnChange(id) { $0 = nil }  // said here, not again: StoreChanges.swift
      throw withdrawn(word)
    }
    if case .saved = outcome {  // the player's own vote; others' votes its save carried are news
      changes.noteOwnChange(id) {
        var mine = $0 ?? suggestion  // not told yet: as the player's list showed it
        _ = change(&mine.ballot)
        $0 = mine
      }
    }
    console.print(say(outcome, when))
  }

  /// The store, the poker calendar and the suggestion numbered `word` on the list the player
  /// last saw (the list now, when none was shown yet).
  func numbered(_ word: String) throws -> (EKEventStore, EKCalendar, Suggestion) {
    guard let number = Int(word), number >= 1 else {
      throw REPLError("'\(word)' is not a time's number; 'times' lists them")
    }
    let calendar = try pokerCalendar()
    let store = try self.store()
    let standings = fetch(calendar, store)
    if board.numbered.isEmpty { remember(standings) }
    guard number <= board.numbered.count else {
      throw REPLError(
        board.numbered.isEmpty
          ? "no times are suggested yet; suggest one with 'suggest fri 20:00'"
          : "there is no time \(number); 'times' lists the \(board.numbered.count) there are")
    }
    let id = board.numbered[number - 1]
    guard let suggestion = standings.times.first(where: { $0.eventIdentifier == id }) else {
      _ = try self.store()  // not seen: withdrawn, or access taken away just now (refused so)
      throw withdrawn(word)
    }
    return (store, calendar, suggestion)
  }

  private func fetch(_ calendar: EKCalendar, _ store: EKEventStore) -> Standings {
    PokerTimes.standings(in: calendar, store: store, now: console.now, zone: console.timeZone)
  }

  /// Numbers the times as `standings` lists them.
  private func remember(_ standings: Standings) {
    board.numbered = standings.times.map(\.eventIdentifier)
  }

  /// The standings as a table. Numbered (`times`), the numbers are what the commands' numbers
  /// refer to from then on. The standings in a notice of other players' changes are not
  /// numbered: in a piped session the notice comes after the player's next line was read, and
  /// new numbers must not change what that line's number meant.
  static func show(
    _ standings: Standings, on console: Console, numberingFor board: PokerBoard?
  ) {
    board?.numbered = standings.times.map(\.eventIdentifier)
    guard !standings.times.isEmpty else {
      console.print("No times are suggested yet; suggest one with 'suggest fri 20:00'.")
      return
    }
    let dates = DateText(timeZone: console.timeZone)
    let leader = standings.leader?.eventIdentifier
    let rows = standings.times.enumerated().map { index, time in
      (board == nil ? [] : ["\(index + 1)"]) + [
        dates.dayAndTime(time.start), time.suggester, time.votesText,
        time.ballot.voters.joined(separator: ", "),
        time.eventIdentifier == leader ? "<- leader" : "",
      ]
    }
    let header = ["when", "suggested by", "votes", "voters", ""]
    console.table(rows, header: board == nil ? header : ["#"] + header)
  }
}

/// `suggest <when> ...`: a day and a time, in as many words as it takes (`fri 20:00`).
struct Suggest: ParsableArguments {
  @Argument(help: "When: 2026-05-08 20:00, fri 20:00, tomorrow 19:00.") var when: [String]
}

/// `vote <n>`, `unvote <n>`, `withdraw <n>`: a time's number, as `times` lists them.
struct TimeNumber: ParsableArguments {
  @Argument(help: "The time's number, as 'times' lists them.") var n: String
}
