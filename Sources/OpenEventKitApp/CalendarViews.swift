import ArgumentParser
import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The `agenda` and `month` commands: OpenEventKitUI's `AgendaView` and `MonthGrid` over the
/// app's own items, for a person who would rather look at their week than read a list.
///
/// `include` is asked once each time the command runs, with the store, for the test of the
/// events to show, so that what it needs (the identifiers the app recorded, say) is read once
/// per view.
///
/// ```swift
/// let commands = [
///   CalendarViews.agenda(session: session, items: "payments") { store in
///     let recorded = try Set(session.database.queue.read { db in  // the app's own records
///       try String.fetchAll(db, sql: "SELECT eventIdentifier FROM payment")
///     })
///     return { recorded.contains($0.eventIdentifier) }
///   },
///   CalendarViews.month(session: session, items: "events") { _ in { _ in true } },
/// ]
/// ```
public enum CalendarViews {
  /// `agenda [DATE]` (or another `name`, such as `week`): the seven days from DATE (today
  /// when not given) of the events `include` keeps, by day.
  ///
  /// DATE is `today`, `tomorrow` or an ISO 8601 date (or date-time), read on the console's
  /// clock. A day without events says "No <items>". The command asks for access to events
  /// when the app has none yet.
  ///
  /// ```swift
  /// let week = CalendarViews.agenda(session: session, items: "meetings", name: "week") { _ in
  ///   { event in event.title?.hasPrefix("Club:") ?? false }  // only the club's events
  /// }
  /// print(week.usage)  // week [<date>]
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session, for its store and console.
  ///   - items: What the app's events are, in the plural, for the help and the empty days:
  ///     `payments`.
  ///   - name: The command's name; `agenda` by default.
  ///   - include: Given the store each time the command runs, returns the test of the events
  ///     to show; it may throw to fail the command.
  /// - Returns: The command, for the app's table. When it runs it throws REPLKit's
  ///   `REPLError` for a DATE it cannot read or when the app may not use the calendar, and
  ///   whatever `include` throws.
  public static func agenda(
    session: AppSession, items: String, name: String = "agenda",
    include: @escaping @Sendable (EKEventStore) throws -> (EKEvent) -> Bool
  ) -> REPLCommand {
    agenda(
      session: session, items: items, name: name, store: { try session.store(for: .event) },
      include: include)
  }

  /// `agenda [DATE]` over the store `store` gives: for an app that makes its `EKEventStore`
  /// and checks access itself, as the samples do, so that the view asks the way the app's
  /// other commands do.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// let agenda = CalendarViews.agenda(
  ///   session: session, items: "events",
  ///   store: {
  ///     guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else {
  ///       throw REPLError("This app may not read your calendar.")
  ///     }
  ///     return store
  ///   },
  ///   include: { _ in { _ in true } })
  /// print(agenda.name)  // agenda
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session, for its console.
  ///   - items: What the app's events are, in the plural, for the help and the empty days.
  ///   - name: The command's name; `agenda` by default.
  ///   - store: The app's store, access checked, each time the command runs; it throws to
  ///     fail the command (when the app may not read the calendar, say).
  ///   - include: Given the store, returns the test of the events to show.
  /// - Returns: The command, for the app's table.
  public static func agenda(
    session: AppSession, items: String, name: String = "agenda",
    store: @escaping @Sendable () throws -> EKEventStore,
    include: @escaping @Sendable (EKEventStore) throws -> (EKEvent) -> Bool
  ) -> REPLCommand {
    REPLCommand(
      name, DayArgument.self,
      help: "Shows the week's \(items) from DATE (today, tomorrow or 2025-03-01; default today)."
    ) { arguments in
      let console = session.console
      let eventStore = try store()  // a refusal is said before the date is read
      let first = try arguments.date.map { try day($0, on: console) } ?? console.now
      var view = AgendaView(eventStore: eventStore)
      view.isIncluded = try include(eventStore)
      view.emptyDay = "No \(items)"
      view.show(from: first, days: 7, on: console)
    }
  }

  /// `month [YYYY-MM]`: the month (this one when not given) with the days of the events
  /// `include` keeps marked.
  ///
  /// YYYY-MM is read as the month's first day on the console's clock; under the grid, the
  /// mark reads "a day with <items>". The command asks for access to events when the app has
  /// none yet.
  ///
  /// ```swift
  /// let month = CalendarViews.month(session: session, items: "payments") { store in
  ///   let work = store.calendars(for: .event).filter { $0.title == "Loans" }
  ///   return { event in work.contains(event.calendar) }
  /// }
  /// let repl = REPL(prompt: "loans> ", commands: [month], console: session.console)
  /// exit(repl.run())  // "month 2025-03" marks the days of March 2025 with payments
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session, for its store and console.
  ///   - items: What the app's events are, in the plural, for the help and the legend.
  ///   - include: Given the store each time the command runs, returns the test of the events
  ///     that mark days; it may throw to fail the command.
  /// - Returns: The command, for the app's table. When it runs it throws REPLKit's
  ///   `REPLError` for a month it cannot read or when the app may not use the calendar, and
  ///   whatever `include` throws.
  public static func month(
    session: AppSession, items: String,
    include: @escaping @Sendable (EKEventStore) throws -> (EKEvent) -> Bool
  ) -> REPLCommand {
    month(
      session: session, items: items, store: { try session.store(for: .event) },
      include: include)
  }

  /// `month [YYYY-MM]` over the store `store` gives: for an app that makes its
  /// `EKEventStore` and checks access itself, as the samples do.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// let month = CalendarViews.month(
  ///   session: session, items: "events", store: { store }, include: { _ in { _ in true } })
  /// print(month.usage)  // month [<yyyy-mm>]
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session, for its console.
  ///   - items: What the app's events are, in the plural, for the help and the legend.
  ///   - store: The app's store, access checked, each time the command runs; it throws to
  ///     fail the command.
  ///   - include: Given the store, returns the test of the events that mark days.
  /// - Returns: The command, for the app's table.
  public static func month(
    session: AppSession, items: String,
    store: @escaping @Sendable () throws -> EKEventStore,
    include: @escaping @Sendable (EKEventStore) throws -> (EKEvent) -> Bool
  ) -> REPLCommand {
    REPLCommand(
      "month", MonthArgument.self, help: "Shows a month, with the days of \(items) marked."
    ) { arguments in
      let console = session.console
      let eventStore = try store()  // a refusal is said before the month is read
      let day = try arguments.month.map { try month($0, on: console) } ?? console.now
      var grid = MonthGrid(eventStore: eventStore)
      grid.isIncluded = try include(eventStore)
      grid.markedDays = "a day with \(items)"
      grid.show(monthOf: day, on: console)
    }
  }

  /// A day as typed: `today`, `tomorrow`, `2025-03-01` (or a date and time).
  static func day(_ text: String, on console: Console) throws -> Date {
    let dates = DateText(timeZone: console.timeZone)
    switch text.lowercased() {
    case "today": return dates.startOfDay(console.now)
    case "tomorrow": return dates.startOfDay(console.now, adding: 1)
    default:
      guard let date = DateReading.instant(text, in: console.timeZone) else {
        throw REPLError("'\(text)' is not a date; give one such as 2025-03-01, today or tomorrow")
      }
      return date
    }
  }

  /// A month as typed: `2025-03`.
  static func month(_ text: String, on console: Console) throws -> Date {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
      let month = Int(parts[1]), (1...12).contains(month),
      let date = DateReading.instant(text + "-01", in: console.timeZone)
    else { throw REPLError("'\(text)' is not a month; give one such as 2025-03") }
    return date
  }
}

/// The agenda's argument: `[<date>]`.
struct DayArgument: ParsableArguments {
  @Argument(help: "The first day: today, tomorrow or 2025-03-01; today when not given.")
  var date: String?
}

/// The month view's argument: `[<yyyy-mm>]`.
struct MonthArgument: ParsableArguments {
  @Argument(
    help: ArgumentHelp("The month, such as 2025-03; this one when not given.", valueName: "yyyy-mm")
  )
  var month: String?
}
