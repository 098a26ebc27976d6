import Foundation

/// The CalDAV server of Tests/Fixtures/caldav/crafted-server.py on 127.0.0.1, answering as a
/// test shapes it: alice's calendar `/dav/alice/big/` of generated events, a DAV:limit
/// honoured, ignored or refused, a resource of several UIDs, a multiget failing once. Every
/// request it gets is a line of ``requests`` (`SYNC token=- limit=1000 -> 1000 of 2500, 507`,
/// `MULTIGET 100`…). It stops when the last reference goes.
public final class CraftedServer: Sendable {
  /// How the server answers a sync-collection report's DAV:limit (RFC 6578 §3.7).
  public enum Limit: String, Sendable {
    /// Pages of at most the limit, truncated with 507 on the collection.
    case honour
    /// Every change at once, as Radicale does.
    case ignore
    /// 507 number-of-matches-within-limits to any limit; every change without one.
    case refuse
    /// No sync-collection report at all (501).
    case none
    /// The first page of the limit, truncated, again and again whatever the token.
    case loop
  }

  /// `http://127.0.0.1:PORT/dav/`, the account's URL.
  public let url: URL
  /// The calendar collection, `…/dav/alice/big/`.
  public let calendar: URL
  private let process: ServerProcess
  private let folder: TemporaryFolder

  /// Starts the server with `events` events; `multiUID` adds `many.ics`, one resource of that
  /// many events of different UIDs; `failMultiget` answers 503 to that multiget (from 1), once;
  /// `syncData` gives each member's calendar data in a sync report that asks for it (404 for
  /// it otherwise, as Xandikos answers).
  public init(
    events: Int, limit: Limit = .honour, multiUID: Int = 0, failMultiget: Int = 0,
    syncData: Bool = false
  ) throws {
    folder = try TemporaryFolder(prefix: "CraftedServer")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/crafted-server.py")
    let port = try LocalHTTP.freePort()
    url = URL(string: "http://127.0.0.1:\(port)/dav/")!
    calendar = URL(string: "http://127.0.0.1:\(port)/dav/alice/big/")!
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [
        script.path, "--port", String(port), "--events", String(events),
        "--limit", limit.rawValue, "--multi-uid", String(multiUID),
        "--fail-multiget", String(failMultiget),
      ] + (syncData ? ["--sync-data"] : []), port: port,
      log: folder.url.appendingPathComponent("crafted.log"))
    try process.start()
  }

  deinit { process.stop() }

  /// The requests it got so far, a line each.
  public var requests: [String] {
    process.output.split(separator: "\n").map(String.init)
  }
}
