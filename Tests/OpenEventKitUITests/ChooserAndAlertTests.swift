import Foundation
import OpenEventKitUI
import REPLKit
import Testing

@testable import OpenEventKit

/// The calendar chooser, the span question and the privacy alert, answered by scripted lines.
@Suite struct ChooserAndAlertTests {
  func fixtureWithCalendars() throws -> UIFixture {
    let fixture = try UIFixture()
    for title in ["Work", "Family"] {
      let calendar = EKCalendar(for: .event, eventStore: fixture.store)
      calendar.title = title
      calendar.source = fixture.calendar.source
      try fixture.store.saveCalendar(calendar, commit: true)
    }
    return fixture
  }

  @Test func singleSelectionByNumberOrTitleGroupedBySource() throws {
    let fixture = try fixtureWithCalendars()
    let transcript = Transcript()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
      eventStore: fixture.store)
    chooser.selectedCalendars = [fixture.calendar]
    #expect(chooser.run(on: UIFixture.console(["Family"], transcript: transcript)))
    #expect(chooser.selectedCalendars.map(\.title) == ["Family"])
    #expect(
      transcript.text == """
        Calendars for events
          Local
            1) [x] Calendar
            2) [ ] Family
            3) [ ] Work
        Calendar (number or title) [1]: Family

        """)
    #expect(chooser.run(on: UIFixture.console(["3"], transcript: Transcript())))
    #expect(chooser.selectedCalendars.map(\.title) == ["Work"])
  }

  @Test func multipleSelectionAllNoneAndMistakes() throws {
    let fixture = try fixtureWithCalendars()
    let chooser = EKCalendarChooser(
      selectionStyle: .multiple, displayStyle: .allCalendars, entityType: .event,
      eventStore: fixture.store)
    let transcript = Transcript()
    #expect(
      chooser.run(on: UIFixture.console(["9", "famly, 3", "family, 3"], transcript: transcript)))
    #expect(Set(chooser.selectedCalendars.map(\.title)) == ["Family", "Work"])
    #expect(transcript.text.contains("There is no calendar 9.\n"))
    #expect(transcript.text.contains("There is no calendar 'famly'; did you mean 'Family'?\n"))
    #expect(chooser.run(on: UIFixture.console(["1, Work"], transcript: Transcript())))
    #expect(Set(chooser.selectedCalendars.map(\.title)) == ["Calendar", "Work"])
    #expect(chooser.run(on: UIFixture.console(["all"], transcript: Transcript())))
    let all = fixture.store.calendars(for: .event).count
    #expect(chooser.selectedCalendars.count == all)
    // Cancelling, or input that ends, leaves the selection as it was.
    #expect(!chooser.run(on: UIFixture.console(["cancel"], transcript: Transcript())))
    #expect(!chooser.run(on: UIFixture.console([], transcript: Transcript())))
    #expect(chooser.selectedCalendars.count == all)
    #expect(chooser.run(on: UIFixture.console(["none"], transcript: Transcript())))
    #expect(chooser.selectedCalendars.isEmpty)
  }

  @Test func remindersAndReadOnlyCalendars() throws {
    let fixture = try UIFixture()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .allCalendars, entityType: .reminder,
      eventStore: fixture.store)
    let transcript = Transcript()
    #expect(chooser.run(on: UIFixture.console(["1"], transcript: transcript)))
    #expect(transcript.text.hasPrefix("Calendars for reminders\n"))
    #expect(chooser.selectedCalendars.first == fixture.store.defaultCalendarForNewReminders())
  }

  @Test func theSpanQuestion() throws {
    for (answer, span) in [("1", EKSpan.thisEvent), ("future", .futureEvents), ("t", .thisEvent)] {
      #expect(
        SpanChoice.ask(.save, on: UIFixture.console([answer], transcript: Transcript())) == span)
    }
    let transcript = Transcript()
    #expect(
      SpanChoice.ask(.delete, on: UIFixture.console(["x", "3"], transcript: transcript)) == nil)
    #expect(transcript.text.contains("Choose 1, 2 or 3: x\nPlease answer 1, 2 or 3.\n"))
    #expect(SpanChoice.ask(.delete, on: UIFixture.console([], transcript: Transcript())) == nil)
  }

  @Test func thePrivacyAlertAnswersThroughTheConsole() throws {
    let request = AccessPromptRequest(
      kind: .fullAccessToEvents, appName: "Loans", bundleIdentifier: "org.example.loans",
      usageDescription: "Loans puts each payment on your calendar.")
    let transcript = Transcript()
    #expect(
      PrivacyAlert(console: UIFixture.console(["1"], transcript: transcript)).present(request)
        == true)
    #expect(
      transcript.text == """

        -----------------------------------------------
        "Loans" Would Like Full Access to Your Calendar
        Loans puts each payment on your calendar.
        -----------------------------------------------
          1) Allow Full Access
          2) Don't Allow
        Choose 1 or 2: 1

        """)
    for (answer, result) in [("2", false), ("don't", false), ("no", false), ("y", true)] {
      #expect(
        PrivacyAlert(console: UIFixture.console([answer], transcript: Transcript())).present(
          request) == result)
    }
    // No answer decides nothing.
    #expect(
      PrivacyAlert(console: UIFixture.console([], transcript: Transcript())).present(request) == nil
    )
  }

  /// An answer that did not count (decided elsewhere while the alert waited) is said through
  /// the console, with the decision that stands.
  @Test func thePrivacyAlertSaysADecisionMadeMeanwhile() throws {
    let request = AccessPromptRequest(
      kind: .writeOnlyAccessToEvents, appName: "Loans", bundleIdentifier: "org.example.loans",
      usageDescription: "Loans puts each payment on your calendar.")
    let transcript = Transcript()
    let alert = PrivacyAlert(console: UIFixture.console([], transcript: transcript))
    alert.decidedMeanwhile(request, status: .writeOnly)
    alert.decidedMeanwhile(request, status: .denied)
    #expect(
      transcript.text == """
        Meanwhile, access was decided elsewhere (ekctl privacy, or another window of this app): \
        allowed to add events. That decision stands, not this answer.
        Meanwhile, access was decided elsewhere (ekctl privacy, or another window of this app): \
        not allowed. That decision stands, not this answer.

        """)
  }

  /// The rules are as wide as the title shows: its two ideographs take two columns each.
  @Test func thePrivacyAlertsRulesSpanAWideTitle() throws {
    let request = AccessPromptRequest(
      kind: .fullAccessToEvents, appName: "日程", bundleIdentifier: "org.example.nittei",
      usageDescription: "予定を入れます。")
    let transcript = Transcript()
    _ = PrivacyAlert(console: UIFixture.console(["1"], transcript: transcript)).present(request)
    let rule = String(repeating: "-", count: 46)
    #expect(
      transcript.text.hasPrefix(
        "\n\(rule)\n\"日程\" Would Like Full Access to Your Calendar\n予定を入れます。\n\(rule)\n"),
      "\(transcript.text)")
  }
}
