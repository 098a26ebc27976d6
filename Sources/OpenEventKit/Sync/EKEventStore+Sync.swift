import Foundation
import GRDB

extension EKEventStore {
  /// How old an account's last sync must be before `refreshSourcesIfNecessary()` syncs it
  /// again: the data counts as out of date after this long.
  static let sourceRefreshAge: TimeInterval = 60

  /// `refreshSourcesIfNecessary()`'s sync: each CalDAV account that keeps its password and
  /// was not synced in the last minute is synced in the background, as Apple's store pulls
  /// from its remote sources. What the sync writes reaches this store and every other as
  /// `EKEventStoreChanged`, like any commit. An account another process is syncing is left to
  /// it; a failure is recorded on the account (`ekctl accounts` shows it) and logged
  /// (`org.openeventkit.store`, error).
  func startSourceSync() {
    let passwords = AccountPasswords(location: location)
    guard let database,
      let due = read({ db in
        try AccountRecord.fetchAll(db).filter {
          Date().timeIntervalSince1970 - ($0.lastSync ?? 0) >= EKEventStore.sourceRefreshAge
            // An account that asks for its password on the terminal is synced by hand.
            && (try? passwords.password(sourceId: $0.sourceId)) != nil
        }.map(\.name)
      }), !due.isEmpty
    else { return }
    let claimed = state.withLock { state in
      defer { state.isSyncingSources = true }
      return !state.isSyncingSources
    }
    guard claimed else { return }
    let accounts = CalDAVAccounts(database: database, location: location)
    Task.detached { [weak self] in
      for name in due {
        do {
          _ = try await accounts.sync(named: name)
        } catch let error as SyncError where error.code == .busy {
          // Another process is syncing it.
        } catch {
          EKEventStore.report(error)
        }
      }
      self?.state.withLock { $0.isSyncingSources = false }
    }
  }
}
