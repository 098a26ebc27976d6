// oek-ui-helper: a small REPL over the calendar store in $OPENEVENTKIT_HOME, built from
// REPLKit and OpenEventKitUI alone, for the tests that drive them as a person would: through
// piped input, or through readline on a pseudo-terminal.
//
//   oek-ui-helper [--now ISO-DATE-TIME]
//
// Commands: add TITLE START [MINUTES], events, view N, new, edit N, agenda [DAY] [DAYS],
// month [DAY], calendar, color (prints whether colour is on), fail (always fails).
import ArgumentParser
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

  func event(_ number: Int) throws -> EKEvent {
    guard listed.indices.contains(number - 1) else {
      throw REPLError("give the number of an event that 'events' listed")
    }
    return listed[number - 1]
  }
}

struct Add: ParsableArguments {
  @Argument var title: String
  @Argument var start: String
  @Argument var minutes: Double = 60
}

struct Numbered: ParsableArguments {
  @Argument(help: "An event's number in 'events'.") var n: Int
}

struct Days: ParsableArguments {
  @Argument var day: String?
  @Argument var days = 1
}

struct Day: ParsableArguments {
  @Argument var day: String?
}

struct Title: ParsableArguments {
  @Argument var title: String?
}

func commands(_ session: Session) -> [REPLCommand] {
  let console = session.console
  return [
    REPLCommand("add", Add.self, help: "Adds an event.") { add in
      let store = try session.requireStore()
      guard let start = DateReading.instant(add.start, in: console.timeZone) else {
        throw REPLError("'\(add.start)' is not a date and time")
      }
      let event = EKEvent(eventStore: store)
      event.title = add.title
      event.startDate = start
      event.endDate = start.addingTimeInterval(60 * add.minutes)
      event.calendar = store.defaultCalendarForNewEvents
      try store.save(event, span: .thisEvent)
      console.print("Added \(event.title ?? "").")
    },
    REPLCommand("events", help: "Lists the next year of the default calendar, numbered.") {
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
      "view", Numbered.self, help: "Shows an event.",
      complete: { _ in session.listed.indices.map { "\($0 + 1)" } },
      run: { view in
        EKEventViewController(event: try session.event(view.n)).show(on: console)
      }
    ),
    REPLCommand("new", help: "Creates an event with the editor.") {
      let editor = EKEventEditViewController(eventStore: try session.requireStore())
      console.print("Action: \(editor.run(on: console))")
    },
    REPLCommand(
      "edit", Numbered.self, help: "Edits an event.",
      complete: { _ in session.listed.indices.map { "\($0 + 1)" } },
      run: { edit in
        let editor = EKEventEditViewController(
          eventStore: try session.requireStore(), event: try session.event(edit.n))
        console.print("Action: \(editor.run(on: console))")
      }
    ),
    REPLCommand("agenda", Days.self, help: "Shows days of events.") { agenda in
      let store = try session.requireStore()
      let day =
        try agenda.day.map {
          guard let day = DateReading.instant($0, in: console.timeZone) else {
            throw REPLError("'\($0)' is not a day")
          }
          return day
        } ?? console.now
      AgendaView(eventStore: store).show(
        from: day, days: agenda.days, on: console)
    },
    REPLCommand("month", Day.self, help: "Shows a month.") { month in
      let store = try session.requireStore()
      let day = month.day.flatMap { DateReading.instant($0, in: console.timeZone) } ?? console.now
      MonthGrid(eventStore: store).show(monthOf: day, on: console)
    },
    REPLCommand(
      "calendar", Title.self, help: "Chooses calendars.",
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
    REPLCommand("color", help: "Says whether output is coloured.") {
      console.print(console.style.usesColor ? "colour on" : "colour off")
    },
    REPLCommand("fail", help: "Fails, for the exit status.") {
      throw REPLError("this command always fails")
    },
  ]

}

AppInfo(name: "oek-ui-helper", prompt: "ui> ", about: "A REPL over the calendar store, for tests.")
  .run(diagnostics: .standardError) { commands(Session($0)) }
