import Foundation

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

  /// The bus's address, `unix:path=…`.
  public let address: String

  /// Starts the bus and waits until it accepts connections.
  ///
  /// - Throws: when `dbus-daemon` is not installed (scripts/test installs it) or does not
  ///   start within ten seconds.
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
    address = "unix:path=\(socket)"
    process.executableURL = try Programs.path("dbus-daemon")
    process.arguments = ["--config-file=\(configuration.path)", "--nofork"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    launched.withLock { isLaunched = true }
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) {
      guard Date() < deadline, process.isRunning else {
        stop()
        throw NotStarted(description: "dbus-daemon did not start on \(socket)")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  deinit { stop() }

  /// Kills the bus.
  public func stop() {
    guard launched.withLock({ isLaunched }) else { return }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
