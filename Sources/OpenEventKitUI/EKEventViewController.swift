import Foundation
import OpenEventKit
import REPLKit

/// The terminal counterpart of EventKitUI's `EKEventViewController`: an event's details as
/// text — title; when, on the viewer's clock with the event's own zone beside it when that
/// differs; the recurrence and alarms in words; calendar, location, URL, notes, attendees; and
/// whether this occurrence was detached from its series.
///
/// **Like EventKitUI's:** the class's name, and ``event``, the event shown.
///
/// **Unlike EventKitUI's:** it is not a view controller presented in a window: ``show(on:)``
/// writes the details once on a REPLKit `Console`, and ``render(style:timeZone:)`` gives them
/// as text. It is read-only, with no delegate (`EKEventViewDelegate`) and so no
/// `EKEventViewAction`, and no `allowsEditing` or `allowsCalendarPreview`: to edit the event,
/// hand it to an ``EKEventEditViewController``; invitations are not answered here.
///
/// ```swift
/// EKEventViewController(event: event).show(on: console)
/// // Dentist
/// //   When        Mon 3 Mar 2025 09:00–10:00
/// //   Alarms      15 minutes before
/// //   Calendar    Calendar (Local)
/// ```
///
/// <doc:TerminalUI> shows more events.
public final class EKEventViewController {
  /// The event shown; set another to show it with the same controller.
  public var event: EKEvent

  /// A controller showing `event`.
  ///
  /// ```swift
  /// let details = EKEventViewController(event: event)
  /// details.show(on: console)
  /// ```
  ///
  /// - Parameter event: The event to show: an event from a store, or an occurrence of a
  ///   repeating one, as `events(matching:)` gives them.
  public init(event: EKEvent) { self.event = event }

  /// Writes the event's details to the console.
  ///
  /// ```swift
  /// let start = console.now
  /// let week = store.events(
  ///   matching: store.predicateForEvents(
  ///     withStart: start, end: start.addingTimeInterval(7 * 86_400), calendars: nil))
  /// if let next = week.first { EKEventViewController(event: next).show(on: console) }
  /// ```
  ///
  /// - Parameter console: Where the details are written, in its style and on its time zone's
  ///   clock.
  public func show(on console: Console) {
    console.write(render(style: console.style, timeZone: console.timeZone))
  }

  /// The details as text, one field a line, on `timeZone`'s clock.
  ///
  /// The title comes first (`(no title)` when it has none), then a labelled line per field
  /// the event has: When, Status, Repeats, Alarms, Calendar, Location, URL, Notes, Organizer,
  /// Attendees, Detached. A field of several lines continues under its first.
  ///
  /// ```swift
  /// let text = EKEventViewController(event: event).render(style: .plain, timeZone: .current)
  /// print(text.split(separator: "\n").first ?? "")  // the title, or "(no title)"
  /// ```
  ///
  /// - Parameters:
  ///   - style: How the title and labels are decorated; `.plain` for tests and files.
  ///   - timeZone: The viewer's clock, which times are shown on; the event's own zone is
  ///     shown beside them when its offsets differ.
  /// - Returns: The details, each line ended by a newline.
  public func render(style: TerminalStyle, timeZone: TimeZone) -> String {
    let title = event.title.flatMap { $0.isEmpty ? nil : InertText.of($0) } ?? "(no title)"
    var text = style.bold(title) + "\n"
    // Each line holds data (a place, a name, a note's line): made inert here, on one line.
    func field(_ label: String, _ lines: [String], lead: String = "") {
      guard let first = lines.first else { return }
      let pad = String(repeating: " ", count: max(1, 12 - DisplayWidth.width(of: label)))
      text += "  " + style.dim(label) + pad + lead + InertText.of(first) + "\n"
      for line in lines.dropFirst() {
        text += String(repeating: " ", count: 14) + InertText.of(line) + "\n"
      }
    }
    // A rule's end is a reading on the event's clock: the process's for floating events.
    let zone = FloatingTime.isFloating(event) ? .current : event.timeZone ?? .current
    field("When", EventTimeWords.lines(for: event, viewer: timeZone))
    if event.status == .canceled || event.status == .tentative {
      field("Status", [event.status == .canceled ? "Cancelled" : "Tentative"])
    }
    field("Repeats", RecurrenceWords.describe(rulesOf: event, timeZone: zone))
    field(
      "Alarms",
      (event.alarms ?? []).map {
        // An absolute alarm is an instant: shown on the viewer's clock, like the times.
        AlarmWords.describe(
          $0, start: event.startDate, isAllDay: event.isAllDay, timeZone: timeZone)
      })
    if let calendar = event.calendar {
      let color = calendar.cgColor?.components ?? []
      let swatch =
        color.count >= 3 ? style.swatch(red: color[0], green: color[1], blue: color[2]) : ""
      let source = calendar.source.map { " (\($0.title))" } ?? ""
      field("Calendar", [calendar.title + source], lead: swatch)
    }
    field("Location", [event.location].compactMap { $0 }.filter { !$0.isEmpty })
    field("URL", [event.url?.absoluteString].compactMap { $0 })
    field(
      "Notes",
      // CR LF made one line feed first: Swift's "\r\n" is one character, not a "\n".
      InertText.keepingLineBreaks(event.notes ?? "")
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init).filter { _ in event.hasNotes })
    if let organizer = event.organizer { field("Organizer", [ParticipantWords.name(organizer)]) }
    field("Attendees", (event.attendees ?? []).map(ParticipantWords.describe))
    if event.isDetached {
      var moved = ""
      if let original = event.occurrenceDate, original != event.startDate {
        let shown =
          FloatingTime.isFloating(event)
          ? FloatingTime.onViewerClock(original, viewer: timeZone) : original
        moved = "; the series has it on \(DateText(timeZone: timeZone).dayAndTime(shown))"
      }
      field("Detached", ["This occurrence was changed on its own" + moved])
    }
    return text
  }
}
