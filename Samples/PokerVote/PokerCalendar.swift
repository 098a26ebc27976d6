import OpenEventKit
import OpenEventKitApp
import REPLKit

/// The shared calendar the suggestions live in: the one the player chose (the kit's
/// `calendar` command), else the writable event calendar titled "Poker", else one made for
/// them in the local source. Whichever is found or made is remembered by its identifier, so a
/// renamed calendar stays the shared one.
enum PokerCalendar {
  static let title = "Poker"

  /// The kit's calendar choice over the app's own store (access checked, watched), with this
  /// app's way of finding the shared calendar.
  static func choice(
    session: AppSession, store: @escaping @Sendable () throws -> EKEventStore
  ) -> CalendarChoice {
    CalendarChoice(
      session: session, for: .event, purpose: "poker night", newItems: "Suggested times",
      store: store,
      fallback: { [console = session.console] store in
        try findOrMake(in: store, console: console)
      })
  }

  /// The calendar in use in `store`, without asking or making anything (what a snapshot
  /// reads): the chosen one, else the writable "Poker" calendar; nil when there is neither yet.
  static func current(session: AppSession, in store: EKEventStore) -> EKCalendar? {
    choice(session: session, store: { store }).chosenCalendar(in: store) ?? find(in: store)
  }

  /// The writable event calendar titled "Poker".
  static func find(in store: EKEventStore) -> EKCalendar? {
    store.calendars(for: .event).first { $0.title == title && $0.allowsContentModifications }
  }

  /// The writable "Poker" calendar; else, asked on a terminal (made at once when piped: a
  /// script has nobody to ask), a new one in the account of the default calendar (on Apple's
  /// systems with iCloud on, the local source is often not offered), else the local one.
  static func findOrMake(in store: EKEventStore, console: Console) throws -> EKCalendar {
    if let shared = find(in: store) { return shared }
    let source =
      store.defaultCalendarForNewEvents?.source
      ?? store.sources.first(where: { $0.sourceType == .local })
    guard let account = source else {
      throw REPLError("there is no \"Poker\" calendar, and no account to make one in")
    }
    if console.reader is TerminalLineReader {
      let answer = console.ask(
        "There is no \"Poker\" calendar to share the times in. Make one in \"\(account.title)\"?",
        default: "yes"
      ) { text -> Bool in
        switch text.lowercased() {
        case "y", "yes": return true
        case "n", "no": return false
        default: throw REPLError("answer yes or no")
        }
      }
      guard answer == true else {
        throw REPLError(
          "no \"Poker\" calendar; make one in your calendar app, or choose one with 'calendar'")
      }
      // Another player's app may have made it while the question waited: look again, or
      // there would be two "Poker" calendars and neither player would see the other's times.
      if let shared = find(in: store) { return shared }
    }
    let calendar = EKCalendar(for: .event, eventStore: store)
    calendar.title = title
    calendar.source = account
    try store.saveCalendar(calendar, commit: true)
    console.print("Made the calendar \"\(title)\" in \"\(account.title)\" for the suggested times.")
    return calendar
  }
}
