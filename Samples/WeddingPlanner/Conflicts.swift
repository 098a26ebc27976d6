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
    let rows = Self.clashes(in: store, from: console.now, to: end) { event in
      PlanItem.id(of: event.url).map(live.contains)
    }.map { appointment, other in
      [
        appointment.title ?? "", when.text(appointment), "|",
        "\(other.title ?? "") (\(other.calendar?.title ?? ""))", when.text(other),
      ]
    }
    guard !rows.isEmpty else {
      return console.print("No appointment overlaps anything in your other calendars.")
    }
    console.table(rows)
  }

  // MARK: pattern fetch-all-calendars

  /// Each of the plan's appointments, with each busy event of the couple's that overlaps it,
  /// from `start` to `end`. One predicate with `calendars: nil` reads every calendar the app
  /// may read, the plan's and the others together: one query, and each event once.
  /// `isPlan(event)` is true for a live appointment, false for a cancelled one, nil for an
  /// event that is not the plan's.
  static func clashes(
    in store: EKEventStore, from start: Date, to end: Date, isPlan: (EKEvent) -> Bool?
  ) -> [(appointment: EKEvent, other: EKEvent)] {
    let predicate = store.predicateForEvents(withStart: start, end: end, calendars: nil)
    let events = store.events(matching: predicate)
    let appointments = events.filter { isPlan($0) == true }
    // An event marked free (a holiday, say) keeps no time from anything.
    let busy = events.filter { isPlan($0) == nil && $0.availability != .free }
    return appointments.flatMap { appointment in
      busy.filter { overlap(appointment, $0) }.map { (appointment, $0) }
    }
  }

  /// Whether two events share some time; touching is not overlapping. An all-day event's
  /// `endDate` is within its last day: it takes that whole day (on the couple's clock).
  static func overlap(_ a: EKEvent, _ b: EKEvent) -> Bool {
    func span(_ event: EKEvent) -> (start: Date, end: Date) {
      guard event.isAllDay else { return (event.startDate, event.endDate) }
      let calendar = Calendar.current
      let last = calendar.startOfDay(for: event.endDate)
      return (
        calendar.startOfDay(for: event.startDate),
        calendar.date(byAdding: .day, value: 1, to: last) ?? last
      )
    }
    return span(a).start < span(b).end && span(b).start < span(a).end
  }
}
