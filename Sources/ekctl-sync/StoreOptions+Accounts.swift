import EkctlKit
import Foundation
import OpenEventKit
import OpenEventKitSync

extension StoreOptions {
  /// The CalDAV accounts of the store (a database named with --db must exist).
  func accounts() throws -> CalDAVAccounts {
    guard let database else { return try failing { try CalDAVAccounts() } }
    guard FileManager.default.fileExists(atPath: database) else {
      throw CommandError("no calendar database at \(database)")
    }
    return try failing { try CalDAVAccounts(databaseFile: URL(fileURLWithPath: database)) }
  }
}

/// Runs `body`, turning sync's and the store's errors into one clear line.
func syncFailing<T>(_ body: () throws -> T) throws -> T {
  do {
    return try failing(body)
  } catch let error as SyncError {
    throw CommandError(error.message)
  }
}

extension StoreOptions {
  /// The subscribed calendars of the store (a database named with --db must exist).
  func subscriptions() throws -> CalendarSubscriptions {
    guard let database else {
      return try failing {
        try CalendarSubscriptions(databaseFile: EKEventStore.defaultDatabaseFile)
      }
    }
    guard FileManager.default.fileExists(atPath: database) else {
      throw CommandError("no calendar database at \(database)")
    }
    return try failing {
      try CalendarSubscriptions(databaseFile: URL(fileURLWithPath: database))
    }
  }
}
