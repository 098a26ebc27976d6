import Foundation
import OpenEventKit
import REPLKit

/// A month as `cal` prints it, with the days that have events marked:
///
/// ```
///       March 2025
/// Mo Tu We Th Fr Sa Su
///                 1  2
///  3* 4  5  6  7* 8  9
/// ...
/// * a day with events
/// ```
///
/// Today is in reverse video on a colour terminal.
///
/// A day is marked when some included event overlaps it on the viewer's clock. EventKitUI has
/// no such view: it is this package's own, for terminals.
///
/// ```swift
/// var grid = MonthGrid(eventStore: store, firstWeekday: 1)  // weeks from Sunday
/// grid.markedDays = "a day with payments"
/// grid.show(monthOf: console.now, on: console)
/// ```
///
/// <doc:TerminalUI> shows it in a session.
public struct MonthGrid {
  /// The store whose events mark days; the app must have full access to events, or no day
  /// is marked.
  public let eventStore: EKEventStore
  /// The calendars whose events mark days; nil for all of them.
  public var calendars: [EKCalendar]?
  /// Which of their events mark days; nil for all (an app marks its own items, say).
  public var isIncluded: ((EKEvent) -> Bool)?
  /// What the mark stands for, under the grid.
  public var markedDays = "a day with events"
  /// The first day of the week, as `Calendar` numbers them (1 = Sunday, 2 = Monday).
  public var firstWeekday: Int

  /// A grid of the events in `eventStore`, every event marking its days.
  ///
  /// ```swift
  /// var grid = MonthGrid(eventStore: store, firstWeekday: 1)  // weeks from Sunday
  /// grid.isIncluded = { $0.hasRecurrenceRules }  // only repeating events mark days
  /// grid.show(monthOf: console.now, on: console)
  /// ```
  ///
  /// - Parameters:
  ///   - eventStore: The store to read events from.
  ///   - calendars: The calendars whose events mark days; nil (the default) for all.
  ///   - firstWeekday: The first day of the week, as `Calendar` numbers them (1 = Sunday,
  ///     2 = Monday, the default); values outside 1…7 are brought to the nearest end.
  public init(eventStore: EKEventStore, calendars: [EKCalendar]? = nil, firstWeekday: Int = 2) {
    self.eventStore = eventStore
    self.calendars = calendars
    self.firstWeekday = min(max(firstWeekday, 1), 7)
  }

  /// Writes the month containing `date`, on the console's clock.
  ///
  /// Today is the day of the console's current time (`Console.now`).
  ///
  /// ```swift
  /// let grid = MonthGrid(eventStore: store)
  /// let nextMonth = Calendar.current.date(byAdding: .month, value: 1, to: console.now)!
  /// grid.show(monthOf: nextMonth, on: console)
  /// ```
  ///
  /// - Parameters:
  ///   - date: Any instant of the month shown.
  ///   - console: Where the grid is written, with its style, time zone and clock.
  public func show(monthOf date: Date, on console: Console) {
    console.write(
      render(
        monthOf: date, today: console.now, style: console.style, timeZone: console.timeZone))
  }

  /// The grid as text, as ``show(monthOf:on:)`` writes it: the month's name centred over the
  /// weekdays, a line per week, and a legend under it when some day is marked.
  ///
  /// ```swift
  /// let grid = MonthGrid(eventStore: store)
  /// let march = Date(timeIntervalSince1970: 1_740_988_800)  // 2025-03-03
  /// let text = grid.render(monthOf: march, today: march, style: .plain, timeZone: .gmt)
  /// print(text.split(separator: "\n")[1])  // Mo Tu We Th Fr Sa Su
  /// ```
  ///
  /// - Parameters:
  ///   - date: Any instant of the month shown.
  ///   - today: The instant whose day is shown in reverse video, when it is in that month.
  ///   - style: How today and the legend are decorated; `.plain` for tests and files.
  ///   - timeZone: The viewer's clock: which month `date` is in and where days begin.
  /// - Returns: The month's text, each line ended by a newline.
  public func render(monthOf date: Date, today: Date, style: TerminalStyle, timeZone: TimeZone)
    -> String
  {
    let dates = DateText(timeZone: timeZone)
    let month = dates.parts(date)
    let first = dates.startOfDay(date, adding: 1 - month.day)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let length = calendar.range(of: .day, in: .month, for: first)?.count ?? 30
    let marked = daysWithEvents(from: first, days: length, dates: dates)
    let todayParts = dates.parts(today)
    let isThisMonth = todayParts.year == month.year && todayParts.month == month.month

    let width = 20
    let heading = "\(DateText.months[month.month - 1]) \(month.year)"
    var text =
      String(repeating: " ", count: max(0, width - DisplayWidth.width(of: heading)) / 2) + heading
      + "\n"
    let names = (0..<7).map {
      String(DateText.weekdays[(firstWeekday - 1 + $0) % 7].prefix(2))
    }
    text += names.joined(separator: " ") + "\n"
    // Columns are three wide: two for the day, one for its mark.
    var column = (dates.parts(first).weekday - firstWeekday + 7) % 7
    var line = String(repeating: "   ", count: column)
    for day in 1...length {
      let number = day < 10 ? " \(day)" : "\(day)"
      line += (isThisMonth && day == todayParts.day ? style.inverse(number) : number)
      line += marked.contains(day) ? "*" : " "
      column += 1
      if column == 7 || day == length {
        text += trimmed(line) + "\n"
        line = ""
        column = 0
      }
    }
    if !marked.isEmpty { text += style.dim("* \(markedDays)") + "\n" }
    return text
  }

  /// The days (1…) of the month that some event overlaps.
  private func daysWithEvents(from first: Date, days: Int, dates: DateText) -> Set<Int> {
    let end = dates.startOfDay(first, adding: days)
    let events = eventStore.events(
      matching: eventStore.predicateForEvents(
        // A day more on each side: floating events are found on the process's clock.
        withStart: first.addingTimeInterval(-86_400), end: end.addingTimeInterval(86_400),
        calendars: calendars)
    ).filter { isIncluded?($0) ?? true }
    var marked = Set<Int>()
    for day in 0..<days {
      let dayStart = dates.startOfDay(first, adding: day)
      let dayEnd = dates.startOfDay(first, adding: day + 1)
      if events.contains(where: {
        EventSpan($0, viewer: dates.timeZone).overlaps(start: dayStart, end: dayEnd)
      }) {
        marked.insert(day + 1)
      }
    }
    return marked
  }

  private func trimmed(_ line: String) -> String {
    var line = line
    while line.hasSuffix(" ") { line.removeLast() }
    return line
  }
}
