import Foundation

/// The webcal feed of Tests/Fixtures/webcal/feed-server.py on 127.0.0.1: serves the file the
/// test writes with ``serve(_:)`` at ``url``, with an ETag and Last-Modified, answering 304 to
/// a conditional request that matches; ``fail(_:)`` makes it fail in one way. Every request is
/// a line of ``requests``. It stops when the last reference goes.
public final class FeedServer: Sendable {
  /// How the feed fails (the server's `mode` file).
  public enum Failure: String, Sendable, CaseIterable {
    case notFound = "404"
    case html, huge, loop, slow
    /// Not a failure: the file served without validators, and no 304.
    case noConditional = "nocond"
  }

  /// `http://127.0.0.1:PORT/feed.ics`.
  public let url: URL
  private let process: ServerProcess
  private let folder: TemporaryFolder

  public init() throws {
    folder = try TemporaryFolder(prefix: "FeedServer")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/webcal/feed-server.py")
    let port = try LocalHTTP.freePort()
    url = URL(string: "http://127.0.0.1:\(port)/feed.ics")!
    try Data().write(to: folder.url.appendingPathComponent("feed.ics"))
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [script.path, "--port", String(port), "--root", folder.url.path], port: port,
      log: folder.url.appendingPathComponent("feed.log"))
    try process.start()
  }

  deinit { process.stop() }

  /// Serves `text` from now on (and stops failing). Its Last-Modified is a second later than
  /// the last file's, so that a change is seen by that validator too.
  public func serve(_ text: String) throws {
    let file = folder.url.appendingPathComponent("feed.ics")
    let previous =
      (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
      ?? Date()
    try Data(text.utf8).write(to: file)
    try FileManager.default.setAttributes(
      [.modificationDate: max(Date(), previous.addingTimeInterval(1))], ofItemAtPath: file.path)
    try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("mode"))
  }

  /// Fails as `failure` says from now on.
  public func fail(_ failure: Failure) throws {
    try Data(failure.rawValue.utf8).write(to: folder.url.appendingPathComponent("mode"))
  }

  /// The requests it got so far, a line each (`GET /feed.ics inm=… ims=… -> 304`).
  public var requests: [String] {
    process.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("GET ") }
  }

  /// A fixture of Tests/Fixtures/ics, as text.
  public static func fixture(_ name: String) throws -> String {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/ics/\(name)")
    return try String(contentsOf: file, encoding: .utf8)
  }
}
