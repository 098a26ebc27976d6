import Foundation

/// A real Xandikos CalDAV server (`python -m xandikos serve`, on ``Python``) on 127.0.0.1 for
/// one test: a single user's principal (`/USER/`, calendars in `/USER/calendars/`) in a
/// temporary folder, each collection a git repository, behind the tests' ``DigestProxy``.
///
/// Xandikos checks a password itself only over HTTPS (`--htpasswd` needs `--autocert`) and
/// otherwise leaves it to a proxy in front; the Digest proxy is that proxy, so a client
/// signs in as it would to a real deployment, with Digest rather than Radicale's Basic.
/// ``url`` and ``port`` are the proxy's.
public final class XandikosServer: LocalCalDAVServer, @unchecked Sendable {
  public var url: URL { proxy.url }
  public var port: Int { proxy.process.port }
  /// The user's principal path, `/USER/`.
  public let user: String
  /// Xandikos' own address, behind the proxy.
  public let upstream: URL
  /// The storage folder (`USER/calendars/CALENDAR/`, each a git repository, inside).
  public let storage: URL
  private let folder: TemporaryFolder
  private let process: ServerProcess
  private let proxy: DigestProxy

  /// Starts Xandikos for `user` (its principal and calendar home made at the start, no
  /// calendar in it) and the Digest proxy taking `password` in front; throws when Xandikos
  /// is not installed for the tests' Python (``Python``: scripts/test makes it) or does not
  /// answer.
  public init(user: String = "alice", password: String = "alice") throws {
    self.user = user
    folder = try TemporaryFolder(prefix: "Xandikos")
    storage = folder.url.appendingPathComponent("collections", isDirectory: true)
    let upstreamPort = try LocalHTTP.freePort()
    upstream = URL(string: "http://127.0.0.1:\(upstreamPort)/")!
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [
        "-m", "xandikos", "serve", "--directory", storage.path, "--listen-address", "127.0.0.1",
        "--port", String(upstreamPort), "--current-user-principal", "/\(user)/", "--autocreate",
        "--no-detect-systemd", "--state-dir", folder.url.appendingPathComponent("state").path,
      ], port: upstreamPort, log: folder.url.appendingPathComponent("xandikos.log"))
    try Self.starting(process)
    proxy = try DigestProxy(for: upstream, algorithm: "MD5", user: user, password: password)
  }

  deinit {
    proxy.process.stop()
    process.stop()
  }

  public func home(user: String) -> URL {
    url.appendingPathComponent(user, isDirectory: true)
      .appendingPathComponent("calendars", isDirectory: true)
  }

  public func start() throws {
    try Self.starting(process)
    try proxy.process.start()
  }

  /// Stops the proxy, then Xandikos.
  public func stop() {
    proxy.process.stop()
    process.stop()
  }

  public var isRunning: Bool { process.isRunning && proxy.process.isRunning }

  public var log: String { process.output + proxy.process.output }

  /// A git command of ``commit(_:to:)`` failed.
  public struct GitFailed: Error, CustomStringConvertible {
    public let description: String
  }

  /// Writes `files` (name → content) into `collection` on the server's storage and commits
  /// them with git, as an administrator restoring a backup would: Xandikos serves a
  /// collection from its git index, so a calendar of thousands of events is there at once,
  /// without a request (and a commit) for each. The next sync token names the new state.
  public func commit(_ files: [String: Data], to collection: URL) throws {
    let folder = storage.appendingPathComponent(
      collection.path(percentEncoded: false), isDirectory: true)
    for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
    let git = try Programs.path("git", package: "git")
    for arguments in [
      ["add", "--all", "."],
      [
        "-c", "user.name=Tests", "-c", "user.email=tests@127.0.0.1", "commit", "--quiet", "-m",
        "Seeded",
      ],
    ] {
      let process = Process()
      process.executableURL = git
      process.arguments = arguments
      process.currentDirectoryURL = folder
      process.standardOutput = FileHandle.nullDevice
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      let said = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw GitFailed(
          description: "git \(arguments.joined(separator: " ")) in \(folder.path): "
            + String(decoding: said, as: UTF8.self))
      }
    }
  }

  private static func starting(_ process: ServerProcess) throws {
    do {
      try process.start()
    } catch let error as ServerProcess.NotStarted
      where error.description.contains("No module named xandikos")
    {
      throw ServerProcess.NotStarted(
        description:
          "Xandikos is not installed for \((try? Python.executable().path) ?? "python3"): "
          + Python.advice)
    }
  }
}
