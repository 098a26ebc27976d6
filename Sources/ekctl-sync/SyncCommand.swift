import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import OpenEventKitSync
import REPLKit
import Synchronization

/// `ekctl sync`: brings the store and the CalDAV servers of its accounts in step, once or
/// for as long as it runs (OpenEventKit.docc/Sync.md).
struct SyncCommand: ParsableCommand {
  static let configuration = SyncOptions.configuration

  @OptionGroup var options: SyncOptions

  func run() throws {
    let accounts = try options.store.accounts()
    if let account = options.account {
      _ = try syncFailing { try accounts.account(named: account) }
    }
    // Subscribed calendars are refreshed with every account's sync, not one account's.
    let subscriptions = options.account == nil ? try options.store.subscriptions() : nil
    guard options.watch else {
      var failed = syncOnce(
        accounts, onlyDue: options.due,
        quietWithoutAccounts: !((try? subscriptions?.subscriptions().isEmpty) ?? true))
      // By hand, every feed is asked (a feed that has not changed answers 304); the agent's
      // one-shot run asks only those due.
      if let subscriptions {
        failed = Self.refreshSubscriptions(subscriptions, all: !options.due) || failed
      }
      if failed { throw ExitCode.failure }
      return
    }
    try watchForever(accounts, subscriptions: subscriptions)
  }

  /// One sync of the chosen accounts, reported; true when one failed. `onlyDue`: the
  /// accounts a store asks for (keeping their password, not synced in the last minute),
  /// with nothing asked and an account another sync holds left to it.
  private func syncOnce(
    _ accounts: CalDAVAccounts, onlyDue: Bool = false, quietWithoutAccounts: Bool = false
  ) -> Bool {
    let chosen: [CalDAVAccount]
    do {
      chosen = try syncFailing {
        if onlyDue { return try accounts.dueAccounts() }
        return try options.account.map { [try accounts.account(named: $0)] }
          ?? accounts.accounts()
      }
    } catch {
      printError("\(error)")
      return true
    }
    if chosen.isEmpty && !onlyDue && !quietWithoutAccounts {
      say("No account. Add one with `ekctl account add --url URL --user USER`.")
    }
    var failed = false
    for account in chosen {
      // Asked here, before the sync starts, so that the question is not under a progress bar.
      let password: String? =
        onlyDue || accounts.keepsPassword(of: account)
        ? nil : TerminalPassword.ask("Password for \(account.user) at \(account.name): ")
      let bar = ProgressBar(label: account.name)
      let name = account.name
      do {
        let reports = try blocking {
          try await accounts.sync(
            named: name, password: { _ in password },
            progress: { _, done, total in
              bar.update(fraction: total == 0 ? 1 : Double(done) / Double(total), phase: "fetching")
            })
        }
        bar.finish()
        for report in reports { say(Self.describe(report)) }
      } catch let error as SyncError where onlyDue && error.code == .busy {
        // Another process is syncing it, and sends and fetches everything this one would.
        bar.finish()
      } catch {
        bar.finish()
        failed = true
        let message = (error as? SyncError)?.message ?? "\(error)"
        printError("\(account.name): \(message)")
      }
    }
    return failed
  }

  /// Syncs now, then after every local change and every --interval seconds, and at once
  /// when SIGUSR1 comes. Without --account it is the store's sync agent: it holds
  /// `Accounts/agent.lock`, so that a store's `refreshSourcesIfNecessary()` signals it rather
  /// than start a sync of its own (OpenEventKit.docc/Sync.md, "The sync agent"); while
  /// another agent holds the lock, it syncs all the same and tries the lock again each time
  /// round.
  private func watchForever(_ accounts: CalDAVAccounts, subscriptions: CalendarSubscriptions?)
    throws -> Never
  {
    let store = try options.store.open()
    let wake = DispatchSemaphore(value: 0)
    let observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { _ in wake.signal() }
    // Before the lock is taken: a store signals as soon as it sees it held.
    let requests = SyncRequests()
    let wakeSignal = handlingWakeSignal {
      requests.arrive()
      wake.signal()
    }
    let isAgent = options.account == nil
    var lock = try isAgent ? takeAgentLock(store.databaseFile) : nil
    say("Syncing \(options.account ?? "every account") (Ctrl-C to stop)")
    var nextPoll = Date()
    while true {
      if isAgent && lock == nil { lock = try? takeAgentLock(store.databaseFile) }
      let asked = requests.take()
      if Date() >= nextPoll || pendingChanges(accounts) > 0 {
        _ = syncOnce(accounts)
        if Date() >= nextPoll {
          nextPoll = Date().addingTimeInterval(TimeInterval(options.interval))
        }
      } else if asked {
        // An app's refreshSourcesIfNecessary(): the accounts synced in the last minute are
        // up to date enough.
        _ = syncOnce(accounts, onlyDue: true)
      }
      // Each subscribed calendar on its own interval (OpenEventKit.docc/Sync.md,
      // "Subscribed calendars").
      var wakeAt = nextPoll
      if let subscriptions {
        _ = Self.refreshSubscriptions(subscriptions, all: false)
        // A feed still due now is being refreshed by another process: look again in a
        // second rather than spin.
        if let due = subscriptions.nextDue() {
          wakeAt = min(wakeAt, max(due, Date().addingTimeInterval(1)))
        }
      }
      // A commit by any process (ours too) wakes the loop; only unsent changes sync early.
      _ = wake.wait(timeout: .now() + max(0, wakeAt.timeIntervalSinceNow))
    }
    _ = (observer, wakeSignal, lock)
  }

  /// The agent's lock of the store (`Accounts/agent.lock`), or nil while another agent holds
  /// it.
  private func takeAgentLock(_ databaseFile: URL) throws -> SyncAgentLock? {
    do {
      return try SyncAgentLock.take(databaseFile: databaseFile)
    } catch {
      throw CommandError(error.message)
    }
  }

  private func pendingChanges(_ accounts: CalDAVAccounts) -> Int {
    let all = (try? accounts.accounts()) ?? []
    let account = options.account
    return all.filter { account == nil || $0.name.lowercased() == account?.lowercased() }
      .map(\.pendingChanges).reduce(0, +)
  }

  /// One line for a sync, and a line for each conflict.
  static func describe(_ report: SyncReport) -> String {
    var parts: [String] = []
    if report.received > 0 { parts.append("\(report.received) in") }
    if report.receivedRemovals > 0 { parts.append("\(report.receivedRemovals) removed here") }
    if report.sent > 0 { parts.append("\(report.sent) out") }
    if report.sentRemovals > 0 { parts.append("\(report.sentRemovals) removed on the server") }
    var lines = [
      "\(report.account): " + (parts.isEmpty ? "up to date" : parts.joined(separator: ", "))
    ]
    lines += report.calendarChanges.map { "  calendar \($0)" }
    for conflict in report.conflicts {
      switch conflict.resolution {
      case .merged:
        lines.append(
          "  conflict: \"\(conflict.title)\" in \(conflict.calendarTitle) changed on both sides; merged"
        )
      case .serverWon(let copy):
        let kept =
          copy.map { "your version is kept in \"Conflicts\" (\($0))" }
          ?? "nothing of yours was lost"
        let what =
          conflict.properties.isEmpty ? "" : " (\(conflict.properties.joined(separator: ", ")))"
        lines.append(
          "  conflict: \"\(conflict.title)\" in \(conflict.calendarTitle)\(what): the server's version won; \(kept)"
        )
      }
    }
    lines += report.unreadable.map { "  unreadable on the server, left as it was: \($0)" }
    // Each line on its own: a title's line feed cannot forge a line of the report.
    return lines.map(InertText.of).joined(separator: "\n")
  }
}

/// The SIGUSR1s that came since the loop last looked: a store asking for a sync.
private final class SyncRequests: Sendable {
  private let pending = Atomic<Bool>(false)

  func arrive() { pending.store(true, ordering: .releasing) }

  /// Whether one came, and forgets it.
  func take() -> Bool { pending.exchange(false, ordering: .acquiringAndReleasing) }
}
