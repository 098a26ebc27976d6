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
///
/// Within a day, all-day events come first, then the others by start time, then by title. An
/// occurrence of a repeating event is marked `(repeats)`, and each event is followed by its
/// calendar's title. All-day and floating events keep their wall-clock dates on the viewer's
/// clock. EventKitUI has no such view: it is this package's own, for terminals.
///
/// ```swift
/// var agenda = AgendaView(eventStore: store)
/// agenda.isIncluded = { $0.calendar?.title == "Work" }
/// agenda.show(from: console.now, days: 7, on: console)
/// ```
///
/// <doc:TerminalUI> shows it in a session.
public struct AgendaView {
  /// The store whose events are shown; the app must have full access to events, or the view
  /// shows no events.
  public let eventStore: EKEventStore
  /// The calendars shown; nil for all of them.
  public var calendars: [EKCalendar]?
  /// Which of their events are shown; nil for all (an app shows its own items, say).
  public var isIncluded: ((EKEvent) -> Bool)?
  /// What a day without any of them says.
  public var emptyDay = "Nothing planned"

  /// A view of the events in `eventStore`, every event included and empty days saying
  /// "Nothing planned".
  ///
  /// ```swift
  /// let work = store.calendars(for: .event).filter { $0.title == "Work" }
  /// var agenda = AgendaView(eventStore: store, calendars: work)
  /// agenda.emptyDay = "Free"
  /// agenda.show(from: console.now, days: 5, on: console)
  /// ```
  ///
  /// - Parameters:
  ///   - eventStore: The store to read events from.
  ///   - calendars: The calendars whose events are shown; nil (the default) for all of them.
  public init(eventStore: EKEventStore, calendars: [EKCalendar]? = nil) {
    self.eventStore = eventStore
    self.calendars = calendars
  }

  /// Writes `days` days from the one containing `day`, on the console's clock.
  ///
  /// ```swift
  /// // Today and the six days after it, in the console's style and on its clock.
  /// AgendaView(eventStore: store).show(from: console.now, days: 7, on: console)
  /// ```
  ///
  /// - Parameters:
  ///   - day: Any instant of the first day shown.
  ///   - days: How many days are shown; fewer than 1 shows one.
  ///   - console: Where the agenda is written, with its style and time zone.
  public func show(from day: Date, days: Int, on console: Console) {
    console.write(render(from: day, days: days, style: console.style, timeZone: console.timeZone))
  }

  /// The agenda as text, as ``show(from:days:on:)`` writes it: a heading per day (`Monday 3
  /// March 2025`) and a line per event, each line ended by a newline.
  ///
  /// ```swift
  /// let agenda = AgendaView(eventStore: store)
  /// let monday = Date(timeIntervalSince1970: 1_740_988_800)  // 2025-03-03 08:00 UTC
  /// let text = agenda.render(from: monday, days: 1, style: .plain, timeZone: .gmt)
  /// print(text.split(separator: "\n")[0])  // Monday 3 March 2025
  /// ```
  ///
  /// - Parameters:
  ///   - day: Any instant of the first day shown.
  ///   - days: How many days are shown; fewer than 1 shows one.
  ///   - style: How headings and calendars are decorated; `.plain` for tests and files.
  ///   - timeZone: The viewer's clock: days begin at its midnights and times are read on it.
  /// - Returns: The days' text.
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
        let title = event.title.flatMap { $0.isEmpty ? nil : InertText.of($0) } ?? "(no title)"
        let repeats = event.hasRecurrenceRules || event.isDetached ? " (repeats)" : ""
        let calendar = event.calendar.map { style.dim(" · \(InertText.of($0.title))") } ?? ""
        text +=
          "  " + DisplayWidth.padded(time, to: 13)
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
