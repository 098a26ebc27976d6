import Foundation
import ICalendar

/// The .ics document a subscribed calendar's feed served, read as an import reads a file
/// (<doc:Sync#Subscribed-calendars>): its events, and what the feed says of itself. Read
/// before the refresh's transaction begins, so that the write lock is held only to write.
///
/// `package`: the sync agent (OpenEventKitSync) fetches the feed and hands the bytes here;
/// apps never see it.
package struct FeedDocument {
  /// The events, the latest version of each UID and RECURRENCE-ID. To-dos are left out: a
  /// subscribed calendar holds events.
  let events: [ImportedItem]
  /// How many events (series, single and detached) the feed holds.
  package var eventCount: Int { events.count }
  /// The feed's own name for itself (`X-WR-CALNAME`), when it gives one.
  package let name: String?
  /// How often the feed asks to be fetched, in seconds: `REFRESH-INTERVAL` (RFC 7986 §5.7),
  /// else `X-PUBLISHED-TTL` (Microsoft's, which Google and Outlook write); nil when it says
  /// neither, or says it in a form that is not a positive duration.
  package let refreshInterval: TimeInterval?

  /// Why a feed's body is not a calendar: the parser's words for it.
  package struct Unreadable: Error, CustomStringConvertible, Sendable {
    package let description: String
  }

  /// Reads the feed's bytes.
  ///
  /// - Throws: ``Unreadable`` when they are not iCalendar (an HTML page, a JSON error, a
  ///   truncated file): the line at fault and why, as `ekctl import` says it.
  package init(parsing bytes: Data) throws(Unreadable) {
    let document: ICalendarDocument
    var events: [ImportedItem] = []
    do {
      document = try ICalendarDocument(parsing: [UInt8](bytes))
      for calendar in document.calendars {
        events += try ICalendarItemReader.items(of: calendar).events
      }
    } catch {
      throw Unreadable(description: "not an iCalendar file: \(error)")
    }
    self.events = ImportWriter.latestVersions(events)
    let first = document.calendars.first
    name =
      first?.property("X-WR-CALNAME")?.textValue.trimmingCharacters(
        in: .whitespacesAndNewlines
      ).nilIfEmpty
    refreshInterval =
      Self.seconds(first?.property("REFRESH-INTERVAL")?.value)
      ?? Self.seconds(first?.property("X-PUBLISHED-TTL")?.value)
  }

  /// A positive duration's length in seconds (days and weeks taken as 24 hours and 7 days:
  /// an interval, not a civil date), or nil.
  static func seconds(_ text: String?) -> TimeInterval? {
    guard let text, let duration = try? DurationValue(parsing: text), !duration.isNegative
    else { return nil }
    let seconds =
      (duration.weeks * 7 + duration.days) * 86_400 + duration.hours * 3600
      + duration.minutes * 60 + duration.seconds
    return seconds > 0 ? TimeInterval(seconds) : nil
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
