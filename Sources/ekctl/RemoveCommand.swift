import ArgumentParser
import Foundation
import OpenEventKit

/// `ekctl rm ID`: removes an event, one occurrence of a series or the rest of it, or a
/// reminder.
struct RemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rm",
    abstract: "Remove an event, occurrences of a repeating event, or a reminder.",
    discussion: """
      For a repeating event, --occurrence names one occurrence by its start (as `events` \
      prints it, or a plain date); --span this removes that occurrence only (the default), \
      --span future removes it and every later one. Without --occurrence the whole series \
      goes.

      Examples:
        ekctl rm 6B29FC40-CA47-1067-B31D-00DD010662DA
        ekctl rm 6B29FC40-CA47-1067-B31D-00DD010662DA --occurrence 2025-03-10T08:00:00Z
      """)

  enum SpanChoice: String, ExpressibleByArgument, CaseIterable {
    case this, future
    var span: EKSpan { self == .this ? .thisEvent : .futureEvents }
  }

  @OptionGroup var store: StoreOptions

  @Argument(help: "The event's or reminder's identifier.")
  var id: String

  @Option(help: "this or future.")
  var span: SpanChoice?

  @Option(help: "The start of the occurrence to remove.")
  var occurrence: DateArgument?

  func run() throws {
    let store = try store.open()
    guard let item = findItem(id, in: store) else {
      throw CommandError("no event or reminder with identifier \(id)")
    }
    if let reminder = item as? EKReminder {
      guard occurrence == nil, span == nil else {
        throw CommandError("--occurrence and --span are for events; \(id) is a reminder")
      }
      try failing { try store.remove(reminder, commit: true) }
      print("Removed reminder \"\(reminder.title ?? "")\".")
      return
    }
    guard let series = item as? EKEvent else { return }
    guard let occurrence else {
      // The first occurrence with .futureEvents is the whole series.
      let span = span?.span ?? .futureEvents
      try failing { try store.remove(series, span: span) }
      let what =
        !series.hasRecurrenceRules
        ? "" : span == .futureEvents ? " (every occurrence)" : " (its first occurrence)"
      print("Removed \"\(series.title ?? "")\"\(what).")
      return
    }
    let event = try find(occurrence, of: series, in: store)
    let span = span?.span ?? .thisEvent
    try failing { try store.remove(event, span: span) }
    print(
      "Removed \"\(event.title ?? "")\" of \(OccurrenceText.time(event.occurrenceDate, of: event))"
        + (span == .futureEvents ? " and every later occurrence." : "."))
  }

  /// The occurrence starting at `argument` (or on that day, for a plain date).
  private func find(_ argument: DateArgument, of series: EKEvent, in store: EKEventStore) throws
    -> EKEvent
  {
    let day: TimeInterval = 86_400
    let predicate = store.predicateForEvents(
      withStart: argument.date.addingTimeInterval(-2 * day),
      end: argument.date.addingTimeInterval(2 * day), calendars: [series.calendar])
    let candidates = store.events(matching: predicate).filter {
      $0.calendarItemExternalIdentifier == series.calendarItemExternalIdentifier
        && ($0.eventIdentifier == series.eventIdentifier || $0.isDetached)
    }
    let match = candidates.first { event in
      if argument.isDay {
        return OccurrenceText.day(event.occurrenceDate) == OccurrenceText.day(argument.date)
      }
      return event.occurrenceDate == argument.date || event.startDate == argument.date
    }
    guard let match else {
      throw CommandError(
        "\"\(series.title ?? "")\" has no occurrence at \(OccurrenceText.utc(argument.date))")
    }
    return match
  }
}
