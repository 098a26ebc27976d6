import ArgumentParser
import EkctlKit
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
      prints it, its original start if it was moved, or a plain date); --span this removes \
      that occurrence only (the default), --span future removes it and every later one. \
      Without --occurrence the whole series goes. The identifier of a detached occurrence \
      (one changed apart from its series, as `events` prints it) names that occurrence: \
      --span this removes it (the default), --span future removes it and every later one.

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
      if let calendar = store.calendar(withIdentifier: id) {
        throw CommandError(
          "\(id) is the calendar \"\(calendar.title)\", not an event or reminder; "
            + "`ekctl calendars rm \(id)` removes a calendar")
      }
      throw CommandError("no event or reminder with identifier \(id)")
    }
    if let reminder = item as? EKReminder {
      guard occurrence == nil, span == nil else {
        throw CommandError("--occurrence and --span are for events; \(id) is a reminder")
      }
      try failing { try store.remove(reminder, commit: true) }
      printInert("Removed reminder \"\(reminder.title ?? "")\".")
      return
    }
    guard let event = item as? EKEvent else { return }
    // The identifier of a detached occurrence names that occurrence. Any other names the
    // event or series, through its first occurrence (which may be a detached one).
    let namesOccurrence = event.isDetached && event.calendarItemIdentifier == id
    guard occurrence != nil || namesOccurrence else {
      // The first occurrence with .futureEvents is the whole series.
      let span = span?.span ?? .futureEvents
      try failing { try store.remove(event, span: span) }
      let repeats = event.hasRecurrenceRules || event.isDetached
      let what =
        !repeats ? "" : span == .futureEvents ? " (every occurrence)" : " (its first occurrence)"
      printInert("Removed \"\(event.title ?? "")\"\(what).")
      return
    }
    let chosen = try occurrence.map { try find($0, of: event, in: store) } ?? event
    let span = span?.span ?? .thisEvent
    try failing { try store.remove(chosen, span: span) }
    let when = OccurrenceText.time(chosen.occurrenceDate, of: chosen)
    guard span == .futureEvents else {
      printInert("Removed \"\(chosen.title ?? "")\" of \(when).")
      return
    }
    // From a later occurrence on, the series itself is cut: say so, since a detached
    // occurrence's own identifier can look like it names that occurrence alone.
    let uid: String = chosen.calendarItemExternalIdentifier
    let left = store.calendarItems(withExternalIdentifier: uid).contains {
      $0.calendar.calendarIdentifier == chosen.calendar.calendarIdentifier
    }
    printInert(
      "Removed \"\(chosen.title ?? "")\" of \(when) and every later occurrence: "
        + (left ? "the series now ends before it." : "that was the whole series."))
  }

  /// The occurrence of `event`'s series whose instance starts at `argument` (or on that day,
  /// for a plain date), or else the one that starts there now: a detached occurrence is found
  /// by its original start wherever it was moved, and by where it is.
  private func find(_ argument: DateArgument, of event: EKEvent, in store: EKEventStore) throws
    -> EKEvent
  {
    let uid: String = event.calendarItemExternalIdentifier
    let calendar = event.calendar.calendarIdentifier
    func isOfSeries(_ candidate: EKEvent) -> Bool {
      candidate.calendarItemExternalIdentifier == uid
        && candidate.calendar.calendarIdentifier == calendar
        && (candidate.hasRecurrenceRules || candidate.isDetached)
    }
    let day: TimeInterval = 86_400
    let predicate = store.predicateForEvents(
      withStart: argument.date.addingTimeInterval(-2 * day),
      end: argument.date.addingTimeInterval(2 * day), calendars: [event.calendar])
    let nearby = store.events(matching: predicate).filter(isOfSeries)
    let detached = store.calendarItems(withExternalIdentifier: uid).compactMap { $0 as? EKEvent }
      .filter { $0.isDetached && isOfSeries($0) }
    let candidates = nearby + detached
    func isAt(_ date: Date) -> Bool {
      argument.isDay
        ? OccurrenceText.day(date) == OccurrenceText.day(argument.date) : date == argument.date
    }
    guard
      let match = candidates.first(where: { isAt($0.occurrenceDate) })
        ?? candidates.first(where: { isAt($0.startDate) })
    else {
      throw CommandError(
        "\"\(event.title ?? "")\" has no occurrence at \(OccurrenceText.utc(argument.date))")
    }
    return match
  }
}
