import Foundation
import OpenEventKit
import REPLKit

/// A day or a week of occurrences, grouped by day, for people who would rather look than
/// read identifiers:
///
/// ```
/// Monday 3 March 2025
///   all day      Holiday · Home
///   09:00–10:00  Dentist · Work
/// ```
///
/// An event covering several days shows on each: from its start time on the first, all day in
/// between, until its end time on the last.
public struct AgendaView {
  public let eventStore: EKEventStore
  /// The calendars shown; nil for all of them.
  public var calendars: [EKCalendar]?
  /// Which of their events are shown; nil for all (an app shows its own items, say).
  public var isIncluded: ((EKEvent) -> Bool)?
  /// What a day without any of them says.
  public var emptyDay = "Nothing planned"

  public init(eventStore: EKEventStore, calendars: [EKCalendar]? = nil) {
    self.eventStore = eventStore
    self.calendars = calendars
  }

  /// Writes `days` days from the one containing `day`, on the console's clock.
  public func show(from day: Date, days: Int, on console: Console) {
    console.write(render(from: day, days: days, style: console.style, timeZone: console.timeZone))
  }

  public func render(from day: Date, days: Int, style: TerminalStyle, timeZone: TimeZone) -> String
  {
    let dates = DateText(timeZone: timeZone)
    let first = dates.startOfDay(day)
    let end = dates.startOfDay(first, adding: max(1, days))
    let events = eventStore.events(
      matching: eventStore.predicateForEvents(
        // A day more on each side: floating events are found on the process's clock.
        withStart: first.addingTimeInterval(-86_400), end: end.addingTimeInterval(86_400),
        calendars: calendars)
    ).filter { isIncluded?($0) ?? true }
    var text = ""
    for offset in 0..<max(1, days) {
      let dayStart = dates.startOfDay(first, adding: offset)
      let dayEnd = dates.startOfDay(first, adding: offset + 1)
      // In the order of their times on the viewer's clock, where floating ones are moved.
      let today = events.map { ($0, EventSpan($0, viewer: timeZone)) }
        .filter { $0.1.overlaps(start: dayStart, end: dayEnd) }
        .sorted { lhs, rhs in
          (lhs.0.isAllDay ? 0 : 1, lhs.1.start, lhs.0.title ?? "")
            < (rhs.0.isAllDay ? 0 : 1, rhs.1.start, rhs.0.title ?? "")
        }.map(\.0)
      text += style.bold(dates.longDay(dayStart)) + "\n"
      if today.isEmpty { text += "  " + style.dim(emptyDay) + "\n" }
      for event in today {
        let time = when(event, dayStart: dayStart, dayEnd: dayEnd, dates: dates, viewer: timeZone)
        let title = event.title.flatMap { $0.isEmpty ? nil : $0 } ?? "(no title)"
        let repeats = event.hasRecurrenceRules || event.isDetached ? " (repeats)" : ""
        let calendar = event.calendar.map { style.dim(" · \($0.title)") } ?? ""
        text +=
          "  " + time.padding(toLength: 13, withPad: " ", startingAt: 0)
          + title + repeats + calendar + "\n"
      }
    }
    return text
  }

  /// The event's time on one day: "09:00–10:00", "all day", "22:00–" or "–01:00".
  private func when(
    _ event: EKEvent, dayStart: Date, dayEnd: Date, dates: DateText, viewer: TimeZone
  ) -> String {
    let span = EventSpan(event, viewer: viewer)
    if event.isAllDay || (span.start <= dayStart && span.end >= dayEnd) { return "all day" }
    let from = span.start >= dayStart ? dates.time(span.start) : ""
    let to = span.end <= dayEnd ? (span.end == dayEnd ? "24:00" : dates.time(span.end)) : ""
    return span.start == span.end ? from : "\(from)–\(to)"
  }
}

/// An event's time as a half-open interval: EventKit's all-day end is the last second of the
/// last day, one second short of the midnight that ends it.
struct EventSpan {
  let start: Date
  let end: Date

  init(_ event: EKEvent, viewer: TimeZone) {
    let dates = FloatingTime.dates(of: event, viewer: viewer)
    start = dates?.start ?? Date.distantPast
    let end = dates?.end ?? start
    self.end = event.isAllDay ? end.addingTimeInterval(1) : end
  }

  /// Whether it takes any time in [start, end); an instant event counts at its moment.
  func overlaps(start dayStart: Date, end dayEnd: Date) -> Bool {
    start == end ? start >= dayStart && start < dayEnd : start < dayEnd && end > dayStart
  }
}
