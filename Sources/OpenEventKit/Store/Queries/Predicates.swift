import Foundation

/// The predicate `predicateForEvents(withStart:end:calendars:)` returns: every occurrence
/// that overlaps `[start, end)` in the calendars named (all of them when nil).
final class EventPredicate: NSPredicate {
  let start: Date
  let end: Date
  let calendarIds: [String]?

  init(start: Date, end: Date, calendarIds: [String]?) {
    self.start = start
    self.end = end
    self.calendarIds = calendarIds
    super.init(value: true)
  }

  required init?(coder: NSCoder) { nil }

  override var description: String {
    "EKEventPredicate start:\(start); end:\(end); calendars:\(calendarIds ?? ["all"])"
  }
}

/// The predicates for reminders: all of them, the incomplete ones due in a range, or the
/// completed ones completed in a range, in the lists named (all of them when nil).
final class ReminderPredicate: NSPredicate {
  enum Kind {
    case all
    case incomplete(dueFrom: Date?, dueBefore: Date?)
    case completed(from: Date?, before: Date?)
  }

  let kind: Kind
  let calendarIds: [String]?

  init(kind: Kind, calendarIds: [String]?) {
    self.kind = kind
    self.calendarIds = calendarIds
    super.init(value: true)
  }

  required init?(coder: NSCoder) { nil }

  /// Whether a reminder is one the predicate asks for.
  func matches(_ record: ItemRecord) -> Bool {
    if let calendarIds, !calendarIds.contains(record.calendarId) { return false }
    func within(_ date: Date?, _ from: Date?, _ before: Date?) -> Bool {
      guard from != nil || before != nil else { return true }
      guard let date else { return false }
      return (from.map { date >= $0 } ?? true) && (before.map { date < $0 } ?? true)
    }
    switch kind {
    case .all:
      return true
    case .incomplete(let from, let before):
      let due = ReminderDue.from(record)?.date
      return !record.isCompleted && within(due, from, before)
    case .completed(let from, let before):
      let completed = record.completedAt.map { Date(timeIntervalSince1970: $0) }
      return record.isCompleted && within(completed, from, before)
    }
  }

  override var description: String {
    "EKReminderPredicate \(kind); calendars:\(calendarIds ?? ["all"])"
  }
}

extension ReminderDue {
  static func from(_ record: ItemRecord) -> ReminderDue? {
    guard let text = record.dueComponents,
      let components = JSONColumn.value(DateComponents.self, from: text)
    else { return nil }
    return ReminderDue(components)
  }
}
