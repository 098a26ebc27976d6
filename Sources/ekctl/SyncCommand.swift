import ArgumentParser
import Foundation
import OpenEventKit
import REPLKit
import Synchronization

/// `ekctl sync`: brings the store and the CalDAV servers of its accounts in step, once or
/// for as long as it runs (OpenEventKit.docc/Sync.md).
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Sync your CalDAV accounts: send the changes made here, fetch the server's.",
    discussion: """
      Says what came in and went out, and each conflict: when an item changed both here and \
      on the server, changes to different fields are merged; otherwise the server's version \
      wins and yours is kept in the local calendar "Conflicts". A network or server failure \
      is said plainly and keeps every unsent change for the next sync. With --watch, syncs \
      after every change made here (by any app) and asks the server every --interval \
      seconds, until interrupted.
      """)

  @Option(help: "Sync only this account (default: every one).")
  var account: String?

  @Flag(help: "Keep syncing: after each local change, and every --interval seconds.")
  var watch = false

  @Option(help: "With --watch, how often to ask the server, in seconds.")
  var interval = 60

  @OptionGroup var store: StoreOptions

  func validate() throws {
    guard interval >= 1 else { throw ValidationError("--interval must be at least 1 second") }
  }

  func run() throws {
    let accounts = try store.accounts()
    if let account { _ = try syncFailing { try accounts.account(named: account) } }
    guard watch else {
      let failed = syncOnce(accounts)
      if failed { throw ExitCode.failure }
      return
    }
    try watchForever(accounts)
  }

  /// One sync of the chosen accounts, reported; true when one failed.
  private func syncOnce(_ accounts: CalDAVAccounts) -> Bool {
    let chosen: [CalDAVAccount]
    do {
      chosen = try syncFailing {
        try account.map { [try accounts.account(named: $0)] } ?? accounts.accounts()
      }
    } catch {
      printError("\(error)")
      return true
    }
    if chosen.isEmpty { say("No account. Add one with `ekctl account add --url URL --user USER`.") }
    var failed = false
    for account in chosen {
      // Asked here, before the sync starts, so that the question is not under a progress bar.
      let password: String? =
        accounts.keepsPassword(of: account)
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
      } catch {
        bar.finish()
        failed = true
        let message = (error as? SyncError)?.message ?? "\(error)"
        printError("\(account.name): \(message)")
      }
    }
    return failed
  }

  /// Syncs now, then after every local change and every --interval seconds.
  private func watchForever(_ accounts: CalDAVAccounts) throws -> Never {
    let store = try self.store.open()
    let wake = DispatchSemaphore(value: 0)
    let observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { _ in wake.signal() }
    say("Syncing \(account ?? "every account") (Ctrl-C to stop)")
    var nextPoll = Date()
    while true {
      if Date() >= nextPoll || pendingChanges(accounts) > 0 {
        _ = syncOnce(accounts)
        if Date() >= nextPoll { nextPoll = Date().addingTimeInterval(TimeInterval(interval)) }
      }
      // A commit by any process (ours too) wakes the loop; only unsent changes sync early.
      _ = wake.wait(timeout: .now() + max(0, nextPoll.timeIntervalSinceNow))
    }
    _ = observer
  }

  private func pendingChanges(_ accounts: CalDAVAccounts) -> Int {
    let all = (try? accounts.accounts()) ?? []
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

/// A line on standard output, written at once (`print` holds it in a buffer while piped, and
/// `sync --watch` is read as it goes), made inert but for its line breaks (`InertText`).
func say(_ text: String) {
  FileHandle.standardOutput.write(Data((InertText.keepingLineBreaks(text) + "\n").utf8))
}

/// A line on standard error, as ArgumentParser writes an error, made inert but for its line
/// breaks: a server's message is data.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("Error: \(InertText.keepingLineBreaks(message))\n".utf8))
}
