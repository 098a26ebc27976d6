import Foundation

/// One firing of an alarm: when it fires, which alarm, and the item it belongs to, as the
/// person should be told of it. An OpenEventKit addition.
///
/// On Apple's systems the system fires alarms and EventKit only keeps them; on Linux
/// ``EKEventStore/alarmFirings(from:to:calendars:)`` says when each fires, so that an agent
/// (`ekctl alarms --watch`) or an app can deliver them. A relative alarm fires once per
/// occurrence of a repeating event, at the occurrence's start plus its offset; a reminder's
/// fires at its due date plus its offset. An absolute alarm fires once, at its date. See
/// <doc:Alarms>.
///
/// ```swift
/// let now = Date()
/// for firing in store.alarmFirings(from: now, to: now.addingTimeInterval(86_400)) {
///   print(firing.fireDate, firing.title, firing.calendarTitle)
/// }
/// ```
public struct AlarmFiring: Hashable, Sendable, Identifiable {
  /// How the alarm's time is given.
  ///
  /// ```swift
  /// let now = Date()
  /// for firing in store.alarmFirings(from: now, to: now.addingTimeInterval(86_400)) {
  ///   switch firing.trigger {
  ///   case .relative(let offset): print(firing.title, "\(Int(-offset / 60)) minutes before")
  ///   case .absolute(let date): print(firing.title, "at", date)
  ///   }
  /// }
  /// ```
  public enum Trigger: Hashable, Sendable {
    /// An offset in seconds from the event's start (of this occurrence) or from the
    /// reminder's due date; negative is before. EKAlarm's `relativeOffset`.
    case relative(TimeInterval)
    /// A moment of its own, EKAlarm's `absoluteDate`: it fires once, even on a repeating event.
    case absolute(Date)
  }

  /// When the alarm fires.
  public let fireDate: Date
  /// How its time is given.
  public let trigger: Trigger
  /// Whether it belongs to an event or a reminder.
  public let entityType: EKEntityType
  /// The item's `calendarItemIdentifier`: the series' for an occurrence of a repeating event,
  /// the detached occurrence's own for a detached one.
  public let calendarItemIdentifier: String
  /// For an event, the occurrence's start as EKEvent's `occurrenceDate` gives it: the
  /// instance the alarm is for. Nil for a reminder.
  public let occurrenceDate: Date?
  /// The item's title ("" when it has none).
  public let title: String
  /// The item's location, if it has one.
  public let location: String?
  /// For an event, the occurrence's start; for a reminder, its due date.
  public let startDate: Date?
  /// For an event, the occurrence's end; nil for a reminder, which has no end.
  public let endDate: Date?
  /// Whether the event takes whole days, or the reminder's due date has no time.
  public let isAllDay: Bool
  /// The `calendarIdentifier` of the item's calendar (or reminder list).
  public let calendarIdentifier: String
  /// The title of the item's calendar (or reminder list), to show beside the item's.
  public let calendarTitle: String

  /// A short identifier of this firing, the same whenever it is computed while the item, the
  /// occurrence and the alarm's time stay as they are: what `ekctl alarms snooze` and
  /// `dismiss` name, and what an agent records as fired. An alarm moved to another time is
  /// another firing.
  public let id: String

  init(
    fireDate: Date, trigger: Trigger, entityType: EKEntityType, calendarItemIdentifier: String,
    occurrenceDate: Date?, title: String, location: String?, startDate: Date?, endDate: Date?,
    isAllDay: Bool, calendarIdentifier: String, calendarTitle: String
  ) {
    self.fireDate = fireDate
    self.trigger = trigger
    self.entityType = entityType
    self.calendarItemIdentifier = calendarItemIdentifier
    self.occurrenceDate = occurrenceDate
    self.title = title
    self.location = location
    self.startDate = startDate
    self.endDate = endDate
    self.isAllDay = isAllDay
    self.calendarIdentifier = calendarIdentifier
    self.calendarTitle = calendarTitle
    var key = calendarItemIdentifier + "\n"
    key += occurrenceDate.map { String(Int($0.timeIntervalSince1970)) } ?? "-"
    key += "\n" + String(Int(fireDate.timeIntervalSince1970))
    id = Self.digest(key)
  }

  /// FNV-1a, 64 bits, as 16 hexadecimal digits: stable from run to run, unlike `hashValue`.
  private static func digest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
