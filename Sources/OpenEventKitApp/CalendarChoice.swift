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
/// let commands = [choice.command]  // with the app's own; `calendar`: the chooser
/// ```
public struct CalendarChoice: Sendable {
  /// The session whose store, database and console the choice uses.
  public let session: AppSession
  /// Whether the choice is of a calendar for events or of a list for reminders; each is
  /// remembered apart.
  public let entityType: EKEntityType
  /// What the chosen calendar is for, in "The calendar chosen for loans is gone".
  public let purpose: String
  /// What goes in it, in "New loans' payments will go in "Loans"."
  public let newItems: String
  /// The calendar to use, and remember, when none is chosen or the chosen one cannot take new
  /// items; nil for the store's default, not remembered.
  public let fallback: (@Sendable (EKEventStore) throws -> EKCalendar)?
  /// The app's store, access checked: the session's (``AppSession/store(for:writeOnlyIsEnough:)``)
  /// unless the app gave its own.
  private let store: @Sendable () throws -> EKEventStore

  /// A choice for `entityType`'s new items. An app whose items belong in a calendar of their
  /// own (poker-vote's shared "Poker") gives `fallback`, which finds or makes it: the
  /// calendar it returns becomes the choice, and its sentences are the app's to say.
  ///
  /// ```swift
  /// let shopping = CalendarChoice(
  ///   session: session, for: .reminder, purpose: "shopping", newItems: "New shopping items",
  ///   fallback: { store in  // a list of the app's own, made when missing
  ///     if let list = store.calendars(for: .reminder).first(where: { $0.title == "Shopping" }) {
  ///       return list
  ///     }
  ///     let list = EKCalendar(for: .reminder, eventStore: store)
  ///     list.title = "Shopping"
  ///     list.source = store.defaultCalendarForNewReminders()?.source
  ///     try store.saveCalendar(list, commit: true)
  ///     return list
  ///   })
  /// print(try shopping.calendar().title)  // Shopping, unless the person chose another list
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session.
  ///   - entityType: `.event` for a calendar, `.reminder` for a reminder list.
  ///   - purpose: What the calendar is for, in "The calendar chosen for loans is gone…".
  ///   - newItems: What goes in it, capitalized, in "New loans' payments will go in …" and
  ///     in the `calendar` command's help.
  ///   - fallback: Finds or makes the calendar to use when none is chosen or the chosen one
  ///     cannot take new items; nil (the default) for the store's default calendar.
  public init(
    session: AppSession, for entityType: EKEntityType, purpose: String, newItems: String,
    fallback: (@Sendable (EKEventStore) throws -> EKCalendar)? = nil
  ) {
    self.init(
      session: session, for: entityType, purpose: purpose, newItems: newItems,
      store: { try session.store(for: entityType) }, fallback: fallback)
  }

  /// A choice over the store `store` gives: for an app that makes its `EKEventStore` and
  /// checks access itself, as the samples do, so that choosing asks the way the app's other
  /// commands do.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// let choice = CalendarChoice(
  ///   session: session, for: .event, purpose: "loans", newItems: "New loans' payments",
  ///   store: {
  ///     guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else {
  ///       throw REPLError("This app may not use your calendar.")
  ///     }
  ///     return store
  ///   })
  /// print(choice.command.name)  // calendar
  /// ```
  ///
  /// - Parameters:
  ///   - session: The app's session, for its database and console.
  ///   - entityType: `.event` for a calendar, `.reminder` for a reminder list.
  ///   - purpose: What the calendar is for, in "The calendar chosen for loans is gone…".
  ///   - newItems: What goes in it, capitalized, in "New loans' payments will go in …".
  ///   - store: The app's store, access checked, each time the choice needs it; it throws
  ///     to fail the command.
  ///   - fallback: Finds or makes the calendar to use when none is chosen or the chosen one
  ///     cannot take new items; nil (the default) for the store's default calendar.
  public init(
    session: AppSession, for entityType: EKEntityType, purpose: String, newItems: String,
    store: @escaping @Sendable () throws -> EKEventStore,
    fallback: (@Sendable (EKEventStore) throws -> EKCalendar)? = nil
  ) {
    self.session = session
    self.entityType = entityType
    self.purpose = purpose
    self.newItems = newItems
    self.store = store
    self.fallback = fallback
  }

  /// The chosen calendar when it can still take new items, without asking, falling back or
  /// making anything: nil otherwise. What a tracker's snapshot reads, since a snapshot must
  /// not ask the person anything.
  ///
  /// ```swift
  /// let choice = CalendarChoice(
  ///   session: session, for: .event, purpose: "loans", newItems: "New loans' payments")
  /// let store = try session.store(for: .event)
  /// // In a tracker's snapshot, which must ask nothing: the chosen calendar or nothing.
  /// let calendars = choice.chosenCalendar(in: store).map { [$0] }
  /// print(calendars?.first?.title ?? "no calendar chosen")
  /// ```
  ///
  /// - Parameter store: The store to look the calendar up in.
  /// - Returns: The chosen calendar when it still exists and allows content modifications;
  ///   nil when none is chosen, it is gone or read-only, or the setting cannot be read.
  public func chosenCalendar(in store: EKEventStore) -> EKCalendar? {
    guard let chosen = try? session.database.setting(settingKey),
      let calendar = store.calendar(withIdentifier: chosen), calendar.allowsContentModifications
    else { return nil }
    return calendar
  }

  /// The setting that keeps the choice: one for events, one for reminders.
  private var settingKey: String { entityType == .reminder ? "reminder-list" : "calendar" }

  /// The calendar for new items: the chosen one when it can take them, else what `fallback`
  /// gives (remembered), else the default one (with a sentence when a chosen one was passed
  /// over), else any calendar that can, else a new calendar in the default source. Asks for
  /// access when the app has none yet.
  ///
  /// ```swift
  /// let choice = CalendarChoice(
  ///   session: session, for: .event, purpose: "loans", newItems: "New loans' payments")
  /// let store = try session.store(for: .event)
  /// let payment = EKEvent(eventStore: store)
  /// payment.calendar = try choice.calendar()  // the chosen calendar, or the default one
  /// ```
  ///
  /// - Returns: A calendar of ``entityType`` that can take new items.
  /// - Throws: REPLKit's `REPLError` when the app may not use the calendar
  ///   (`AppSession.store(for:writeOnlyIsEnough:)`) or when no calendar can take new items
  ///   and there is no source to make one in; GRDB's `DatabaseError` when the setting cannot
  ///   be read or written; OpenEventKit's `EKError` when a new calendar cannot be saved; and
  ///   whatever ``fallback`` throws.
  public func calendar() throws -> EKCalendar {
    let store = try self.store()
    if let calendar = chosenCalendar(in: store) { return calendar }
    if let fallback {
      let calendar = try fallback(store)
      try session.database.setSetting(settingKey, to: calendar.calendarIdentifier)
      return calendar
    }
    let fallback = try writableDefault(in: store)
    if try session.database.setting(settingKey) != nil {
      session.console.print(
        "The calendar chosen for \(purpose) is gone or read-only; using \"\(InertText.of(fallback.title))\"."
      )
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
  ///
  /// It takes no arguments; its help reads "Chooses the calendar for <newItems>." Add it to
  /// the app's command table: `[…, choice.command]`.
  public var command: REPLCommand {
    REPLCommand(
      "calendar", help: "Chooses the calendar for \(newItems.lowercased())."
    ) { [self] in try choose() }
  }

  /// Shows the chooser and keeps the choice.
  ///
  /// The chooser (OpenEventKitUI's `EKCalendarChooser`, one calendar among those that can
  /// take new items) starts on the current calendar (``calendar()``). A choice is kept and
  /// said ("New loans' payments will go in "Loans"."); a cancelled one leaves the setting as
  /// it was ("The calendar stays as it was.").
  ///
  /// ```swift
  /// let choice = CalendarChoice(
  ///   session: session, for: .event, purpose: "loans", newItems: "New loans' payments")
  /// try choice.choose()  // lists the calendars; "New loans' payments will go in "Loans"."
  /// ```
  ///
  /// - Throws: What ``calendar()`` throws, and GRDB's `DatabaseError` when the choice cannot
  ///   be kept.
  public func choose() throws {
    let store = try self.store()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: entityType,
      eventStore: store)
    chooser.selectedCalendars = [try calendar()]
    guard chooser.run(on: session.console), let calendar = chooser.selectedCalendars.first else {
      session.console.print("The calendar stays as it was.")
      return
    }
    try session.database.setSetting(settingKey, to: calendar.calendarIdentifier)
    session.console.print("\(newItems) will go in \"\(InertText.of(calendar.title))\".")
  }
}
