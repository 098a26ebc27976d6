import Foundation

/// A built executable (a sample, `ekctl`) running in a temporary home with piped input, its
/// output collected as it comes, so that a test can wait for a prompt, act meanwhile (another
/// process changes the store), and go on.
public final class SampleRun: @unchecked Sendable {
  /// The text a run was waiting for and never showed.
  public struct NotShown: Error, CustomStringConvertible {
    /// The text waited for.
    public let text: String
    /// How many times it was to appear.
    public let count: Int
    /// Why the wait ended: the deadline passed or the executable ended.
    public let reason: String
    /// Everything the executable had written by then.
    public let output: String

    public var description: String {
      "never saw \(count)× \"\(text)\" (\(reason)) in:\n\(output)"
    }
  }

  private let process = Process()
  private let input = Pipe()
  private let outputPipe = Pipe()
  private let lock = NSLock()
  private var collected = Data()
  private var readToTheEnd = false
  private let ended = DispatchSemaphore(value: 0)

  /// The folder of the built executables.
  public static var products: URL { BuildProducts.directory }

  /// Starts the built `executable` (a product's name, or a program's absolute path) with
  /// `arguments` in `home`'s environment, with `environment` added; standard output and
  /// standard error both go to `output`.
  public init(
    executable: String, arguments: [String] = [], home: SampleHome,
    environment: [String: String] = [:]
  ) throws {
    // A path: a copy of a program somewhere else (without its resources, say).
    process.executableURL =
      executable.hasPrefix("/")
      ? URL(fileURLWithPath: executable) : BuildProducts.executable(executable)
    process.arguments = arguments
    process.environment = home.environment.merging(environment) { $1 }
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
      lock.withLock { readToTheEnd = true }
      ended.signal()
    }
  }

  /// The running executable's process identifier.
  public var processIdentifier: Int32 { process.processIdentifier }

  /// Everything the executable has written so far, standard output and standard error in the
  /// order they came.
  public var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

  /// Writes `lines` to the executable's standard input.
  public func send(_ lines: String) {
    input.fileHandleForWriting.write(Data(lines.utf8))
  }

  /// Waits until the output holds `text` `count` times (a prompt, say); throws ``NotShown``
  /// when the executable ends without showing it, or after `timeout` seconds.
  public func wait(for text: String, count: Int = 1, timeout: TimeInterval = 30) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var exited: Date?
    while true {
      // Taken before the output itself: the text may have come just before the end.
      let complete = lock.withLock { readToTheEnd }
      if exited == nil && !process.isRunning { exited = Date() }
      let output = self.output
      if output.components(separatedBy: text).count - 1 >= count { return }
      // The output is complete once read to its end; a second after the exit at the latest.
      let ended = complete || exited.map { Date().timeIntervalSince($0) > 1 } ?? false
      if ended || Date() >= deadline {
        throw NotShown(
          text: text, count: count, reason: ended ? "the executable ended" : "\(timeout) s passed",
          output: output)
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Sends empty lines, a quarter of a second apart, until the output holds `text` (a REPL
  /// reading a pipe tells what other apps changed before the next line it reads, not while it
  /// waits, as it does on a terminal); throws ``NotShown`` after `timeout` seconds.
  public func poke(until text: String, timeout: TimeInterval = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !output.contains(text) {
      guard process.isRunning, Date() < deadline else {
        throw NotShown(
          text: text, count: 1,
          reason: process.isRunning ? "\(timeout) s passed" : "the executable ended",
          output: output)
      }
      send("\n")
      try? wait(for: text, timeout: 0.25)
    }
  }

  /// Waits until the executable has read all the input sent so far and waits for more: one of
  /// its threads is blocked reading standard input, and the pipe to it is empty. Piped, that is
  /// how a step ends: the prompt is echoed with the line it reads, so no text shows that the last
  /// command is done. Throws ``NotShown`` when the executable ends first, or after `timeout`
  /// seconds.
  public func waitUntilInputIsRead(timeout: TimeInterval = 30) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(inputIsEmpty && readsStandardInput) {
      guard process.isRunning, Date() < deadline else {
        throw NotShown(
          text: "(waiting for input)", count: 1,
          reason: process.isRunning ? "\(timeout) s passed" : "the executable ended",
          output: output)
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Whether the input sent is all read: no bytes left in the pipe (FIONREAD works on either
  /// end of a pipe).
  private var inputIsEmpty: Bool {
    var waiting: Int32 = 0
    return ioctl(input.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &waiting) == 0
      && waiting == 0
  }

  /// Whether a thread of the executable is blocked in `read` on its standard input, from
  /// `/proc/PID/task/TID/syscall`: the system call's number, then its arguments, the first the
  /// file descriptor.
  private var readsStandardInput: Bool {
    #if arch(x86_64)
      let read = "0"
    #elseif arch(arm64)
      let read = "63"
    #else
      let read = "-"
    #endif
    let tasks = "/proc/\(process.processIdentifier)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.contains { thread in
      guard let call = try? String(contentsOfFile: "\(tasks)/\(thread)/syscall", encoding: .utf8)
      else { return false }
      let words = call.split(separator: " ")
      return words.count > 1 && words[0] == read && words[1] == "0x0"
    }
  }

  /// Stops a program that runs until interrupted (`ekctl watch`) with SIGTERM, and returns
  /// everything it wrote.
  @discardableResult
  public func stop() -> String {
    if process.isRunning { process.terminate() }
    // A program may have SIGTERM blocked: a thread of the test runner that starts it passes
    // on its signal mask. Five seconds, then SIGKILL, so that a test never hangs here.
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    waitForTheEnd()
    return output
  }

  /// Ends the input and waits for the exit; the whole output and the exit status.
  public func finish() throws -> (output: String, status: Int32) {
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    waitForTheEnd()
    return (output, process.terminationStatus)
  }

  /// Waits until the output is read to its end; again and again (`finish`, then `stop` in a
  /// `defer`) without waiting forever.
  private func waitForTheEnd() {
    ended.wait()
    ended.signal()
  }

  /// Runs the built `executable` with all of `input` and returns its output and status.
  public static func session(
    _ executable: String, _ input: String, arguments: [String] = [], home: SampleHome
  ) throws -> (output: String, status: Int32) {
    let run = try SampleRun(executable: executable, arguments: arguments, home: home)
    run.send(input)
    return try run.finish()
  }
}
