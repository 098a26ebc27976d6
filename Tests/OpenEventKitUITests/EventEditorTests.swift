import Foundation
import OpenEventKitUI
import REPLKit
import Testing

@testable import OpenEventKit

/// The event editor driven by scripted answers, checked against the store.
@Suite struct EventEditorTests {
  @Test func createsAnEventWithDefaultsAndTheAnswersGiven() throws {
    let fixture = try UIFixture()
    let transcript = Transcript()
    // Title, Location, All day, Starts, Ends, Repeat, Alarms, Calendar, URL, Notes; then save.
    let console = UIFixture.console(
      ["Dentist", "", "", "", "", "", "15 minutes", "", "", "", ""], transcript: transcript)
    let editor = EKEventEditViewController(eventStore: fixture.store)
    #expect(editor.run(on: console) == .saved)
    let saved = try #require(editor.event)
    let stored = try #require(fixture.store.event(withIdentifier: saved.eventIdentifier))
    #expect(stored.title == "Dentist")
    // The next whole hour after 10:20 in Paris, one hour long, in the default calendar.
    #expect(stored.startDate == UIFixture.date("2025-03-01T11:00:00+01:00"))
    #expect(stored.endDate == UIFixture.date("2025-03-01T12:00:00+01:00"))
    #expect(stored.calendar == fixture.calendar)
    #expect(stored.timeZone == UIFixture.paris)
    #expect(stored.alarms?.map(\.relativeOffset) == [-900])
    #expect(
      transcript.text == """
        New event
        Return keeps a value, - clears it, cancel stops without saving.
        Title []: Dentist
        Location []: 
        All day [no]: 
        Starts [2025-03-01T11:00]: 
        Ends [2025-03-01T12:00]: 
        Repeat [never]: 
        Alarms [none]: 15 minutes
        Calendar [Calendar]: 
        URL []: 
        Notes []: 
        Save, edit or cancel? [save]: 
        Saved.

        """)
  }

  @Test func aBadAnswerIsAskedAgainAndARefusalReturnsToItsField() throws {
    let fixture = try UIFixture()
    let transcript = Transcript()
    let console = UIFixture.console(
      [
        "Talk", "", "", "tomorrow", "2025-03-04T14:00", "2025-03-04T13:00", "", "", "", "", "",
        "save",
        // The store refuses an end before the start: the editor asks for the end again.
        "15:30", "",
      ], transcript: transcript)
    let editor = EKEventEditViewController(eventStore: fixture.store)
    #expect(editor.run(on: console) == .saved)
    let text = transcript.text
    #expect(text.contains("Starts [2025-03-01T11:00]: tomorrow\nPlease give a date and time"))
    #expect(
      text.contains(
        "Could not save: the event ends before it starts.\nEnds [2025-03-04T13:00]: 15:30\n"))
    let stored = try #require(fixture.store.event(withIdentifier: editor.event!.eventIdentifier))
    #expect(stored.title == "Talk")
    #expect(stored.startDate == UIFixture.date("2025-03-04T14:00:00+01:00"))
    #expect(stored.endDate == UIFixture.date("2025-03-04T15:30:00+01:00"))
  }

  /// A store holding "Yoga" at 18:00 on the four Mondays from 3 March 2025.
  func yogaOnFourMondays() throws -> UIFixture {
    let fixture = try UIFixture()
    let series = fixture.event("Yoga", start: "2025-03-03T18:00:00+01:00")
    series.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 4))
    ]
    try fixture.store.save(series, span: .futureEvents)
    return fixture
  }

  @Test func editingOneOccurrenceOfASeriesAsksTheSpan() throws {
    let fixture = try yogaOnFourMondays()
    let occurrences = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: UIFixture.date("2025-03-10T00:00:00Z"),
        end: UIFixture.date("2025-03-11T00:00:00Z"), calendars: nil))
    let second = try #require(occurrences.first)
    let transcript = Transcript()
    let console = UIFixture.console(
      ["Yoga (gym closed: park)", "", "", "", "", "", "", "", "", "", "save", "1"],
      transcript: transcript)
    #expect(
      EKEventEditViewController(eventStore: fixture.store, event: second).run(on: console)
        == .saved)
    #expect(transcript.text.contains("Repeat [Weekly, 4 times, last on 24 March 2025]: \n"))
    #expect(
      transcript.text.contains(
        """
        This is a repeating event.
          1) Save for this event only
          2) Save for future events
          3) Cancel
        Choose 1, 2 or 3: 1
        """))
    let titles = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: UIFixture.date("2025-03-01T00:00:00Z"),
        end: UIFixture.date("2025-04-01T00:00:00Z"), calendars: nil)
    ).map(\.title)
    #expect(titles == ["Yoga", "Yoga (gym closed: park)", "Yoga", "Yoga"])
  }

  @Test func deletingFromAnOccurrenceForTheFutureTruncatesTheSeries() throws {
    let fixture = try yogaOnFourMondays()
    let third = try #require(
      fixture.store.events(
        matching: fixture.store.predicateForEvents(
          withStart: UIFixture.date("2025-03-17T00:00:00Z"),
          end: UIFixture.date("2025-03-18T00:00:00Z"), calendars: nil)
      ).first)
    let transcript = Transcript()
    let console = UIFixture.console(
      ["", "", "", "", "", "", "", "", "", "", "delete", "future"], transcript: transcript)
    #expect(
      EKEventEditViewController(eventStore: fixture.store, event: third).run(on: console)
        == .deleted)
    #expect(transcript.text.contains("Save, edit, delete or cancel? [save]: delete\n"))
    #expect(transcript.text.contains("  2) Delete for future events\n"))
    let starts = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: UIFixture.date("2025-03-01T00:00:00Z"),
        end: UIFixture.date("2025-04-01T00:00:00Z"), calendars: nil)
    ).map(\.startDate)
    #expect(
      starts == [
        UIFixture.date("2025-03-03T18:00:00+01:00"), UIFixture.date("2025-03-10T18:00:00+01:00"),
      ])
  }

  @Test func unclearAnswersAtTheSavePromptSayNothingWasSaved() throws {
    let fixture = try UIFixture()
    let transcript = Transcript()
    // The ten fields kept as they are, then three answers that are no choice.
    let console = UIFixture.console(
      ["Dentist"] + Array(repeating: "", count: 9) + ["maybe", "later", "perhaps"],
      transcript: transcript)
    let editor = EKEventEditViewController(eventStore: fixture.store)
    #expect(editor.run(on: console) == .canceled)
    #expect(
      transcript.text.hasSuffix(
        "Save, edit or cancel? [save]: later\nPlease answer 1, 2 or 3.\n"
          + "Save, edit or cancel? [save]: perhaps\nNot saved.\n"))
    #expect(editor.event == nil)
  }

  @Test func cancellingOrRunningOutOfInputChangesNothing() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Dentist", start: "2025-03-03T09:00:00+01:00")
    try fixture.store.save(event, span: .thisEvent)
    let transcript = Transcript()
    let console = UIFixture.console(["Orthodontist", "cancel"], transcript: transcript)
    #expect(
      EKEventEditViewController(eventStore: fixture.store, event: event).run(on: console)
        == .canceled)
    #expect(event.title == "Dentist")
    #expect(!event.hasChanges)
    // The input ends half way: cancelled, and a new event is not kept.
    let editor = EKEventEditViewController(eventStore: fixture.store)
    #expect(editor.run(on: UIFixture.console(["Half"], transcript: Transcript())) == .canceled)
    #expect(editor.event == nil)
    let count = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: UIFixture.date("2025-01-01T00:00:00Z"),
        end: UIFixture.date("2026-01-01T00:00:00Z"), calendars: [fixture.calendar])
    ).count
    #expect(count == 1)
  }

  @Test func repeatAlarmAndCalendarAnswers() throws {
    let fixture = try UIFixture()
    let work = EKCalendar(for: .event, eventStore: fixture.store)
    work.title = "Work"
    work.source = fixture.calendar.source
    try fixture.store.saveCalendar(work, commit: true)
    let transcript = Transcript()
    let console = UIFixture.console(
      [
        "Planning", "", "", "2025-03-03T09:00", "", "every 2 weeks, 5 times",
        "1e30 weeks", "1 day, at 2025-03-02T18:00", "wrk", "work", "", "", "",
      ], transcript: transcript)
    let editor = EKEventEditViewController(eventStore: fixture.store)
    #expect(editor.run(on: console) == .saved)
    #expect(transcript.text.contains("Alarms [none]: 1e30 weeks\nPlease answer none, 'at start'"))
    #expect(transcript.text.contains("There is no calendar 'wrk'; did you mean 'Work'?"))
    let stored = try #require(fixture.store.event(withIdentifier: editor.event!.eventIdentifier))
    #expect(stored.calendar.title == "Work")
    let rule = try #require(stored.recurrenceRules?.first)
    #expect(rule.frequency == .weekly && rule.interval == 2)
    #expect(rule.recurrenceEnd?.occurrenceCount == 5)
    #expect(stored.alarms?.count == 2)
    #expect(stored.alarms?.first?.relativeOffset == -86_400)
    #expect(stored.alarms?.last?.absoluteDate == UIFixture.date("2025-03-02T18:00:00+01:00"))
  }
}
