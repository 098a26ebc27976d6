import Foundation

/// What discovery finds for an account: the user's principal, their calendar home, and the
/// calendars in it.
package struct CalDAVDiscovery: Sendable {
  package let principalURL: URL
  package let homeURL: URL
  package let calendars: [RemoteCalendar]

  package init(principalURL: URL, homeURL: URL, calendars: [RemoteCalendar]) {
    self.principalURL = principalURL
    self.homeURL = homeURL
    self.calendars = calendars
  }
}

/// A calendar collection on the server (RFC 4791 §4.2) as a PROPFIND of its home lists it.
package struct RemoteCalendar: Sendable, Hashable {
  /// Absolute; `url.path` is the href the store keeps.
  package let url: URL
  package let displayName: String?
  /// As the server gives it: `#RRGGBB` or `#RRGGBBAA`.
  package let color: String?
  /// "VEVENT", "VTODO", …: all of VEVENT, VTODO and VJOURNAL when the server omits
  /// supported-calendar-component-set (RFC 4791 §5.2.3).
  package let components: Set<String>
  /// The current-user-privilege-set lacks write, write-content and all.
  package let isReadOnly: Bool

  package init(
    url: URL, displayName: String?, color: String?, components: Set<String>, isReadOnly: Bool
  ) {
    self.url = url
    self.displayName = displayName
    self.color = color
    self.components = components
    self.isReadOnly = isReadOnly
  }
}

/// What a sync-collection report (RFC 6578) says changed since a token.
package struct SyncCollectionChanges: Sendable {
  /// Members added or changed, with their ETags when the server gave them.
  package let changed: [(url: URL, etag: String?)]
  /// Members removed (404 in the report).
  package let removed: [URL]
  /// The token to give next time.
  package let token: String?
  /// The calendar data of members of ``changed``, by URL, when the report was asked for it
  /// and the server gave it (each under the ETag ``changed`` gives the member).
  package let data: [URL: Data]

  package init(
    changed: [(url: URL, etag: String?)], removed: [URL], token: String?, data: [URL: Data] = [:]
  ) {
    self.changed = changed
    self.removed = removed
    self.token = token
    self.data = data
  }
}
