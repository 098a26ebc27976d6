import Foundation
import Synchronization

/// A private D-Bus session bus for one test: `dbus-daemon` on a socket in a temporary folder,
/// killed when the test ends. Its ``address`` goes in `DBUS_SESSION_BUS_ADDRESS`.
public final class SessionBus: @unchecked Sendable {
  private let folder: TemporaryFolder
  private let process = Process()
  private let launched = NSLock()
  private var isLaunched = false

  /// The bus did not start.
  public struct NotStarted: Error, CustomStringConvertible {
    public let description: String
  }

  /// The bus's address as it printed it, `unix:path=…,guid=…`.
  public let address: String

  /// Starts the bus and waits until it accepts connections.
  ///
  /// - Throws: when `dbus-daemon` is not installed (scripts/test installs it) or does not
  ///   listen within a minute.
  public init() throws {
    folder = try TemporaryFolder(prefix: "SessionBus")
    let socket = folder.url.appendingPathComponent("bus").path
    let configuration = folder.url.appendingPathComponent("session.conf")
    try Data(
      """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(socket)</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
      </busconfig>
      """.utf8
    ).write(to: configuration)
    process.executableURL = try Programs.path("dbus-daemon")
    process.arguments = ["--config-file=\(configuration.path)", "--nofork", "--print-address"]
    let printed = Pipe()
    process.standardOutput = printed
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The daemon prints its address once it listens. The socket file is there a moment before
    // (bind, then listen), and a connection then is refused: waiting for the file made the
    // tests fail now and then under load.
    let printedAddress = Self.firstLine(of: printed.fileHandleForReading, timeout: 60)
    address = printedAddress ?? ""
    launched.withLock { isLaunched = true }
    guard address.hasPrefix("unix:path=\(socket)") else {
      stop()
      throw NotStarted(
        description: "dbus-daemon did not say it listens on \(socket): '\(printedAddress ?? "")'")
    }
  }

  /// The first line `handle` gives, without its line end; nil when none comes in `timeout`
  /// seconds.
  private static func firstLine(of handle: FileHandle, timeout: TimeInterval) -> String? {
    let line = Mutex("")
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      while !line.withLock({ $0.contains("\n") }) {
        let data = handle.availableData
        if data.isEmpty { break }
        line.withLock { $0 += String(decoding: data, as: UTF8.self) }
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return line.withLock { $0 }.split(separator: "\n").first.map(String.init)
  }

  deinit { stop() }

  /// Kills the bus.
  public func stop() {
    guard launched.withLock({ isLaunched }) else { return }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
