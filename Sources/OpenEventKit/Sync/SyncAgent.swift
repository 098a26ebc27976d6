import Foundation
import Synchronization

/// How a store asks for a sync: as Apple's framework asks its daemon, the store itself never
/// talks to a server. The sync agent is `ekctl sync --watch` running for the database, which
/// holds `Accounts/agent.lock` (``SyncAgentLock``) and is woken with `SIGUSR1`; when none
/// runs, `ekctl-sync sync --due` is started to sync the accounts that are due once
/// (``SyncAgentProgram``). <doc:Sync#The-sync-agent> says it for the person.
enum SyncAgent {
  /// What a request came to.
  enum Request: Equatable {
    /// No account is due (none, none keeping its password, or all synced in the last
    /// minute): nobody is asked.
    case nothingDue
    /// This store asked less than a minute ago; that request stands.
    case tooSoon
    /// The running agent was signalled: the one with this pid, or one just starting (pid
    /// nil), whose first sync is ahead.
    case signalled(pid_t?)
    /// No agent runs: a one-shot `ekctl-sync` with this pid was started.
    case started(pid_t)
    /// No agent runs, and none could be started: the notice logged, which says why.
    case noAgent(String)
  }

  /// Wakes the agent of `databaseFile`, or starts a one-shot one.
  static func ask(databaseFile: URL, environment: [String: String]) -> Request {
    switch SyncAgentLock.holder(databaseFile: databaseFile) {
    case .starting: return .signalled(nil)
    case .running(let pid):
      // Unless it ended between the lock's test and the signal: then one is started.
      if kill(pid, SIGUSR1) == 0 { return .signalled(pid) }
    case .nobody: break
    }
    guard let program = SyncAgentProgram.find(environment: environment) else {
      let reason =
        environment[SyncAgentProgram.variable].map {
          "\(SyncAgentProgram.variable) names \($0), which is not a program"
        }
        ?? "\(SyncAgentProgram.name) is neither beside this program nor beside ekctl on PATH"
      return noAgent(reason)
    }
    switch SyncAgentProgram.start(program, databaseFile: databaseFile) {
    case .success(let pid): return .started(pid)
    case .failure(let failure): return noAgent(failure.message)
    }
  }

  /// Whether this process has said that no agent runs: said once, not at every refresh.
  private static let noticed = Atomic<Bool>(false)

  /// Logs, once in the process, that nothing syncs and what to run (`org.openeventkit.sync`,
  /// notice): the store still reads what other processes commit.
  private static func noAgent(_ reason: String) -> Request {
    let message =
      "no sync agent (\(reason)): CalDAV accounts are not synced in the background; run "
      + "`ekctl sync --watch` (or `systemctl --user enable --now openeventkit-sync`)"
    if !noticed.exchange(true, ordering: .relaxed) { Log.sync.notice("\(message)") }
    return .noAgent(message)
  }
}
