import Foundation

extension EKEventStore {
  /// `refreshSourcesIfNecessary()`'s request for a sync: when a CalDAV account keeps its
  /// password and was not synced in the last minute (`SyncStore.dueAccounts(now:age:)`), or a
  /// subscribed calendar is due (`SyncStore.hasDueSubscriptions(now:)`), the sync agent is
  /// asked to sync or refresh it (``SyncAgent``), at most once a minute by this store. No network here: the agent syncs in its own process, and what it writes reaches
  /// this store and every other as `EKEventStoreChanged`, like any commit. A failure is
  /// recorded on the account (`ekctl accounts` shows it) and logged by the agent.
  @discardableResult
  func askSyncAgent(now: Date = Date()) -> SyncAgent.Request {
    guard let database else { return .nothingDue }
    let store = SyncStore(database: database, location: location)
    do {
      guard
        try !store.dueAccounts(now: now, age: SyncStore.refreshAge).isEmpty
          || store.hasDueSubscriptions(now: now)
      else {
        return .nothingDue
      }
    } catch {
      EKEventStore.report(error)
      return .nothingDue
    }
    let claimed = state.withLock { state in
      if let last = state.lastAgentRequest, now.timeIntervalSince(last) < SyncStore.refreshAge {
        return false
      }
      state.lastAgentRequest = now
      return true
    }
    guard claimed else { return .tooSoon }
    return SyncAgent.ask(
      databaseFile: location.calendarDatabase, environment: StoreLocation.environment)
  }
}
