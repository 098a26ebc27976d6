import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl events --from --to`: every occurrence overlapping the window, like a predicate.
struct EventsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "events",
    abstract: "List the occurrences of events overlapping [from, to).",
    discussion: """
      Dates are ISO 8601: with Z or an offset (2025-03-01T09:00:00Z, \
      2025-03-01T10:00:00+01:00), local (2025-03-01T09:00:00), or plain dates (2025-03-01), \
      local ones in the current time zone (TZ). With --json each occurrence is one JSON \
      object per line, in start order; timed events' start and end are in UTC with Z, all-day \
      events' are dates with the end exclusive, floating events' are local times without Z.

      Example: ekctl events --from 2025-03-01 --to 2025-04-01 --calendar Work --json
      """)

  @OptionGroup var store: StoreOptions

  @Option(help: "The start of the window.")
  var from: DateArgument

  @Option(help: "The end of the window (exclusive).")
  var to: DateArgument

  @Option(help: "Only events of the calendar with this title.")
  var calendar: String?

  @Flag(help: "Print JSON Lines.")
  var json = false

  func validate() throws {
    guard from.date < to.date else { throw ValidationError("--to must come after --from.") }
  }

  func run() throws {
    let store = try store.open()
    let chosen = try calendar.map { try calendars(titled: $0, in: store, entity: .event) }
    let predicate = store.predicateForEvents(
      withStart: from.date, end: to.date, calendars: chosen)
    // Streamed: each occurrence is printed as the store finds it, so that memory stays flat
    // over any window. Those starting together are held to print in a fixed order (end,
    // then title).
    var sameStart: [EKEvent] = []
    func printSameStart() {
      sameStart.sort { ($0.endDate, $0.title ?? "") < ($1.endDate, $1.title ?? "") }
      for event in sameStart {
        if json { print(Self.jsonLine(event)) } else { printInert(Self.textLine(event)) }
      }
      sameStart.removeAll(keepingCapacity: true)
    }
    store.enumerateEvents(matching: predicate) { event, _ in
      if let first = sameStart.first, first.startDate != event.startDate { printSameStart() }
      sameStart.append(event)
    }
    printSameStart()
  }

  static func jsonLine(_ event: EKEvent) -> String {
    var line = JSONWriter()
    line.beginObject()
    line.member("title", event.title)
    line.member("start", OccurrenceText.start(event))
    line.member("end", OccurrenceText.end(event))
    line.member("allDay", event.isAllDay)
    line.member("calendar", event.calendar?.title)
    line.member("eventIdentifier", event.eventIdentifier)
    line.member("externalIdentifier", event.calendarItemExternalIdentifier)
    line.member("occurrenceDate", event.occurrenceDate.map { OccurrenceText.time($0, of: event) })
    line.member("isDetached", event.isDetached)
    line.member("timeZone", event.timeZone?.identifier)
    line.member("location", event.location)
    line.member("hasRecurrenceRules", event.hasRecurrenceRules)
    line.endObject()
    return line.text
  }

  static func textLine(_ event: EKEvent) -> String {
    let when =
      event.isAllDay
      ? OccurrenceText.day(event.startDate) + "           all day"
      : OccurrenceText.local(event.startDate) + "–"
        + String(OccurrenceText.local(event.endDate).suffix(8))
    var line = when + "  " + (event.title ?? "")
    if let title = event.calendar?.title { line += "  [\(title)]" }
    // A detached occurrence: moved from its instance's time, or changed in place.
    if event.isDetached {
      line += event.startDate != event.occurrenceDate ? "  (moved)" : "  (changed)"
    }
    return line + "  " + (event.eventIdentifier ?? "")
  }
}
