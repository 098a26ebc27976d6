import Foundation

/// A real Radicale CalDAV server (`python -m radicale`, on ``Python``) on 127.0.0.1 for one
/// test: its configuration, users (htpasswd, plain), rights and calendars in a temporary
/// folder, on a free port. It can be stopped and started again on the same port and storage,
/// as a server going away in the middle of a sync does; it stops when the last reference goes.
///
/// Rights: each user reads and writes their own calendars, except those whose name starts
/// with ``readOnlyPrefix``, which they may only read (made with ``makeCalendar(user:name:displayName:color:components:)``,
/// since the user cannot make them).
public final class RadicaleServer: @unchecked Sendable {
  /// Collections named so (`alice/readonly-…`) are read-only for their owner.
  public static let readOnlyPrefix = "readonly-"

  /// `http://127.0.0.1:PORT/`, or `https://` when the server was started with TLS.
  public let url: URL
  /// The server's self-signed certificate (PEM, for 127.0.0.1) when it speaks HTTPS: name it
  /// in `SSL_CERT_FILE` for a client to trust it.
  public let certificate: URL?
  public let port: Int
  /// The storage folder (`collection-root/USER/CALENDAR/` inside).
  public let storage: URL
  private let folder: TemporaryFolder
  private let process: ServerProcess

  /// Writes the configuration for `users` (name → password) and starts the server; with
  /// `tls`, over HTTPS with a certificate made for it by `openssl`. Throws when Radicale is
  /// not installed for the tests' Python (``Python``: scripts/test makes it) or does not
  /// answer.
  ///
  /// `reportLimit`, when given, is Radicale's most events a report's calendar data may hold
  /// (`[reporting] max_expand_occurrence`, 10,000 unless set; a report over it is refused
  /// with 400).
  public init(
    users: [String: String] = ["alice": "alice"], tls: Bool = false, reportLimit: Int? = nil
  ) throws {
    folder = try TemporaryFolder(prefix: "Radicale")
    port = try LocalHTTP.freePort()
    url = URL(string: "\(tls ? "https" : "http")://127.0.0.1:\(port)/")!
    var ssl = ""
    if tls {
      let (certificate, key) = try Self.makeCertificate(in: folder.url)
      self.certificate = certificate
      ssl = "ssl = True\ncertificate = \(certificate.path)\nkey = \(key.path)\n"
    } else {
      certificate = nil
    }
    storage = folder.url.appendingPathComponent("collections", isDirectory: true)
    let users = users.map { "\($0.key):\($0.value)\n" }.sorted().joined()
    try Data(users.utf8).write(to: folder.url.appendingPathComponent("users"))
    try Data(Self.rights.utf8).write(to: folder.url.appendingPathComponent("rights"))
    let config = """
      [server]
      hosts = 127.0.0.1:\(port)
      \(ssl)

      [auth]
      type = htpasswd
      htpasswd_filename = \(folder.url.path)/users
      htpasswd_encryption = plain
      delay = 0

      [rights]
      type = from_file
      file = \(folder.url.path)/rights

      [storage]
      filesystem_folder = \(storage.path)

      [web]
      type = none

      [reporting]
      max_expand_occurrence = \(reportLimit ?? 10_000)

      [logging]
      level = warning

      """
    let configFile = folder.url.appendingPathComponent("config")
    try Data(config.utf8).write(to: configFile)
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: ["-m", "radicale", "--config", configFile.path], port: port,
      log: folder.url.appendingPathComponent("radicale.log"), tls: tls)
    try start()
  }

  deinit { process.stop() }

  /// Starts the server (again), on the same port and storage; waits until it answers.
  public func start() throws {
    do {
      try process.start()
    } catch let error as ServerProcess.NotStarted
      where error.description.contains("No module named radicale")
    {
      throw ServerProcess.NotStarted(
        description:
          "Radicale is not installed for \((try? Python.executable().path) ?? "python3"): "
          + Python.advice)
    }
  }

  /// Stops the server (SIGTERM, then SIGKILL) and waits for it to end.
  public func stop() { process.stop() }

  /// Whether the server process runs.
  public var isRunning: Bool { process.isRunning }

  /// What the server logged, for a failure's message.
  public var log: String { process.output }

  /// The URL of a user's collection or resource: `http://127.0.0.1:PORT/USER/PATH`.
  public func url(user: String, _ path: String = "") -> URL {
    url.appendingPathComponent(user, isDirectory: true).appendingPathComponent(path)
  }

  /// Makes a calendar for `user` directly in the server's storage, as an administrator
  /// would: `name` (`readonly-…` for one the user may only read), with its name, colour
  /// (`#RRGGBB` or `#RRGGBBAA`) and components. Returns its URL (with a trailing slash).
  @discardableResult
  public func makeCalendar(
    user: String, name: String, displayName: String? = nil, color: String? = nil,
    components: [String] = ["VEVENT", "VTODO"]
  ) throws -> URL {
    let collection = storage.appendingPathComponent("collection-root", isDirectory: true)
      .appendingPathComponent(user, isDirectory: true)
      .appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
    var properties: [String: String] = [
      "tag": "VCALENDAR", "C:supported-calendar-component-set": components.joined(separator: ","),
    ]
    properties["D:displayname"] = displayName
    properties["ICAL:calendar-color"] = color
    let json = try JSONSerialization.data(withJSONObject: properties, options: [.sortedKeys])
    try json.write(to: collection.appendingPathComponent(".Radicale.props"))
    return url.appendingPathComponent(user, isDirectory: true)
      .appendingPathComponent(name, isDirectory: true)
  }

  /// A self-signed certificate for 127.0.0.1 and its key, valid for two days.
  private static func makeCertificate(in folder: URL) throws -> (certificate: URL, key: URL) {
    let certificate = folder.appendingPathComponent("certificate.pem")
    let key = folder.appendingPathComponent("key.pem")
    let process = Process()
    process.executableURL = try Programs.path("openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      "-keyout", key.path, "-out", certificate.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ServerProcess.NotStarted(description: "openssl could not make a certificate")
    }
    return (certificate, key)
  }

  /// Every signed-in user reads the root and their principal; their calendars are theirs to
  /// read and write, but for the read-only ones. The first section that matches decides.
  private static let rights = """
    [root]
    user: .+
    collection:
    permissions: R

    [principal]
    user: .+
    collection: {user}
    permissions: RW

    [readonly]
    user: .+
    collection: {user}/\(readOnlyPrefix)[^/]*
    permissions: r

    [calendars]
    user: .+
    collection: {user}/[^/]+
    permissions: rw

    """
}
