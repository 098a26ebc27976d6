import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The calendar an app puts its new items in: the one the person chose, remembered by its
/// `calendarIdentifier` in the app's database (a title can change or repeat; the identifier
/// stays the calendar's), else the store's default calendar.
///
/// A chosen calendar can go away, or stop taking new items, while the app is not looking
/// (another app removed it, or made it read-only). Then the default one is used and the
/// person is told, once per command that needs it; the choice is kept, in case the calendar
/// comes back.
///
/// ```swift
/// let choice = CalendarChoice(session: session, for: .event, purpose: "loans",
///                             newItems: "New loans' payments")
/// let calendar = try choice.calendar()      // in a command that adds items
/// let commands = [choice.command, …]        // `calendar`: the chooser
/// ```
public struct CalendarChoice: Sendable {
  public let session: AppSession
  public let entityType: EKEntityType
  /// What the chosen calendar is for, in "The calendar chosen for loans is gone".
  public let purpose: String
  /// What goes in it, in "New loans' payments will go in "Loans"."
  public let newItems: String

  public init(session: AppSession, for entityType: EKEntityType, purpose: String, newItems: String)
  {
    self.session = session
    self.entityType = entityType
    self.purpose = purpose
    self.newItems = newItems
  }

  /// The setting that keeps the choice: one for events, one for reminders.
  private var settingKey: String { entityType == .reminder ? "reminder-list" : "calendar" }

  /// The calendar for new items: the chosen one when it can take them, else the default one
  /// (with a sentence when a chosen one was passed over), else any calendar that can, else a
  /// new calendar in the default source. Asks for access when the app has none yet.
  public func calendar() throws -> EKCalendar {
    let store = try session.store(for: entityType)
    let chosen = try session.database.setting(settingKey)
    if let chosen, let calendar = store.calendar(withIdentifier: chosen),
      calendar.allowsContentModifications
    {
      return calendar
    }
    let fallback = try writableDefault(in: store)
    if chosen != nil {
      session.console.print(
        "The calendar chosen for \(purpose) is gone or read-only; using \"\(fallback.title)\".")
    }
    return fallback
  }

  /// The store's default calendar for the entity type when it takes new items; else the
  /// first that does; else a calendar made for them, which the person is told of.
  private func writableDefault(in store: EKEventStore) throws -> EKCalendar {
    let preferred =
      entityType == .reminder
      ? store.defaultCalendarForNewReminders() : store.defaultCalendarForNewEvents
    if let preferred, preferred.allowsContentModifications { return preferred }
    if let writable = store.calendars(for: entityType).first(where: \.allowsContentModifications) {
      return writable
    }
    let made = EKCalendar(for: entityType, eventStore: store)
    made.title = CalendarAccess.noun(entityType).capitalized
    guard let source = preferred?.source ?? store.sources.first(where: { $0.sourceType == .local })
    else {
      throw REPLError(
        "there is no calendar that can take new \(noun), and no source to make one in")
    }
    made.source = source
    try store.saveCalendar(made, commit: true)
    session.console.print("No calendar could take new \(noun); made \"\(made.title)\".")
    return made
  }

  private var noun: String { CalendarAccess.items(entityType) }

  /// `calendar`: the chooser, over the calendars that can take new items, with the current
  /// one selected; the choice is remembered for the next runs.
  public var command: REPLCommand {
    REPLCommand(
      "calendar", help: "Chooses the calendar for \(newItems.lowercased())."
    ) { [self] _ in try choose() }
  }

  /// Shows the chooser and keeps the choice.
  public func choose() throws {
    let store = try session.store(for: entityType)
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: entityType,
      eventStore: store)
    chooser.selectedCalendars = [try calendar()]
    guard chooser.run(on: session.console), let calendar = chooser.selectedCalendars.first else {
      session.console.print("The calendar stays as it was.")
      return
    }
    try session.database.setSetting(settingKey, to: calendar.calendarIdentifier)
    session.console.print("\(newItems) will go in \"\(calendar.title)\".")
  }
}
