import Foundation
import ICalendar
import OpenEventKit
import REPLKit

/// `conflicts`: the plan's appointments that overlap events in the couple's other calendars,
/// found with one predicate across every calendar, from now until the day after the wedding.
/// Events marked free, such as the holidays, are not conflicts.
extension WeddingCommands {
  func conflicts() throws {
    let store = try store(.read("'conflicts'"))
    let end: Date
    if let day = try database.wedding()?.civilDay {
      end = DateReading.instant(
        local: CivilDateTime(date: CivilDate(dayNumber: day.dayNumber + 2)), in: console.timeZone)
    } else {
      end = console.now.addingTimeInterval(366 * 86_400)
    }
    let live = Set(try database.items().filter { $0.state != .cancelled }.map(\.id))
    let (ours, others) = Self.planAndBusy(in: store, from: console.now, to: end, live: live)
    var rows: [[String]] = []
    for appointment in ours {
      for other in others where Self.overlap(appointment, other) {
        rows.append([
          appointment.title ?? "", when.text(appointment), "|",
          "\(other.title ?? "") (\(other.calendar?.title ?? ""))", when.text(other),
        ])
      }
    }
    guard !rows.isEmpty else {
      return console.print("No appointment overlaps anything in your other calendars.")
    }
    console.table(rows)
  }

  // MARK: pattern fetch-all-calendars

  /// The plan's live appointments and the couple's other busy events, from `start` to `end`.
  /// One predicate with `calendars: nil` reads every calendar the app may read, the plan's
  /// and the others together: one query, and each event once.
  static func planAndBusy(
    in store: EKEventStore, from start: Date, to end: Date, live: Set<Int64>
  ) -> (ours: [EKEvent], others: [EKEvent]) {
    let events = store.events(
      matching: store.predicateForEvents(withStart: start, end: end, calendars: nil))
    // The plan's own are known by their URL back to the plan, whatever their calendar.
    let ours = events.filter { PlanItem.id(of: $0.url).map(live.contains) ?? false }
    // An event marked free (a holiday, say) keeps no time from anything.
    let others = events.filter { PlanItem.id(of: $0.url) == nil && $0.availability != .free }
    return (ours, others)
  }

  // MARK: Overlapping

  /// Whether two events share some time. An all-day event takes its whole day (or days) on
  /// the couple's clock.
  static func overlap(_ a: EKEvent, _ b: EKEvent) -> Bool {
    let (aStart, aEnd) = span(a)
    let (bStart, bEnd) = span(b)
    return aStart < bEnd && bStart < aEnd
  }

  private static func span(_ event: EKEvent) -> (Date, Date) {
    guard event.isAllDay else { return (event.startDate, event.endDate) }
    let calendar = Calendar.current
    let start = calendar.startOfDay(for: event.startDate)
    let last = calendar.startOfDay(for: event.endDate)
    return (start, calendar.date(byAdding: .day, value: 1, to: last) ?? last)
  }
}
