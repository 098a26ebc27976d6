import Foundation
import MCP
import OpenEventKit

/// A `recurrence` argument (frequency, interval, daysOfWeek, count or until) as an
/// `EKRecurrenceRule`; a wrong field is a protocol error.
enum RecurrenceReading {
  static let keys: Set<String> = ["frequency", "interval", "daysOfWeek", "count", "until"]

  static func rule(_ object: [String: Value], tool: String, zone: TimeZone?) throws(MCPError)
    -> EKRecurrenceRule
  {
    let arguments = try ToolArguments(tool: "\(tool) recurrence", values: object, accepted: keys)
    enum Frequency: String, CaseIterable { case daily, weekly, monthly, yearly }
    /// iCalendar's day names, Sunday first as EKWeekday counts.
    let dayNames = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    guard let frequency = try arguments.choice("frequency", Frequency.self) else {
      throw MCPError.invalidParams("\(tool): recurrence needs \"frequency\"")
    }
    let interval = try arguments.int("interval", in: 1...1000) ?? 1
    let count = try arguments.int("count", in: 1...100_000)
    var until: Date?
    if let text = try arguments.string("until") {
      switch Times.read(text) {
      case .day(var components):
        components.hour = 23
        components.minute = 59
        components.second = 59
        until = Times.instant(components, in: zone ?? .current)
      case .instant(let date): until = date
      case .wallClock(let components): until = Times.instant(components, in: zone ?? .current)
      case nil:
        throw MCPError.invalidParams(
          "\(tool): recurrence \"until\" is no RFC 3339 date (\"\(text)\")")
      }
    }
    if count != nil && until != nil {
      throw MCPError.invalidParams("\(tool): recurrence takes \"count\" or \"until\", not both")
    }
    var days: [EKRecurrenceDayOfWeek]?
    if let words = try arguments.strings("daysOfWeek") {
      days = try words.map { word throws(MCPError) in
        guard let index = dayNames.firstIndex(of: word.uppercased()),
          let weekday = EKWeekday(rawValue: index + 1)
        else {
          throw MCPError.invalidParams(
            "\(tool): recurrence \"daysOfWeek\" takes MO, TU, WE, TH, FR, SA, SU")
        }
        return EKRecurrenceDayOfWeek(weekday)
      }
    }
    let type: EKRecurrenceFrequency =
      switch frequency {
      case .daily: .daily
      case .weekly: .weekly
      case .monthly: .monthly
      case .yearly: .yearly
      }
    let end =
      count.map { EKRecurrenceEnd(occurrenceCount: $0) } ?? until.map { EKRecurrenceEnd(end: $0) }
    return EKRecurrenceRule(
      recurrenceWith: type, interval: interval, daysOfTheWeek: days, daysOfTheMonth: nil,
      monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: nil, end: end)
  }
}
