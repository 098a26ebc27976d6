import CalDAV
import Foundation
import OpenEventKit

extension AccountSync {
  /// Step 1: the server's collections against the calendars here, recorded in one
  /// transaction (`SyncStore.followServerCalendars`).
  mutating func refreshCalendars() async throws {
    // Collections of journals alone have nothing an EventKit calendar holds.
    let remote = try await client.calendars(home: home).filter {
      !$0.components.isDisjoint(with: ["VEVENT", "VTODO"])
    }
    let changes = try store.followServerCalendars(
      remote.map(SyncStore.ListedCalendar.init), sourceId: account.sourceId)
    report.calendarChanges += changes.map { change in
      switch change {
      case .added(let name): "added \(name)"
      case .removed(let title): "removed \(title)"
      }
    }
  }
}
