import Foundation
import ICalendar
import OpenEventKit
import REPLKit
import Testing

@testable import OpenEventKitUI

/// The editors' reading of answers, on a clock with daylight saving time (Paris: clocks go
/// forward at 02:00 on 30 March 2025).
@Suite struct EditorInputTests {
  let paris = UIFixture.paris

  @Test func aTimeAloneKeepsTheDayAndMovesOutOfADSTGap() throws {
    let sunday = UIFixture.date("2025-03-30T12:00:00+02:00")
    #expect(
      try EditorInput.dateTime("14:30", current: sunday, zone: paris)
        == UIFixture.date("2025-03-30T14:30:00+02:00"))
    // 02:30 does not exist that day: read as 03:30, as RFC 5545 §3.3.5 reads such times.
    #expect(
      try EditorInput.dateTime("02:30", current: sunday, zone: paris)
        == UIFixture.date("2025-03-30T03:30:00+02:00"))
  }

  @Test func aDateUntilIncludesItsWholeDay() throws {
    let rule = try EditorInput.rule(
      from: RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20250310"), zone: paris)
    #expect(rule.recurrenceEnd?.endDate == UIFixture.date("2025-03-10T23:59:59+01:00"))
    let utc = try EditorInput.rule(
      from: RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20250310T080000Z"), zone: paris)
    #expect(utc.recurrenceEnd?.endDate == UIFixture.date("2025-03-10T08:00:00Z"))
    let floating = try EditorInput.rule(
      from: RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20250310T090000"), zone: paris)
    #expect(floating.recurrenceEnd?.endDate == UIFixture.date("2025-03-10T09:00:00+01:00"))
  }

  @Test func aWeekStartOtherThanMondayIsRefused() throws {
    #expect(throws: EditorInput.Problem.self) {
      try EditorInput.rule(
        from: RecurrenceRule(parsing: "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU"), zone: paris)
    }
    let monday = try EditorInput.rule(
      from: RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=SU;WKST=MO"), zone: paris)
    #expect(monday.daysOfTheWeek?.map(\.dayOfTheWeek) == [.sunday])
  }

  @Test(arguments: [
    ("1.5h", -5400.0), ("1.5 hours after", 5400), ("15 minutes", -900), ("2 days before", -172_800),
  ])
  func alarmOffsets(text: String, seconds: Double) {
    #expect(EditorInput.offset(text) == seconds)
  }

  @Test(arguments: ["1e3m", "-5m", ".h", "1.2.3h", "١٥m", "200000 days"])
  func alarmOffsetsThatAreNotNumbers(text: String) {
    #expect(EditorInput.offset(text) == nil)
  }

  @Test func anAllDayEventMovedAcrossADSTChangeKeepsItsDays() {
    // Two days, 28–29 March (EventKit's end: the last second of the last day).
    let start = UIFixture.date("2025-03-28T00:00:00+01:00")
    let end = UIFixture.date("2025-03-29T23:59:59+01:00")
    // Moved to 30 March, the day clocks go forward: it ends on the 31st, at its last second.
    let moved = EditorInput.allDayEnd(
      keepingDaysFrom: start, to: end, movedTo: UIFixture.date("2025-03-30T00:00:00+01:00"),
      zone: paris)
    #expect(moved == UIFixture.date("2025-03-31T23:59:59+02:00"))
  }

  @Test func hugeNumbersAreNotChoices() throws {
    let transcript = Transcript()
    let console = UIFixture.console(
      ["-9223372036854775808", "9223372036854775807", "2"], transcript: transcript)
    #expect(console.choose("Which? ", among: ["one", "two"]) == 1)
    #expect(transcript.text.components(separatedBy: "Please answer 1 or 2.").count == 3)

    let fixture = try UIFixture()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .allCalendars, entityType: .event,
      eventStore: fixture.store)
    guard
      case .failure(let problem) = chooser.choice("-9223372036854775808", among: [fixture.calendar])
    else {
      Issue.record("Int.min chose a calendar")
      return
    }
    #expect(problem.description == "There is no calendar -9223372036854775808.")
  }
}
