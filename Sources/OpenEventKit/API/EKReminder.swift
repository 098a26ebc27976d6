import Foundation

/// A reminder in a list: something to do, optionally by a due date.
///
/// See <doc:FetchingEvents#Reminders>.
open class EKReminder: EKCalendarItem, @unchecked Sendable {
  /// A new reminder for `eventStore`: no list yet (set `calendar`).
  ///
  /// See <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - eventStore: The store that will save the reminder.
  ///
  /// ```swift
  /// let reminder = EKReminder(eventStore: store)
  /// reminder.title = "Call the plumber"
  /// reminder.calendar = store.defaultCalendarForNewReminders()
  /// try store.save(reminder, commit: true)
  /// ```
  public convenience init(eventStore: EKEventStore) {
    self.init(eventStore: eventStore, kind: .reminder, values: ItemValues(calendarId: nil))
  }

  /// When to start working on it.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  open var startDateComponents: DateComponents? {
    get { values.startComponents }
    set { values.startComponents = newValue }
  }

  /// When it is due: a date, or a date and time (with a time zone, or floating without one).
  /// A repeating reminder needs one.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  open var dueDateComponents: DateComponents? {
    get { values.dueComponents }
    set { values.dueComponents = newValue }
  }

  /// Setting it to true records now as the completion date; false clears that date.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  open var isCompleted: Bool {
    get { values.isCompleted }
    set {
      guard newValue != values.isCompleted else { return }
      values.isCompleted = newValue
      values.completionDate = newValue ? Date().wholeSeconds : nil
    }
  }

  /// Setting a date completes the reminder; nil makes it incomplete again.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  open var completionDate: Date? {
    get { values.completionDate }
    set {
      values.completionDate = newValue?.wholeSeconds
      values.isCompleted = newValue != nil
    }
  }

  /// 0 for none, 1 (highest) to 9 (lowest); see `EKReminderPriority`.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  open var priority: Int {
    get { values.priority }
    set { values.priority = newValue }
  }

  /// A short summary for debugging: title and completion.
  open override var description: String {
    "EKReminder(title: \(values.title ?? "nil"), completed: \(values.isCompleted))"
  }
}
