// oek-ui-helper: a small REPL over the calendar store in $OPENEVENTKIT_HOME, built from
// REPLKit and OpenEventKitUI alone, for the tests that drive them as a person would: through
// piped input, or through readline on a pseudo-terminal.
//
//   oek-ui-helper [--now ISO-DATE-TIME]
//
// Commands: add TITLE START [MINUTES], events, view N, new, edit N, agenda [DAY] [DAYS],
// month [DAY], calendar, color (prints whether colour is on), fail (always fails).
import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The session's state: the kit's session (the store once access is given), and the events
/// listed last.
final class Session: @unchecked Sendable {
  let app: AppSession
  var listed: [EKEvent] = []

  init(_ app: AppSession) { self.app = app }

  var console: Console { app.console }
  var store: EKEventStore? { app.store }

  func requireStore() throws -> EKEventStore { try app.store(for: .event) }

  func event(_ words: [String]) throws -> EKEvent {
    guard let word = words.first, let number = Int(word), listed.indices.contains(number - 1)
    else { throw REPLError("give the number of an event that 'events' listed") }
    return listed[number - 1]
  }
}

func commands(_ session: Session) -> [REPLCommand] {
  let console = session.console
  return [
    REPLCommand("add", synopsis: "TITLE START [MINUTES]", help: "Adds an event.") { words in
      let store = try session.requireStore()
      guard let start = DateReading.instant(words[1], in: console.timeZone) else {
        throw REPLError("'\(words[1])' is not a date and time")
      }
      let event = EKEvent(eventStore: store)
      event.title = words[0]
      event.startDate = start
      event.endDate = start.addingTimeInterval(60 * (words.count > 2 ? Double(words[2]) ?? 60 : 60))
      event.calendar = store.defaultCalendarForNewEvents
      try store.save(event, span: .thisEvent)
      console.print("Added \(event.title ?? "").")
    },
    REPLCommand("events", help: "Lists the next year of the default calendar, numbered.") { _ in
      let store = try session.requireStore()
      let from = DateText(timeZone: console.timeZone).startOfDay(console.now)
      session.listed = store.events(
        matching: store.predicateForEvents(
          withStart: from, end: from.addingTimeInterval(366 * 86_400),
          calendars: store.defaultCalendarForNewEvents.map { [$0] }))
      for (index, event) in session.listed.enumerated() {
        console.print(
          "\(index + 1). \(event.title ?? "") \(DateText(timeZone: console.timeZone).dayAndTime(event.startDate))"
        )
      }
    },
    REPLCommand(
      "view", synopsis: "N", help: "Shows an event.",
      complete: { _ in session.listed.indices.map { "\($0 + 1)" } },
      run: { words in
        EKEventViewController(event: try session.event(words)).show(on: console)
      }
    ),
    REPLCommand("new", help: "Creates an event with the editor.") { _ in
      let editor = EKEventEditViewController(eventStore: try session.requireStore())
      console.print("Action: \(editor.run(on: console))")
    },
    REPLCommand(
      "edit", synopsis: "N", help: "Edits an event.",
      complete: { _ in session.listed.indices.map { "\($0 + 1)" } },
      run: { words in
        let editor = EKEventEditViewController(
          eventStore: try session.requireStore(), event: try session.event(words))
        console.print("Action: \(editor.run(on: console))")
      }
    ),
    REPLCommand("agenda", synopsis: "[DAY] [DAYS]", help: "Shows days of events.") { words in
      let store = try session.requireStore()
      let day =
        try words.first.map {
          guard let day = DateReading.instant($0, in: console.timeZone) else {
            throw REPLError("'\($0)' is not a day")
          }
          return day
        } ?? console.now
      AgendaView(eventStore: store).show(
        from: day, days: words.count > 1 ? Int(words[1]) ?? 1 : 1, on: console)
    },
    REPLCommand("month", synopsis: "[DAY]", help: "Shows a month.") { words in
      let store = try session.requireStore()
      let day = words.first.flatMap { DateReading.instant($0, in: console.timeZone) } ?? console.now
      MonthGrid(eventStore: store).show(monthOf: day, on: console)
    },
    REPLCommand(
      "calendar", synopsis: "[TITLE]", help: "Chooses calendars.",
      complete: { _ in session.store?.calendars(for: .event).map(\.title) ?? [] },
      run: { _ in
        let chooser = EKCalendarChooser(
          selectionStyle: .multiple, displayStyle: .allCalendars, entityType: .event,
          eventStore: try session.requireStore())
        let finished = chooser.run(on: console)
        console.print(
          finished
            ? "Chosen: " + chooser.selectedCalendars.map(\.title).sorted().joined(separator: ", ")
            : "Cancelled.")
      }
    ),
    REPLCommand("color", help: "Says whether output is coloured.") { _ in
      console.print(console.style.usesColor ? "colour on" : "colour off")
    },
    REPLCommand("fail", help: "Fails, for the exit status.") { _ in
      throw REPLError("this command always fails")
    },
  ]

}

AppInfo(name: "oek-ui-helper", prompt: "ui> ", about: "A REPL over the calendar store, for tests.")
  .run(diagnostics: .standardError) { commands(Session($0)) }
