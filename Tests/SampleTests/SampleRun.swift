import Foundation
import GRDB
import OpenEventKit
import Testing

/// A temporary `OPENEVENTKIT_HOME` for one test: the shared calendar store, the privacy
/// decisions and each sample's own database, removed afterwards.
final class SampleHome: @unchecked Sendable {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("SampleTests-\(UUID().uuidString)", isDirectory: true)

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The samples run in Paris; the store keeps all-day events on the wall clock, so the test
  /// process reads the same days on its own clock.
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OPENEVENTKIT_HOME"] = url.path
    environment["XDG_STATE_HOME"] = url.appendingPathComponent("state").path
    environment["TZ"] = "Europe/Paris"
    environment["NO_COLOR"] = "1"
    return environment
  }

  var calendarDatabase: URL { url.appendingPathComponent("Calendar.sqlite") }

  /// The calendar store, opened as its owner (the test is not one of the apps).
  func store() throws -> EKEventStore { try EKEventStore(ownerOf: calendarDatabase) }

  /// A sample's own database, read-only.
  func database(app: String, file: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(
      path: url.appendingPathComponent(app).appendingPathComponent(file).path,
      configuration: configuration)
  }

  /// Runs `ekctl` on this home's store.
  @discardableResult
  func ekctl(_ arguments: [String]) throws -> (output: String, status: Int32) {
    let run = try SampleRun(executable: "ekctl", arguments: arguments, home: self)
    return try run.finish()
  }
}

/// A sample (or ekctl) running with piped input, its output collected as it comes, so that a
/// test can wait for a prompt, act meanwhile (another process changes the store), and go on.
final class SampleRun: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let outputPipe = Pipe()
  private let lock = NSLock()
  private var collected = Data()
  private let ended = DispatchSemaphore(value: 0)

  static var products: URL {
    let bundle = Bundle.main.bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
  }

  init(executable: String, arguments: [String] = [], home: SampleHome) throws {
    process.executableURL = Self.products.appendingPathComponent(executable)
    process.arguments = arguments
    process.environment = home.environment
    process.standardOutput = outputPipe
    process.standardError = outputPipe
    process.standardInput = input
    try process.run()
    // One thread reads the output until the end, so that nothing is read out of order.
    let reading = outputPipe.fileHandleForReading
    Thread.detachNewThread { [self] in
      while true {
        let data = reading.availableData
        if data.isEmpty { break }
        lock.withLock { collected.append(data) }
      }
      ended.signal()
    }
  }

  var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

  func send(_ lines: String) {
    input.fileHandleForWriting.write(Data(lines.utf8))
  }

  /// Waits until the output holds `text` `count` times (a prompt, say); fails after 30 s.
  func wait(for text: String, count: Int = 1) throws {
    let deadline = Date().addingTimeInterval(30)
    while output.components(separatedBy: text).count - 1 < count {
      guard Date() < deadline, process.isRunning else {
        Issue.record("never saw \(count)× \"\(text)\" in:\n\(output)")
        throw CancellationError()
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Ends the input and waits for the exit; the whole output and the exit status.
  func finish() throws -> (output: String, status: Int32) {
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    ended.wait()
    return (output, process.terminationStatus)
  }

  /// Runs `executable` with all of `input` and returns its output and status.
  static func session(
    _ executable: String, _ input: String, arguments: [String] = [], home: SampleHome
  ) throws -> (output: String, status: Int32) {
    let run = try SampleRun(executable: executable, arguments: arguments, home: home)
    run.send(input)
    return try run.finish()
  }
}
