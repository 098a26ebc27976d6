import Foundation
import TestSupport

/// How much of the suite runs: `short` with every `swift test` (CI), `full` when
/// `OPENEVENTKIT_RELIABILITY=full` (scripts/reliability). Each test scales its rounds by it.
enum Scale {
  static let isFull = Latency.isFullRun

  /// `short` rounds in the short form, `full` in the full one.
  static func rounds(short: Int, full: Int) -> Int { isFull ? full : short }
}

/// What a finished process said and how it ended.
struct Finished: CustomStringConvertible {
  var status: Int32
  var output: String
  var description: String { "exit \(status):\n\(output)" }
}

/// The person the store belongs to. Tests run as root in CI, and root is allowed every
/// file: a test of modes and read-only folders runs the program as the unprivileged user
/// `nobody` instead (setpriv), after handing it the folder.
enum Person {
  static let isRoot = geteuid() == 0
  static let nobody: uid_t = 65534

  /// Hands `folder` and everything in it to the person the programs run as.
  static func own(_ folder: URL) {
    guard isRoot else { return }
    _ = chown(folder.path, nobody, gid_t(nobody))
    let items = FileManager.default.enumerator(atPath: folder.path)
    while let item = items?.nextObject() as? String {
      _ = lchown(folder.appendingPathComponent(item).path, nobody, gid_t(nobody))
    }
  }
}

/// A built executable (ekctl, a sample) started in a home, with its input already given.
final class Started {
  let process = Process()
  private let output = Pipe()

  /// Starts `executable` with `arguments` in `home`, with `input` on standard input and the
  /// umask `umask`, as the person (``Person``) when `asPerson` is set, and at most
  /// `memoryLimit` KiB of address space when given (`ulimit -v`).
  init(
    _ executable: String, _ arguments: [String] = [], home: TemporaryHome, input: String = "",
    asPerson: Bool = false, umask mask: mode_t = 0o022, memoryLimit: Int? = nil,
    environment extra: [String: String] = [:]
  ) throws {
    var environment = home.environment.merging(extra) { $1 }
    var command = [BuildProducts.executable(executable).path] + arguments
    if asPerson && Person.isRoot {
      command =
        [
          try Programs.path("setpriv", package: "util-linux").path, "--reuid=\(Person.nobody)",
          "--regid=\(Person.nobody)",
          "--clear-groups", "--",
        ] + command
      environment["HOME"] = home.url.path
    }
    // The umask is the parent's at spawn: sh sets it, then becomes the program.
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    let limit = memoryLimit.map { "ulimit -v \($0) && " } ?? ""
    process.arguments =
      ["-c", "umask \(String(mask, radix: 8)) && \(limit)exec \"$@\"", "sh"] + command
    process.environment = environment
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = stdin
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
  }

  /// Kills the program with SIGKILL after `delay` seconds, as a crash or a power-off button
  /// would stop it; true when it was still running then, false when it had ended by itself.
  func kill(after delay: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(delay)
    while process.isRunning, Date() < deadline { usleep(1_000) }
    guard process.isRunning else { return false }
    Glibc.kill(process.processIdentifier, SIGKILL)
    return true
  }

  /// Waits for the end; what it wrote (standard output and error together) and its status.
  func finish() -> Finished {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Finished(
      status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}

/// Runs the built `executable` to its end (see ``Started``).
func run(
  _ executable: String, _ arguments: [String] = [], home: TemporaryHome, input: String = "",
  asPerson: Bool = false, umask mask: mode_t = 0o022, memoryLimit: Int? = nil
) throws -> Finished {
  try Started(
    executable, arguments, home: home, input: input, asPerson: asPerson, umask: mask,
    memoryLimit: memoryLimit
  ).finish()
}

/// Starts every command (an executable, its arguments and its input) before waiting for any,
/// so that they open the store at the same moment. (Each is read after the ones before it
/// ended: what it says must fit a pipe's buffer, 64 KiB, meanwhile.)
func runAtOnce(_ commands: [(String, [String], String)], home: TemporaryHome) throws -> [Finished] {
  let started = try commands.map { try Started($0.0, $0.1, home: home, input: $0.2) }
  return started.map { $0.finish() }
}

/// The bytes of `file`, to show a file was left exactly as it was.
func bytes(_ file: URL) -> Data? { FileManager.default.contents(atPath: file.path) }

/// The permission bits of `path` (not following a link).
func mode(_ path: String) -> mode_t? {
  var status = stat()
  return lstat(path, &status) == 0 ? status.st_mode & 0o777 : nil
}
