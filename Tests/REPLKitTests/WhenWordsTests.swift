import Foundation
import ICalendar
import REPLKit
import Testing

/// Days and times as people type them, read on their clock.
@Suite struct WhenWordsTests {
  let paris = TimeZone(identifier: "Europe/Paris")!
  /// Friday 8 May 2026, 19:00 in Paris (UTC+2).
  let now = ISO8601DateFormatter().date(from: "2026-05-08T17:00:00Z")!

  func read(_ text: String) -> WhenWords.Reading? {
    WhenWords.read(text.split(separator: " ").map(String.init), now: now, in: paris)
  }

  func day(_ year: Int, _ month: Int, _ day: Int) -> WhenWords.Reading {
    .day(CivilDate(year: year, month: month, day: day)!)
  }

  @Test func daysAlone() {
    #expect(read("2026-12-01") == day(2026, 12, 1))
    #expect(read("today") == day(2026, 5, 8))
    #expect(read("Tomorrow") == day(2026, 5, 9))
    // A weekday alone is the next one, today included.
    #expect(read("fri") == day(2026, 5, 8))
    #expect(read("thurs") == day(2026, 5, 14))
    #expect(read("monday") == day(2026, 5, 11))
  }

  @Test func daysWithATime() {
    #expect(
      read("2026-12-01 18:00") == .time(CivilDateTime(year: 2026, month: 12, day: 1, hour: 18)!))
    #expect(read("tomorrow 8pm") == .time(CivilDateTime(year: 2026, month: 5, day: 9, hour: 20)!))
    #expect(
      read("today 8:30am")
        == .time(CivilDateTime(year: 2026, month: 5, day: 8, hour: 8, minute: 30)!))
    // A weekday with a time is the next one whose time is to come: today at 20:00, but a
    // week on at 19:00, which is now.
    #expect(read("fri 20:00") == .time(CivilDateTime(year: 2026, month: 5, day: 8, hour: 20)!))
    #expect(read("fri 19:00") == .time(CivilDateTime(year: 2026, month: 5, day: 15, hour: 19)!))
    // An ISO date-time with an offset is taken to the person's clock.
    #expect(
      read("2026-05-08T12:00Z") == .time(CivilDateTime(year: 2026, month: 5, day: 8, hour: 14)!))
  }

  @Test func aQuotedValueReadsAsItsWordsTypedApart() {
    for text in ["2026-12-01 18:00", "fri 20:00", "tomorrow 8pm", "today"] {
      let apart = WhenWords.read(text.split(separator: " ").map(String.init), now: now, in: paris)
      #expect(apart != nil, "\(text)")
      #expect(WhenWords.read([text], now: now, in: paris) == apart, "\(text)")
      #expect(WhenWords.read([" \(text)  "], now: now, in: paris) == apart, "\(text)")
    }
  }

  @Test func whatIsNotADayOrATime() {
    for text in [
      "soon", "fr", "fri 25:00", "fri 8", "13pm", "8:30 pm", "2026-02-30", "tomorrow at 8pm",
      "20:00",
    ] {
      #expect(read(text) == nil, "\(text)")
    }
  }
}
