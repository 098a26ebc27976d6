import Foundation

/// `--exec`'s commands, at most `jobs` at a time: a thousand alarms due together must not
/// start a thousand shells (issue 42). The rest wait in order, and one that starts late says
/// by how much on standard error. Nothing waits for a command in the agent's loop: a slow
/// command holds no alarm back from standard output.
final class ExecRunner: @unchecked Sendable {
  /// How many commands run at once by default: enough that a slow command does not hold the
  /// next alarm back, few enough for a small machine.
  static let defaultJobs = 4

  let command: String
  let jobs: Int
  private let lock = NSLock()
  private var running = 0
  private var waiting: [(input: String, since: ContinuousClock.Instant)] = []

  init(command: String, jobs: Int) {
    self.command = command
    self.jobs = jobs
  }

  /// Runs the command with `input` on its standard input now, or once a running one ends.
  func submit(_ input: String) {
    let now = ContinuousClock.now
    let startNow = lock.withLock {
      guard running < jobs else {
        waiting.append((input, now))
        return false
      }
      running += 1
      return true
    }
    if startNow { start(input, waited: .zero) }
  }

  /// A command ended: the next one waiting starts.
  private func ended() {
    let next: (input: String, since: ContinuousClock.Instant)? = lock.withLock {
      guard !waiting.isEmpty else {
        running -= 1
        return nil
      }
      return waiting.removeFirst()
    }
    if let next { start(next.input, waited: ContinuousClock.now - next.since) }
  }

  private func start(_ input: String, waited: Duration) {
    if waited >= .seconds(1) {
      let seconds =
        Double(waited.components.seconds)
        + Double(waited.components.attoseconds) / 1e18
      say(
        "ekctl: --exec ran an alarm \(String(format: "%.1f", seconds)) s late: \(jobs) "
          + "commands were running (--exec-jobs)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let pipe = Pipe()
    process.standardInput = pipe
    process.terminationHandler = { [self] process in
      if process.terminationStatus != 0 {
        say("ekctl: --exec '\(command)' exited with \(process.terminationStatus)")
      }
      ended()
    }
    do {
      try process.run()
      pipe.fileHandleForWriting.write(Data(input.utf8))
      try pipe.fileHandleForWriting.close()
    } catch {
      say("ekctl: cannot run --exec '\(command)': \(error)")
      ended()
    }
  }

  private func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
