import CalDAV
import OpenEventKit

extension SyncError {
  /// A failure of a sync in its words: the protocol's errors by what the person can do about
  /// them, the store's as they are.
  init(translating error: any Error) {
    switch error {
    case let error as SyncError:
      self = error
    case let error as CalDAVError:
      let code: Code =
        switch error {
        case .unauthorized: .unauthorized
        case .unreachable: .unreachable
        case .notFound: .notFound
        case .insecure, .untrustedCertificate, .credentialsInURL, .otherOrigin: .insecure
        case .preconditionFailed, .invalidSyncToken, .uidConflict, .unsupported, .server,
          .malformed, .answerTooLarge, .unreadableXML:
          .server
        }
      self.init(code, error.description)
    case let error as EKError:
      self.init(.store, error.localizedDescription)
    default:
      guard let failure = SyncStore.Failure(error) else {
        self.init(.store, "\(error)")
        return
      }
      // SQLite's own text names the statement (an INSERT of a whole resource): say the
      // reason, and what to do. The transaction that failed left nothing behind.
      var message = "cannot write the calendar database: \(failure.reason)"
      if failure.isDiskFull {
        message += "; free some space and sync again (nothing is lost: what was not recorded "
        message += "is fetched or sent again)"
      }
      self.init(.store, message)
    }
  }
}

extension ServerCalendar {
  /// A collection as discovery or a listing found it.
  init(_ calendar: RemoteCalendar) {
    self.init(
      href: calendar.url.href, title: calendar.displayName ?? calendar.url.lastPathComponent,
      color: calendar.color.flatMap(CalendarRecord.normalizedColor),
      components: calendar.components, isReadOnly: calendar.isReadOnly)
  }
}

extension SyncStore.ListedCalendar {
  /// A collection as a sync's listing of the calendar home found it.
  init(_ calendar: RemoteCalendar) {
    self.init(
      found: ServerCalendar(calendar), name: calendar.url.lastPathComponent,
      displayName: calendar.displayName)
  }
}
