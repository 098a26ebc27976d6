import ArgumentParser
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// The commands, over the app's one store; the series' identifiers are settings of the app's.
final class ClubCommands: @unchecked Sendable {  // used on the main thread only
  let session: AppSession
  let eventStore = EKEventStore()
  var shown: [Date] = [], observer: (any NSObjectProtocol)?
  var dates: DateText { DateText(timeZone: session.console.timeZone) }
  init(session: AppSession) { self.session = session }
  deinit { observer.map { NotificationCenter.default.removeObserver($0) } }
  func useCalendar() throws {  // OpenEventKit sample kit: a command waits; an app awaits
    try waitForAccessCheck(to: .event, askingOn: session.console) {
      try await self.requireFullAccess()  // CalendarAccess.swift
    }
    startWatching()
    refetchAndCompare()  // a change whose notice has not come yet: told before any write
  }
  var all: [REPLCommand] {
    [
      REPLCommand("plan", Plan.self, help: "Plans 12 meetings.") { [self] arguments in
        guard let start = DateReading.instant(arguments.start, in: dates.timeZone) else {
          throw REPLError("'\(arguments.start)' is not a date and time such as 2025-03-06T19:00")
        }
        try useCalendar()
        defer { noteOwnChange() }  // once written: StoreChanges.swift
        try cancelMeetings()  // a new book replaces the old meetings
        let book = arguments.book.joined(separator: " ")
        try plan(book, from: start)  // and records it: MeetingEvents.swift
        session.console.print("Planned 12 meetings on \(book) from \(dates.dayAndTime(start)).")
      },
      REPLCommand("meetings", help: "Lists the meetings of the coming year.") { [self] in
        try useCalendar()
        let rows = meetings(from: session.console.now).map { [dates.dayAndTime($0.startDate)] }
        guard !rows.isEmpty else { return session.console.print("No meetings planned: 'plan'.") }
        session.console.table(rows, header: ["Meeting"])
      },
      REPLCommand("cancel", help: "Takes the meetings off the calendar.") { [self] in
        try useCalendar()
        guard !meetings().isEmpty else { return session.console.print("No meetings to cancel.") }
        defer { noteOwnChange() }  // once written: StoreChanges.swift
        try cancelMeetings()
        session.console.print("The meetings are off the calendar.")
      },
    ]
  }
}

struct Plan: ParsableArguments {  // `plan <start> <book> ...`, read by swift-argument-parser
  @Argument(help: "The first meeting, such as 2025-03-06T19:00.") var start: String
  @Argument(help: "The book, in as many words as its title.") var book: [String]
}
