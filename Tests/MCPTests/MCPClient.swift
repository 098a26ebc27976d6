import Foundation
import Synchronization
import TestSupport

/// `ekctl mcp` driven by the Model Context Protocol's own Python client
/// (Tests/Fixtures/mcp/client.py, the pinned `mcp` package) as an MCP host drives it: the
/// host starts `ekctl mcp --db FILE`, which execs ekctl-mcp, and speaks on its standard input
/// and output.
struct MCPClient {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/mcp/client.py")

  /// What the client saw, and what the server and client said on standard error.
  struct Seen {
    let values: [String: Any]
    let stderr: String

    subscript(key: String) -> Any? { values[key] }

    /// A tool's answer: `isError`, `value` (a success's JSON text read, an error's structured
    /// content), `text`.
    func answer(_ key: String) -> [String: Any] { values[key] as? [String: Any] ?? [:] }

    func isError(_ key: String) -> Bool { answer(key)["isError"] as? Bool ?? false }

    func text(_ key: String) -> String { answer(key)["text"] as? String ?? "" }

    func value(_ key: String) -> [String: Any] { answer(key)["value"] as? [String: Any] ?? [:] }
  }

  struct Failed: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `scenario` against the server on `home`'s store; `other` is a command the
  /// `notice` scenario runs as another process.
  static func run(_ scenario: String, home: TemporaryHome, other: [String] = []) throws -> Seen {
    let server = [
      BuildProducts.executable("ekctl").path, "mcp", "--db", home.calendarDatabase.path,
    ]
    let arguments = [script.path, scenario] + server + (other.isEmpty ? [] : ["--"] + other)
    let run = try runProgram(
      try Python.executable(), arguments, input: nil, environment: home.environment)
    guard run.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)),
      let values = object as? [String: Any]
    else {
      throw Failed(
        description: "client.py \(scenario) exited \(run.status):\n\(run.stdout)\n\(run.stderr)")
    }
    return Seen(values: values, stderr: run.stderr)
  }
}

extension TemporaryHome {
  /// The occurrences `ekctl events --json` lists in [from, to), as dictionaries.
  func events(from: String, to: String) throws -> [[String: Any]] {
    let run = try runEkctl(
      ["events", "--from", from, "--to", to, "--json", "--db", calendarDatabase.path],
      environment: environment)
    return run.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The titles of the calendars and lists `ekctl calendars` shows.
  func calendarTitles() throws -> String {
    try runEkctl(["calendars", "--db", calendarDatabase.path], environment: environment).stdout
  }
}

/// The server spoken to in raw JSON-RPC lines, for what no client library sends: text that is
/// not JSON, params of the wrong shape. Standard input stays open until every answer came
/// (a host that hangs up is done with the server).
final class RawSession: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lines = Mutex<[String]>([])
  private let arrived = DispatchSemaphore(value: 0)

  init(home: TemporaryHome) throws {
    process.executableURL = BuildProducts.executable("ekctl")
    process.arguments = ["mcp", "--db", home.calendarDatabase.path]
    process.environment = home.environment
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let handle = output.fileHandleForReading
    Thread.detachNewThread { [self] in
      var buffer = Data()
      // What the pipe holds now (read(upToCount:) would wait for the whole count); empty at
      // its end.
      while case let chunk = handle.availableData, !chunk.isEmpty {
        buffer.append(chunk)
        while let end = buffer.firstIndex(of: 10) {
          let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
          buffer.removeSubrange(buffer.startIndex...end)
          lines.withLock { $0.append(line) }
          arrived.signal()
        }
      }
    }
  }

  func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// The answers to `count` requests (each a JSON object), waiting at most two minutes.
  func answers(_ count: Int) -> [[String: Any]] {
    let deadline = DispatchTime.now() + .seconds(120)
    while lines.withLock({ $0.count }) < count, arrived.wait(timeout: deadline) == .success {}
    return lines.withLock { $0 }.compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  func finish() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
