import Foundation
import OpenEventKit

/// When an event happens, in words, on the couple's clock: "Sat 12 Jun 2027, all day", "Fri
/// 14 May 2027 15:00–16:00", and, for an event kept in another zone (the ceremony at the
/// venue), its time there too: "Sat 12 Jun 2027 09:00–10:00 (15:00–16:00 Europe/Rome)".
struct EventWhen {
  let zone: TimeZone

  func text(_ event: EKEvent) -> String {
    let dates = DateText(timeZone: zone)
    guard let start = event.startDate, let end = event.endDate else { return "" }
    if event.isAllDay { return "\(dates.day(start)), all day" }
    var text = "\(dates.dayAndTime(start))–\(dates.time(end))"
    if let other = event.timeZone,
      other.secondsFromGMT(for: start) != zone.secondsFromGMT(for: start)
    {
      let there = DateText(timeZone: other)
      text += " (\(there.time(start))–\(there.time(end)) \(other.identifier))"
    }
    return text
  }

  /// A start alone: "Fri 14 May 2027 15:00".
  func start(_ date: Date) -> String { DateText(timeZone: zone).dayAndTime(date) }
}
