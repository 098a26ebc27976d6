// oek-ui-helper: a small REPL over the calendar store in $OPENEVENTKIT_HOME, built from
// REPLKit and OpenEventKitUI alone, for the tests that drive them as a person would: through
// piped input, or through readline on a pseudo-terminal.
//
//   oek-ui-helper [--now ISO-DATE-TIME]
//
// Commands: add TITLE START [MINUTES], events, view N, new, edit N, agenda [DAY] [DAYS],
// month [DAY], calendar, color (prints whether colour is on), fail (always fails), notice TEXT
// and notice-from FIFO (another thread posts a notification, observed with `queue: .main`).
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
  private var noticeObserver: (any NSObjectProtocol)?
  /// A second observer of the same notice, as an app observes its store for its items and
  /// for its access: `post` hands the notice to it once the first one's block has run.
  private var secondObserver: (any NSObjectProtocol)?

  init(_ app: AppSession) { self.app = app }
  deinit {
    for observer in [noticeObserver, secondObserver].compactMap({ $0 }) {
      NotificationCenter.default.removeObserver(observer)
    }
  }

  /// Observes the helper's notice as an app observes `.EKEventStoreChanged`: with
  /// `queue: .main`, so that the block runs on the main thread when the kit runs the main queue.
  func observeNotices() {
    guard noticeObserver == nil else { return }
    let console = self.console
    noticeObserver = NotificationCenter.default.addObserver(
      forName: helperNotice, object: nil, queue: .main
    ) { notice in
      let text = notice.userInfo?["text"] as? String ?? ""
      console.print("Notice: \(text) (on the main thread: \(Thread.isMainThread))")
    }
    secondObserver = NotificationCenter.default.addObserver(
      forName: helperNotice, object: nil, queue: .main
    ) { _ in console.print("Second observer told (on the main thread: \(Thread.isMainThread))") }
  }

  /// Posts the notice with `text` from another thread, as a store's thread posts its changes.
  static func post(_ text: @escaping @Sendable () -> String) {
    Thread {
      NotificationCenter.default.post(name: helperNotice, object: nil, userInfo: ["text": text()])
    }.start()
  }

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

let helperNotice = Notification.Name("org.openeventkit.ui-helper.notice")

struct Words: ParsableArguments {
  @Argument var words: [String]
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
    REPLCommand("notice", Words.self, help: "Another thread posts a notice now.") { words in
      session.observeNotices()
      let text = words.words.joined(separator: " ")
      Session.post { text }
      // Returns once the block waits on the main queue (the post waits for it to run): the
      // kit runs it after this command, before the next prompt.
      let deadline = Date().addingTimeInterval(30)
      while OperationQueue.main.operationCount == 0, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.001)
      }
      console.print("Posted.")
    },
    REPLCommand("notice-from", Words.self, help: "Posts what is written to a FIFO.") { words in
      session.observeNotices()
      let path = words.words.joined(separator: " ")
      Session.post {  // opening a FIFO waits for a writer; reading, for it to close
        let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
      }
      console.print("Waiting for a notice.")
    },
    REPLCommand("fail", help: "Fails, for the exit status.") {
      throw REPLError("this command always fails")
    },
  ]

}

AppInfo(name: "oek-ui-helper", prompt: "ui> ", about: "A REPL over the calendar store, for tests.")
  .run(diagnostics: .standardError) { commands(Session($0)) }
