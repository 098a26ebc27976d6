import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench mcp`: `ekctl mcp` (ekctl-mcp, built beside ekbench) answering an agent, beside
/// `ekctl events --json` for the same window in the same run. The bars of issue 47: a
/// `list_events` call over one month of a 100,000-event store in under 20 ms, and 1,000
/// sequential tool calls with no growth in the server's memory.
///
/// The client is written here, JSON-RPC lines on the server's pipes, so that what is timed is
/// the server's answer: a request written, its response line read whole.
struct MCPBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Time ekctl mcp's tool calls on a large store, and watch its memory.")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Single one-hour events in the store, spread over 30 years.")
  var singles = 100_000

  @Option(help: "Sequential tool calls while the server's memory is sampled.")
  var calls = 1_000

  @Option(help: "The folder to build the store in (default: a new temporary folder).")
  var folder: String?

  func run() throws {
    let root =
      folder.map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "ekbench-mcp-\(UUID().uuidString)")
    defer { if folder == nil { try? FileManager.default.removeItem(at: root) } }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let server = beside.appendingPathComponent("ekctl-mcp")
    let ekctl = beside.appendingPathComponent("ekctl")
    for program in [server, ekctl] where !FileManager.default.isExecutableFile(atPath: program.path)
    {
      throw ValidationError(
        "no \(program.lastPathComponent) beside ekbench: build it with "
          + "`swift build -c release --product \(program.lastPathComponent)`")
    }
    let store = root.appendingPathComponent("store")
    _ = try StoreBenchmark.fill(store, singles: singles, series: 0, alarms: false)
    try StoreBenchmark.allowAccess(in: store, for: ["org.openeventkit.mcp"])
    let database = store.appendingPathComponent("Calendar.sqlite")

    let session = try ServerSession(server, ["mcp", "--db", database.path])
    defer { session.stop() }
    _ = try session.request(
      "initialize",
      #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ekbench","version":"1"}}"#
    )
    try session.notify("notifications/initialized")

    // One month each of 100 months of 1996–2025, as `ekbench store`'s month-query.
    var times: [Double] = []
    var answered = 0
    let cpuBefore = session.cpuMillis()
    for index in 0..<100 {
      let (from, to) = Self.month(index)
      var line = ""
      times.append(
        try seconds {
          line = try session.request("tools/call", Self.listEvents(from, to))
        } * 1000)
      guard !line.contains(#""isError":true"#), !line.contains(#""error":{"#) else {
        throw ValidationError("list_events failed: \(line.prefix(300))")
      }
      // The answer is JSON text inside the response's text content: its keys come escaped.
      answered += line.components(separatedBy: #"\"eventId\":"#).count - 1
    }
    let serverCPU = (session.cpuMillis() - cpuBefore) / 100
    report(
      "mcp-list-events",
      [
        "medianMillis": StoreBenchmark.median(times),
        "p95Millis": times.sorted()[94], "eventsPerMonth": Double(answered / 100),
        "serverCPUMillis": (serverCPU * 10).rounded() / 10,
      ],
      "list_events over one month of \(singles) events, request written to answer read; 100 "
        + "months; the server's CPU time per call, user and system")

    let (from, to) = Self.month(42)
    let ekctlRuns = try StoreBenchmark.wholeProcessRuns(
      [
        ekctl.path, "events", "--json", "--db", database.path, "--from", String(from.prefix(10)),
        "--to", String(to.prefix(10)),
      ], runs: 20)
    report(
      "ekctl-events-json",
      [
        "medianMillis": StoreBenchmark.median(ekctlRuns.map(\.millis)),
        "lines": Double(ekctlRuns.last?.output.split(separator: "\n").count ?? 0),
      ],
      "whole process, `ekctl events --json` for the same kind of month (\(from.prefix(7))); median of 20"
    )

    // Sequential calls, each kind in turn, with the server's resident memory every tenth of them.
    var samples: [Int] = []
    let step = max(calls / 10, 1)
    let started = Date()
    for index in 0..<calls {
      let (from, to) = Self.month(index % 100)
      let call =
        switch index % 4 {
        case 0: Self.listEvents(from, to)
        case 1:
          #"{"name":"free_busy","arguments":{"start":"\#(from)","end":"\#(to)","minimumMinutes":60}}"#
        case 2:
          #"{"name":"search_events","arguments":{"query":"Single 4","start":"\#(from)","end":"\#(to)"}}"#
        default: #"{"name":"list_calendars","arguments":{}}"#
        }
      let line = try session.request("tools/call", call)
      guard !line.contains(#""isError":true"#) else {
        throw ValidationError("a call failed: \(line.prefix(300))")
      }
      if index % step == step - 1 { samples.append(session.residentMemory()) }
    }
    let elapsed = Date().timeIntervalSince(started)
    let first = Double(samples.first ?? 0) / 1_048_576
    let last = Double(samples.last ?? 0) / 1_048_576
    report(
      "mcp-sequential-calls",
      [
        "calls": Double(calls), "callsPerSecond": (Double(calls) / elapsed).rounded(),
        "firstMB": (first * 10).rounded() / 10, "lastMB": (last * 10).rounded() / 10,
        "maxMB": (Double(samples.max() ?? 0) / 1_048_576 * 10).rounded() / 10,
      ],
      "list_events, free_busy, search_events, list_calendars in turn; server's VmRSS at each "
        + "tenth (first after \(step) calls)")
  }

  /// The first day of the `index`th of 100 months spread over 1996–2025, and of the next, in
  /// RFC 3339 (UTC).
  static func month(_ index: Int) -> (String, String) {
    let year = 1996 + index * 30 / 100
    let month = index % 12 + 1
    let next = month == 12 ? (year + 1, 1) : (year, month + 1)
    func text(_ year: Int, _ month: Int) -> String {
      String(format: "%04d-%02d-01T00:00:00Z", year, month)
    }
    return (text(year, month), text(next.0, next.1))
  }

  static func listEvents(_ from: String, _ to: String) -> String {
    #"{"name":"list_events","arguments":{"start":"\#(from)","end":"\#(to)","limit":10000}}"#
  }

  private func report(_ name: String, _ figures: [String: Double], _ note: String) {
    printFigures(json: json, name, figures, note)
  }
}

/// A server process and JSON-RPC lines on its pipes, one request answered at a time.
final class ServerSession {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private var lineEnd: Int?
  private var nextId = 1

  init(_ program: URL, _ arguments: [String]) throws {
    process.executableURL = program
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  func notify(_ method: String) throws {
    try write(#"{"jsonrpc":"2.0","method":"\#(method)"}"#)
  }

  /// Sends a request and returns its response line (notifications before it are skipped).
  func request(_ method: String, _ params: String) throws -> String {
    let id = nextId
    nextId += 1
    try write(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    while true {
      let line = try readLine()
      if line.contains(#""id":\#(id),"#) { return line }
    }
  }

  private func write(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// The next line; the bytes come whole from the pipe, and only each new piece is searched
  /// for the line's end (a month's answer is 100 kB).
  private func readLine() throws -> String {
    while true {
      if let end = lineEnd {
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeSubrange(...end)
        lineEnd = pending.firstIndex(of: 10)
        return line
      }
      // What the pipe holds now: read(upToCount:) would wait for the whole count.
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw ValidationError("the server closed its output") }
      let start = pending.count
      pending.append(contentsOf: chunk)
      let found = chunk.withUnsafeBytes { bytes -> Int? in
        guard let base = bytes.baseAddress, let hit = memchr(base, 10, bytes.count) else {
          return nil
        }
        return base.distance(to: UnsafeRawPointer(hit))
      }
      lineEnd = found.map { start + $0 }
    }
  }

  /// The server's resident memory in bytes (`VmRSS`).
  func residentMemory() -> Int {
    let status =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8))
      ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let number = line.split(separator: " ").dropFirst().first { Int($0) != nil }
      return (number.flatMap { Int($0) } ?? 0) * 1024
    }
    return 0
  }

  /// The server's CPU time so far, user and system, in milliseconds (`/proc/PID/stat`'s
  /// utime and stime, in clock ticks): the server's own share of a call, which a loaded
  /// machine inflates far less than the wall time.
  func cpuMillis() -> Double {
    let stat =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8))
      ?? ""
    // The fields after the command's name, which is in parentheses and may hold spaces.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // utime and stime are the 14th and 15th fields; `fields` starts at the 3rd.
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
    else { return 0 }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
