import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit

/// `ekctl show ID`: everything about one event or reminder.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show an event or reminder by its identifier.",
    discussion: """
      ID is an eventIdentifier or calendarItemIdentifier (as `events` and `reminders` print \
      them), or an external identifier (the iCalendar UID). A repeating event's identifier \
      shows the series: its rule with its last occurrence, the instances removed from it and \
      each detached occurrence with the instance it replaces.
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The identifier.")
  var id: String

  func run() throws {
    let store = try store.open()
    guard let item = findItem(id, in: store) else {
      throw CommandError("no event or reminder with identifier \(id)")
    }
    let zone = TimeZone.current
    let dates = DateText(timeZone: zone)
    var lines: [(String, String)] = []
    func add(_ label: String, _ value: String?) {
      if let value, !value.isEmpty { lines.append((label, value)) }
    }
    add("Title", item.title)
    add("Calendar", item.calendar?.title)
    if let event = item as? EKEvent {
      if event.isAllDay {
        let last = event.endDate.addingTimeInterval(-1)
        add(
          "When",
          dates.day(event.startDate) == dates.day(last)
            ? "\(dates.longDay(event.startDate)), all day"
            : "\(dates.longDay(event.startDate)) to \(dates.longDay(last)), all day")
      } else if let own = event.timeZone, own.identifier != zone.identifier {
        // Two clocks: each time says whose it is.
        add("Starts", "\(dates.dayAndTime(event.startDate)) on your clock (\(zone.identifier))")
        add("Ends", "\(dates.dayAndTime(event.endDate)) on your clock")
        add("Time zone", own.identifier)
        let there = DateText(timeZone: own)
        let end =
          there.day(event.startDate) == there.day(event.endDate)
          ? there.time(event.endDate) : there.dayAndTime(event.endDate)
        add("Its own clock", "\(there.dayAndTime(event.startDate)) to \(end)")
      } else {
        add("Starts", dates.dayAndTime(event.startDate))
        add("Ends", dates.dayAndTime(event.endDate))
        add("Time zone", event.timeZone?.identifier ?? "floating (the viewer's clock)")
      }
      if event.isDetached {
        // occurrenceDate is the instance it stands for, wherever it was moved.
        let clock =
          event.timeZone.map { $0.identifier != zone.identifier } ?? false ? " on your clock" : ""
        add(
          "Detached",
          "replaces the occurrence of \(dates.dayAndTime(event.occurrenceDate))\(clock) "
            + "in its series")
      }
      add("Availability", Self.words(event.availability))
      if event.status != .none { add("Status", Self.words(event.status)) }
      if let organizer = event.organizer {
        add("Organizer", organizer.name ?? organizer.url.absoluteString)
      }
    }
    if let reminder = item as? EKReminder {
      add("Due", RemindersCommand.dueText(reminder) ?? "no due date")
      add(
        "Completed",
        reminder.completionDate.map(dates.dayAndTime) ?? (reminder.isCompleted ? "yes" : "no"))
      if reminder.priority != 0 { add("Priority", String(reminder.priority)) }
    }
    if let event = item as? EKEvent {
      for words in RecurrenceWords.describe(rulesOf: event, timeZone: event.timeZone ?? zone) {
        add("Repeats", words)
      }
      if event.hasRecurrenceRules, let series = store.seriesOutline(of: event) {
        for (label, value) in Self.seriesLines(series, of: event, dates: dates) {
          add(label, value)
        }
      }
    } else {
      for rule in item.recurrenceRules ?? [] {
        add("Repeats", RecurrenceWords.describe(rule, timeZone: item.timeZone ?? zone))
      }
    }
    let start = (item as? EKEvent)?.startDate
    for alarm in item.alarms ?? [] {
      add(
        "Alert",
        AlarmWords.describe(
          alarm, start: start, isAllDay: (item as? EKEvent)?.isAllDay ?? false, timeZone: zone))
    }
    add("Location", item.location)
    add("URL", item.url?.absoluteString)
    for attendee in item.attendees ?? [] {
      add(
        "Attendee",
        "\(attendee.name ?? attendee.url.absoluteString) (\(attendee.participantStatus))")
    }
    add("Notes", item.notes)
    add("Identifier", item.calendarItemIdentifier)
    add("External ID", item.calendarItemExternalIdentifier)
    // Values are data: TextTable shows them inert, the notes' lines indented under their
    // first; any other value is put on one line first (its line breaks shown as \u{A}).
    var table = TextTable(
      rows: lines.map { label, value in [label, label == "Notes" ? value : InertText.of(value)] })
    table.lastColumnKeepsLineBreaks = true
    for line in table.lines { print(line) }
  }

  /// What the series holds besides its rule: each instance removed, each detached occurrence
  /// with the instance it replaces and what it is now, and its last occurrence. Times are on
  /// the viewer's clock (`dates`), said so when the event has a clock of its own.
  static func seriesLines(_ series: SeriesOutline, of event: EKEvent, dates: DateText)
    -> [(String, String)]
  {
    let ownClock = event.timeZone.map { $0.identifier != dates.timeZone.identifier } ?? false
    func when(_ date: Date, allDay: Bool = event.isAllDay) -> String {
      allDay ? dates.day(date) : dates.dayAndTime(date) + (ownClock ? " on your clock" : "")
    }
    var lines = series.removedOccurrenceDates.map { ("Removed", when($0)) }
    for detached in series.detachedOccurrences {
      let title = detached.title.flatMap { $0.isEmpty ? nil : $0 } ?? "(no title)"
      lines.append(
        (
          "Detached",
          "the occurrence of \(when(detached.occurrenceDate)) is now "
            + "\(when(detached.startDate, allDay: detached.isAllDay)): \(title) "
            + "(\(detached.calendarItemIdentifier))"
        ))
    }
    if let last = series.lastOccurrenceDate { lines.append(("Last", when(last))) }
    return lines
  }

  static func words(_ availability: EKEventAvailability) -> String {
    switch availability {
    case .busy: "busy"
    case .free: "free"
    case .tentative: "tentative"
    case .unavailable: "away"
    case .notSupported: "not supported"
    }
  }

  static func words(_ status: EKEventStatus) -> String {
    switch status {
    case .none: "none"
    case .confirmed: "confirmed"
    case .tentative: "tentative"
    case .canceled: "cancelled"
    }
  }
}

/// The item with this identifier, or else the first with it as external identifier: a
/// series itself rather than one of its detached occurrences, which share its UID.
func findItem(_ id: String, in store: EKEventStore) -> EKCalendarItem? {
  if let item = store.calendarItem(withIdentifier: id) { return item }
  let items = store.calendarItems(withExternalIdentifier: id)
  if let item = items.first(where: { !(($0 as? EKEvent)?.isDetached ?? false) }) { return item }
  // Only detached occurrences were found: the earliest.
  return items.compactMap { $0 as? EKEvent }.min { $0.occurrenceDate < $1.occurrenceDate }
}
