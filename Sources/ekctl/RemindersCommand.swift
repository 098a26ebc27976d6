import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl reminders`: the reminders of every list, or the incomplete or completed ones.
struct RemindersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminders",
    abstract: "List reminders: title, due date, list, completion and identifier.")

  @OptionGroup var store: StoreOptions

  @Flag(help: "Only reminders not yet completed.")
  var incomplete = false

  @Flag(help: "Only completed reminders.")
  var completed = false

  @Option(help: "Only reminders of the list with this title.")
  var calendar: String?

  @Flag(help: "Print JSON Lines.")
  var json = false

  func validate() throws {
    if incomplete && completed {
      throw ValidationError("Give --incomplete or --completed, not both.")
    }
  }

  func run() throws {
    let store = try store.open()
    let lists = try calendar.map { try calendars(titled: $0, in: store, entity: .reminder) }
    let predicate =
      incomplete
      ? store.predicateForIncompleteReminders(
        withDueDateStarting: nil, ending: nil, calendars: lists)
      : completed
        ? store.predicateForCompletedReminders(
          withCompletionDateStarting: nil, ending: nil, calendars: lists)
        : store.predicateForReminders(in: lists)
    let box = ReminderResults()
    let done = DispatchSemaphore(value: 0)
    store.fetchReminders(matching: predicate) { reminders in
      box.reminders = reminders ?? []
      done.signal()
    }
    done.wait()
    let reminders = box.reminders.sorted {
      (Self.dueText($0) ?? "~", $0.title ?? "") < (Self.dueText($1) ?? "~", $1.title ?? "")
    }
    for reminder in reminders {
      if json {
        var line = JSONWriter()
        line.beginObject()
        line.member("title", reminder.title)
        line.member("due", Self.dueText(reminder))
        line.member("completed", reminder.isCompleted)
        line.member("completionDate", reminder.completionDate.map(OccurrenceText.utc))
        line.member("priority", reminder.priority)
        line.member("calendar", reminder.calendar?.title)
        line.member("calendarItemIdentifier", reminder.calendarItemIdentifier)
        line.member("externalIdentifier", reminder.calendarItemExternalIdentifier)
        line.endObject()
        print(line.text)
      } else {
        let mark = reminder.isCompleted ? "[x]" : "[ ]"
        let due = Self.dueText(reminder).map { "  due \($0)" } ?? ""
        printInert(
          "\(mark) \(reminder.title ?? "")\(due)  [\(reminder.calendar?.title ?? "")]  "
            + reminder.calendarItemIdentifier)
      }
    }
  }

  /// The due date as written: a date, a local time, or an instant in UTC when it has a zone.
  static func dueText(_ reminder: EKReminder) -> String? {
    guard let due = reminder.dueDateComponents, let year = due.year, let month = due.month,
      let day = due.day
    else { return nil }
    let date =
      String(year).leftPadded(4).replacingOccurrences(of: " ", with: "0") + "-"
      + String(format: "%02d-%02d", month, day)
    guard let hour = due.hour else { return date }
    let time = String(format: "%02d:%02d:%02d", hour, due.minute ?? 0, due.second ?? 0)
    guard let zone = due.timeZone else { return "\(date)T\(time)" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.date(from: due).map(OccurrenceText.utc) ?? "\(date)T\(time)"
  }
}

/// Where a reminder fetch's completion leaves its results.
final class ReminderResults: @unchecked Sendable {
  var reminders: [EKReminder] = []
}
