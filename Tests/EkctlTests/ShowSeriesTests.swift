import Foundation
import OpenEventKit
import TestSupport
import Testing

/// `ekctl show` of a series' identifier shows the series (issue 41): its rule with its last
/// occurrence, the instances removed from it and its detached occurrences, whatever its first
/// instances became.
@Suite struct ShowSeriesTests {
  let temporary: TemporaryFolder
  let database: String
  let store: EKEventStore

  init() throws {
    temporary = try TemporaryFolder(prefix: "EkctlShowSeries")
    database = temporary.url.appendingPathComponent("Calendar.sqlite").path
    store = try EKEventStore(ownerOf: URL(fileURLWithPath: database), create: true)
  }

  func ekctl(_ arguments: [String]) throws -> ProcessResult {
    try runEkctl(arguments + ["--db", database], environment: ["TZ": "UTC"])
  }

  static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  /// A weekly fitting on Saturdays at 10:00 UTC from 3 April 2027.
  func fittings(end: EKRecurrenceEnd) throws -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.title = "Dress fitting"
    event.calendar = store.defaultCalendarForNewEvents
    event.timeZone = TimeZone(identifier: "UTC")
    event.startDate = Self.date("2027-04-03T10:00:00Z")
    event.endDate = Self.date("2027-04-03T11:00:00Z")
    event.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: end)]
    try store.save(event, span: .futureEvents)
    return event
  }

  /// The occurrence whose instance starts at `start`.
  func occurrence(_ start: String) throws -> EKEvent {
    let date = Self.date(start)
    return try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: date, end: date.addingTimeInterval(1), calendars: nil)
      ).first { $0.occurrenceDate == date })
  }

  /// The lines `show` prints with this label.
  func values(_ label: String, of text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix(label + "  ") else { return nil }
      return line.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
    }
  }

  @Test func aSeriesWhoseFirstIsRemovedAndSecondDetachedIsShownAsTheSeries() throws {
    let series = try fittings(end: EKRecurrenceEnd(occurrenceCount: 6))
    try store.remove(try occurrence("2027-04-03T10:00:00Z"), span: .thisEvent)
    let second = try occurrence("2027-04-10T10:00:00Z")
    second.title = "Fitting, moved"
    second.startDate = Self.date("2027-04-12T16:00:00Z")
    second.endDate = Self.date("2027-04-12T17:00:00Z")
    try store.save(second, span: .thisEvent)

    let shown = try ekctl(["show", series.calendarItemIdentifier])
    #expect(shown.status == 0, "\(shown.stderr)")
    let text = shown.stdout
    #expect(values("Title", of: text) == ["Dress fitting"], "\(text)")
    #expect(values("Identifier", of: text) == [series.calendarItemIdentifier])
    #expect(values("Starts", of: text) == ["Sat 10 Apr 2027 10:00"])
    #expect(values("Repeats", of: text) == ["Weekly, 6 times, last on 8 May 2027"])
    #expect(values("Removed", of: text) == ["Sat 3 Apr 2027 10:00"])
    #expect(
      values("Detached", of: text) == [
        "the occurrence of Sat 10 Apr 2027 10:00 is now Mon 12 Apr 2027 16:00: Fitting, moved "
          + "(\(second.calendarItemIdentifier))"
      ])
    #expect(values("Last", of: text) == ["Sat 8 May 2027 10:00"])

    // The detached occurrence's own identifier still shows it.
    let moved = try ekctl(["show", second.calendarItemIdentifier])
    #expect(values("Title", of: moved.stdout) == ["Fitting, moved"])
    #expect(values("Repeats", of: moved.stdout).isEmpty)
  }

  /// The wedding planner's cancel-fittings-from: the series ends just before the occurrence
  /// removed, with an UNTIL after the last one left, which is what the words name.
  @Test func aSeriesEndedFromAnOccurrenceOnNamesItsLastOccurrence() throws {
    let series = try fittings(end: EKRecurrenceEnd(end: Self.date("2027-05-29T23:59:59Z")))
    try store.remove(try occurrence("2027-05-08T10:00:00Z"), span: .futureEvents)

    let shown = try ekctl(["show", series.calendarItemIdentifier])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(
      values("Repeats", of: shown.stdout) == ["Weekly, last on 1 May 2027"], "\(shown.stdout)")
    #expect(values("Last", of: shown.stdout) == ["Sat 1 May 2027 10:00"])
    #expect(values("Removed", of: shown.stdout).isEmpty)
  }

  /// An endless series has no last occurrence: its rule is said as it is.
  @Test func anEndlessSeriesSaysNoLastOccurrence() throws {
    let event = EKEvent(eventStore: store)
    event.title = "Standup"
    event.calendar = store.defaultCalendarForNewEvents
    event.startDate = Self.date("2027-04-05T09:00:00Z")
    event.endDate = Self.date("2027-04-05T09:15:00Z")
    event.timeZone = TimeZone(identifier: "UTC")
    event.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)]
    try store.save(event, span: .futureEvents)
    let shown = try ekctl(["show", event.calendarItemIdentifier])
    #expect(values("Repeats", of: shown.stdout) == ["Daily"], "\(shown.stdout)")
    #expect(values("Last", of: shown.stdout).isEmpty)
  }
}
