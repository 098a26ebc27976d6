import Foundation
import OpenEventKitUI
import REPLKit
import TestSupport
import Testing

@testable import OpenEventKit

/// A calendar store in a temporary folder that this test process may use, and consoles that
/// read scripted lines on a fixed clock in Paris, so that rendered text can be compared
/// exactly.
final class UIFixture {
  private let temporary: TemporaryFolder
  let store: EKEventStore
  static let paris = TimeZone(identifier: "Europe/Paris")!
  static let newYork = TimeZone(identifier: "America/New_York")!

  init() throws {
    temporary = try TemporaryFolder(prefix: "OpenEventKitUITests")
    let settings = try PrivacySettings(folder: temporary.url)
    for entity in [EKEntityType.event, .reminder] {
      try settings.set(.fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: entity)
    }
    store = EKEventStore(folder: temporary.url)
  }

  /// The folder of the store, removed with the fixture.
  var folder: URL { temporary.url }

  var calendar: EKCalendar { store.defaultCalendarForNewEvents! }

  /// An instant from ISO 8601 text with its offset or `Z`.
  static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  /// The instant EventKit uses for a floating reading (`2025-03-03T00:00:00`): that reading on
  /// this process's clock.
  static func floating(_ text: String) -> Date { DateReading.instant(text, in: .current)! }

  /// An unsaved event in the default calendar, in `zone`.
  func event(
    _ title: String, start: String, minutes: Int = 60, zone: TimeZone? = UIFixture.paris
  ) -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.title = title
    event.calendar = calendar
    event.timeZone = zone
    event.startDate = UIFixture.date(start)
    event.endDate = event.startDate.addingTimeInterval(TimeInterval(minutes * 60))
    return event
  }

  /// A console answering with `lines`, in Paris at `now`, whose output goes to `transcript`.
  static func console(
    _ lines: [String] = [], transcript: Transcript, now: String = "2025-03-01T10:20:00+01:00"
  ) -> Console {
    Console.scripted(lines, transcript: transcript, timeZone: paris, now: date(now))
  }
}
