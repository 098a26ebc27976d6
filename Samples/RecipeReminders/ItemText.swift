import Foundation
import OpenEventKit

/// What `list` says of an item besides its title and amount: when it is due, how it
/// repeats, where it reminds, and when it was bought, on the person's clock.
struct ItemText {
  let timeZone: TimeZone

  /// "due Tue 1 Dec 2026 18:00, weekly, alarm at 18:00 on 1 December, alarm when arriving
  /// at Corner shop": OpenEventKit's words for rules and alarms, as Reminders shows them.
  func details(_ item: EKReminder) -> String {
    var parts: [String] = []
    if let due = item.dueDateComponents.flatMap(due) { parts.append("due \(due)") }
    for rule in item.recurrenceRules ?? [] {
      parts.append(lowercasingFirst(RecurrenceWords.describe(rule, timeZone: timeZone)))
    }
    for alarm in item.alarms ?? [] {
      let words = AlarmWords.describe(alarm, start: nil, isAllDay: false, timeZone: timeZone)
      parts.append("alarm \(lowercasingFirst(words))")
    }
    if let bought = item.completionDate {
      parts.append("bought \(DateText(timeZone: timeZone).dayAndTime(bought))")
    }
    return parts.joined(separator: ", ")
  }

  private func lowercasingFirst(_ text: String) -> String {
    text.prefix(1).lowercased() + text.dropFirst()
  }

  /// "Tue 1 Dec 2026 18:00" for a due time, on the person's clock; "Tue 1 Dec 2026" for a
  /// due day, which is the same day everywhere.
  func due(_ components: DateComponents) -> String? {
    var calendar = Calendar(identifier: .gregorian)
    guard components.hour != nil else {
      calendar.timeZone = TimeZone(identifier: "UTC")!
      return calendar.date(from: components).map {
        DateText(timeZone: calendar.timeZone).day($0)
      }
    }
    calendar.timeZone = components.timeZone ?? timeZone
    return calendar.date(from: components).map { DateText(timeZone: timeZone).dayAndTime($0) }
  }
}
