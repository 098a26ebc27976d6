import Foundation
import OpenEventKit
import REPLKit

/// Whether a chooser picks one calendar or several (EventKitUI's names).
///
/// The cases and raw values are those of EventKitUI's `EKCalendarChooserSelectionStyle`.
///
/// ```swift
/// let chooser = EKCalendarChooser(
///   selectionStyle: .multiple, displayStyle: .allCalendars, entityType: .event,
///   eventStore: store)
/// ```
public enum EKCalendarChooserSelectionStyle: Int, Sendable {
  /// Exactly one calendar: the answer is one number or title, and an empty answer keeps the
  /// current choice only when there is one.
  case single = 0
  /// Any number of calendars: numbers or titles separated by commas, `all` or `none`.
  case multiple = 1
}

/// Which calendars a chooser offers: all of them, or only those that can take new items.
///
/// The cases and raw values are those of EventKitUI's `EKCalendarChooserDisplayStyle`.
///
/// ```swift
/// let chooser = EKCalendarChooser(
///   selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
///   eventStore: store)
/// ```
public enum EKCalendarChooserDisplayStyle: Int, Sendable {
  /// Every calendar of the entity type; read-only ones are marked `(read only)`.
  case allCalendars = 0
  /// Only the calendars whose `allowsContentModifications` is true: where new items can go.
  case writableCalendarsOnly = 1
}

/// The terminal counterpart of EventKitUI's `EKCalendarChooser`: the calendars of one entity
/// type, grouped by source and numbered, chosen by number or title.
///
/// ```
/// Calendars for events
///   Default
///     1) [x] Calendar
///     2) [ ] Work
/// Calendar (number or title) [1]:
/// ```
///
/// **Like EventKitUI's:** the class's name, its initializer
/// `init(selectionStyle:displayStyle:entityType:eventStore:)`, ``selectedCalendars`` (set it to
/// preselect, read it after), and the two style enumerations with their cases and raw values.
///
/// **Unlike EventKitUI's:** it is not a view controller presented in a window; it has no
/// delegate (`EKCalendarChooserDelegate`) and no Done or Cancel buttons
/// (`showsDoneButton`, `showsCancelButton`). ``run(on:)`` lists the calendars on a REPLKit
/// `Console`, reads the choice, and returns when the person has finished (true, where
/// EventKitUI calls `calendarChooserDidFinish`) or cancelled (false, for
/// `calendarChooserDidCancel`). The choice is made in one answer, so there is no
/// `calendarChooserSelectionDidChange`.
///
/// ```swift
/// let chooser = EKCalendarChooser(
///   selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
///   eventStore: store)
/// if let current = store.defaultCalendarForNewEvents { chooser.selectedCalendars = [current] }
/// if chooser.run(on: console), let calendar = chooser.selectedCalendars.first {
///   console.print("New events go in \"\(calendar.title)\".")
/// }
/// ```
///
/// <doc:TerminalUI> shows it in a session.
public final class EKCalendarChooser {
  /// Whether the person picks one calendar or several.
  public let selectionStyle: EKCalendarChooserSelectionStyle
  /// Whether every calendar is offered or only those that can take new items.
  public let displayStyle: EKCalendarChooserDisplayStyle
  /// Whether the calendars offered hold events or reminders (reminder lists).
  public let entityType: EKEntityType
  /// The store whose calendars are offered.
  public let eventStore: EKEventStore
  /// The calendars chosen: set it before running to preselect; read it after.
  public var selectedCalendars: Set<EKCalendar> = []

  /// A chooser of `entityType`'s calendars, with nothing selected; EventKitUI's initializer.
  ///
  /// ```swift
  /// let chooser = EKCalendarChooser(
  ///   selectionStyle: .multiple, displayStyle: .allCalendars, entityType: .reminder,
  ///   eventStore: store)
  /// print(chooser.offeredCalendars.map(\.title))  // every reminder list, by source and title
  /// print(chooser.selectedCalendars.isEmpty)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - selectionStyle: One calendar or several.
  ///   - displayStyle: All calendars, or only those that can take new items.
  ///   - entityType: Events or reminders.
  ///   - eventStore: The store whose calendars are offered.
  public init(
    selectionStyle: EKCalendarChooserSelectionStyle,
    displayStyle: EKCalendarChooserDisplayStyle, entityType: EKEntityType,
    eventStore: EKEventStore
  ) {
    self.selectionStyle = selectionStyle
    self.displayStyle = displayStyle
    self.entityType = entityType
    self.eventStore = eventStore
  }

  /// The calendars offered, in the order shown: by source, then by title.
  public var offeredCalendars: [EKCalendar] {
    eventStore.calendars(for: entityType)
      .filter { displayStyle == .allCalendars || $0.allowsContentModifications }
      .sorted {
        ($0.source?.title ?? "", $0.title.lowercased())
          < ($1.source?.title ?? "", $1.title.lowercased())
      }
  }

  /// Shows the calendars and reads the choice. Returns true when the person finished (the
  /// choice is in ``selectedCalendars``), false when they cancelled or the input ended (the
  /// selection is then as it was).
  ///
  /// The calendars are numbered under their sources' titles, the selected ones marked `[x]`;
  /// the prompt shows the numbers of the current selection, which an empty answer keeps.
  /// Answers are numbers or titles (case ignored); when several may be chosen, several
  /// separated by commas, `all` or `none`. `cancel` cancels. An answer that names no calendar is
  /// explained, with the nearest title (`did you mean 'Family'?`), and asked again. With no
  /// calendar to offer it says so and returns false at once.
  ///
  /// ```swift
  /// let chooser = EKCalendarChooser(
  ///   selectionStyle: .multiple, displayStyle: .allCalendars, entityType: .event,
  ///   eventStore: store)
  /// chooser.selectedCalendars = Set(store.calendars(for: .event))  // all shown so far
  /// if chooser.run(on: console) {  // answers such as "1, 3", "Work", "all" or "none"
  ///   console.print("Showing \(chooser.selectedCalendars.count) calendars.")
  /// }
  /// ```
  ///
  /// - Parameter console: Where the calendars are listed and the choice read.
  /// - Returns: True when the person made a choice (or kept the current one), false when
  ///   they cancelled (`cancel`, Ctrl-C), the input ended, or there was no calendar to offer.
  @discardableResult
  public func run(on console: Console) -> Bool {
    let calendars = offeredCalendars
    guard !calendars.isEmpty else {
      console.print(
        displayStyle == .writableCalendarsOnly
          ? "There is no calendar that can take new \(noun)." : "There are no calendars.")
      return false
    }
    show(calendars, on: console)
    let current = calendars.indices.filter { selectedCalendars.contains(calendars[$0]) }
    let keep = current.map { "\($0 + 1)" }.joined(separator: ",")
    let prompt =
      selectionStyle == .single
      ? "Calendar (number or title) [\(keep)]: "
      : "Calendars (numbers or titles, separated by commas; all; none) [\(keep)]: "
    while let answer = console.ask(prompt) {
      if answer.lowercased() == "cancel" { return false }
      if answer.isEmpty {
        if selectionStyle == .single && current.isEmpty {
          console.print("Please choose a calendar, or type cancel.")
          continue
        }
        return true
      }
      switch choice(answer, among: calendars) {
      case .success(let chosen):
        selectedCalendars = Set(chosen)
        return true
      case .failure(let problem):
        console.print(problem.description)
      }
    }
    return false
  }

  private var noun: String { CalendarAccess.items(entityType) }

  private func show(_ calendars: [EKCalendar], on console: Console) {
    let style = console.style
    console.print("Calendars for \(noun)")
    var source: String?
    for (index, calendar) in calendars.enumerated() {
      let title = calendar.source?.title ?? "No source"
      if title != source {
        console.print("  " + style.bold(InertText.of(title)))
        source = title
      }
      let mark = selectedCalendars.contains(calendar) ? "[x]" : "[ ]"
      let color = calendar.cgColor?.components ?? []
      let swatch =
        color.count >= 3 ? style.swatch(red: color[0], green: color[1], blue: color[2]) : ""
      let note = calendar.allowsContentModifications ? "" : style.dim(" (read only)")
      let number = index < 9 && calendars.count > 9 ? " \(index + 1)" : "\(index + 1)"
      console.print("    \(number)) \(mark) \(swatch)\(InertText.of(calendar.title))\(note)")
    }
  }

  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// The calendars an answer names: numbers or titles (case ignored) separated by commas, or
  /// `all` / `none` when several may be chosen.
  func choice(_ answer: String, among calendars: [EKCalendar]) -> Result<[EKCalendar], Problem> {
    if selectionStyle == .multiple {
      switch answer.lowercased() {
      case "all": return .success(calendars)
      case "none": return .success([])
      default: break
      }
    }
    var chosen: [EKCalendar] = []
    for part in answer.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if let number = Int(part) {
        // Compared before subtracting: `number - 1` traps on Int.min.
        guard number >= 1, number <= calendars.count else {
          return .failure(Problem(description: "There is no calendar \(number)."))
        }
        chosen.append(calendars[number - 1])
      } else if let calendar = calendars.first(where: {
        $0.title.lowercased() == part.lowercased()
      }) {
        chosen.append(calendar)
      } else {
        let suggestion = NearestName.suggestion(for: part, among: calendars.map(\.title))
        return .failure(
          Problem(
            description: "There is no calendar '\(part)'"
              + (suggestion.map { "; did you mean '\(InertText.of($0))'?" } ?? ".")))
      }
    }
    if selectionStyle == .single && chosen.count != 1 {
      return .failure(Problem(description: "Please choose one calendar."))
    }
    return .success(chosen)
  }
}
