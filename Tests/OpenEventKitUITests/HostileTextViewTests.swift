import Foundation
import OpenEventKitUI
import REPLKit
import TestSupport
import Testing

@testable import OpenEventKit

/// The views show data that holds terminal escapes, C1 controls and bidi overrides inert, as
/// `\u{…}`, on one line each (issue 42), measured as shown.
@Suite struct HostileTextViewTests {
  static let title = "Standup" + HostileText.clearScreen + HostileText.windowTitle
  static let location = HostileText.link + HostileText.c1ControlSequence
  static let notes = "Bring\r\n" + HostileText.clipboard + HostileText.override
  static let calendar = "Work" + HostileText.c1Command + HostileText.override

  func fixture() throws -> (UIFixture, EKEvent) {
    let fixture = try UIFixture()
    let work = EKCalendar(for: .event, eventStore: fixture.store)
    work.title = Self.calendar
    work.source = fixture.calendar.source
    try fixture.store.saveCalendar(work, commit: true)
    let event = fixture.event(Self.title, start: "2025-03-03T09:00:00+01:00")
    event.calendar = work
    event.location = Self.location
    event.notes = Self.notes
    try fixture.store.save(event, span: .thisEvent)
    return (fixture, event)
  }

  @Test func theEventView() throws {
    let (_, event) = try fixture()
    let shown = { HostileText.shown($0) }
    #expect(
      EKEventViewController(event: event).render(style: .plain, timeZone: UIFixture.paris) == """
        \(shown(Self.title))
          When        Mon 3 Mar 2025 09:00–10:00
          Calendar    \(shown(Self.calendar)) (Local)
          Location    \(shown(Self.location))
          Notes       Bring
                      \(shown(HostileText.clipboard + HostileText.override))

        """)
    // With colour, the view's own codes stay and the data's are still shown.
    let style = TerminalStyle(usesColor: true, usesBoxDrawing: true)
    let coloured = EKEventViewController(event: event).render(
      style: style, timeZone: UIFixture.paris)
    #expect(coloured.hasPrefix("\u{1B}[1m" + shown(Self.title) + "\u{1B}[0m\n"))
  }

  @Test func theAgendaAndTheChooser() throws {
    let (fixture, _) = try fixture()
    let agenda = AgendaView(eventStore: fixture.store).render(
      from: UIFixture.date("2025-03-03T12:00:00+01:00"), days: 1, style: .plain,
      timeZone: UIFixture.paris)
    #expect(
      agenda == """
        Monday 3 March 2025
          09:00–10:00  \(HostileText.shown(Self.title)) · \(HostileText.shown(Self.calendar))

        """)

    let transcript = Transcript()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
      eventStore: fixture.store)
    chooser.selectedCalendars = [fixture.calendar]
    #expect(chooser.run(on: UIFixture.console(["2"], transcript: transcript)))
    #expect(transcript.text.contains("2) [ ] \(HostileText.shown(Self.calendar))\n"))
    #expect(HostileText.activeCharacters(in: transcript.text) == [])
  }

  /// The editor's prompts show the current values inert; Return keeps the value itself.
  @Test func theEditorKeepsTheValueItShowsInert() throws {
    let (fixture, event) = try fixture()
    let transcript = Transcript()
    // Title, Location, All day, Starts, Ends, Repeat, Alarms, Calendar, URL, Notes; then save.
    let console = UIFixture.console(Array(repeating: "", count: 11), transcript: transcript)
    let editor = EKEventEditViewController(eventStore: fixture.store, event: event)
    #expect(editor.run(on: console) == .saved)
    #expect(transcript.text.contains("Title [\(HostileText.shown(Self.title))]: \n"))
    #expect(transcript.text.contains("Location [\(HostileText.shown(Self.location))]: \n"))
    #expect(HostileText.activeCharacters(in: transcript.text) == [], "\(transcript.text)")
    let stored = try #require(fixture.store.event(withIdentifier: event.eventIdentifier))
    #expect(stored.title == Self.title)
    #expect(stored.location == Self.location)
    #expect(stored.notes == Self.notes)
  }
}
