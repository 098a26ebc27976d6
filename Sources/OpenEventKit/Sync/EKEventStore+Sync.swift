import Foundation

extension EKEventStore {
  /// `refreshSourcesIfNecessary()`'s sync: each CalDAV account that keeps its password and
  /// was not synced in the last minute (`SyncStore.dueAccounts(now:age:)`) is synced in the
  /// background, as Apple's store pulls from its remote sources. What the sync writes reaches
  /// this store and every other as `EKEventStoreChanged`, like any commit. An account another
  /// process is syncing is left to it; a failure is recorded on the account (`ekctl accounts`
  /// shows it) and logged (`org.openeventkit.store`, error).
  func startSourceSync() {
    guard let database else { return }
    let store = SyncStore(database: database, location: location)
    let due: [String]
    do {
      due = try store.dueAccounts(now: Date(), age: SyncStore.refreshAge).map(\.name)
    } catch {
      EKEventStore.report(error)
      return
    }
    guard !due.isEmpty else { return }
    let claimed = state.withLock { state in
      defer { state.isSyncingSources = true }
      return !state.isSyncingSources
    }
    guard claimed else { return }
    let accounts = CalDAVAccounts(store: store)
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
