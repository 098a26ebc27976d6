import Foundation

/// The desktop's notification service on a test's private bus: Tests/Fixtures/dbus/
/// notification-server.py, written with python's dbus-next, so that the D-Bus client under
/// test meets another implementation of the protocol rather than itself. The calls it gets
/// come back as the service read them; the test makes it send its signals.
public final class NotificationService: Sendable {
  /// One call the service got: its member and its arguments as JSON values (a variant as
  /// `["signature": "y", "value": 1]`).
  public struct Call: @unchecked Sendable {
    public let member: String
    public let arguments: [Any]
  }

  private let home: TemporaryHome
  private let run: SampleRun
  /// The service's unique name on the bus.
  public let uniqueName: String

  /// Starts the service on `bus` and waits until it owns `org.freedesktop.Notifications`.
  ///
  /// - Parameter silent: Whether it takes every call and never answers.
  /// - Throws: ``SampleRun/NotShown`` with its output when it does not start (dbus-next
  ///   missing: scripts/test installs it in the pinned environment, `Python`).
  public init(bus: SessionBus, silent: Bool = false) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/dbus/notification-server.py")
    home = try TemporaryHome()
    run = try SampleRun(
      executable: try Python.executable().path,
      arguments: [script.path, "--address", bus.address] + (silent ? ["--silent"] : []),
      home: home)
    try run.wait(for: "ready ", timeout: 60)
    let ready = run.output.split(separator: "\n").first { $0.hasPrefix("ready ") }
    uniqueName = String(ready?.dropFirst(6) ?? "")
  }

  deinit { run.stop() }

  /// The calls so far, in the order they came.
  public var calls: [Call] {
    run.output.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("{"),
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let member = object["member"] as? String, let arguments = object["args"] as? [Any]
      else { return nil }
      return Call(member: member, arguments: arguments)
    }
  }

  /// Waits until the service has got `count` calls (60 s at most) and returns them.
  @discardableResult
  public func waitForCalls(_ count: Int, timeout: TimeInterval = 60) throws -> [Call] {
    try run.wait(for: "{\"member\": ", count: count, timeout: timeout)
    return calls
  }

  /// Sends `ActionInvoked(id, key)`: the person clicked an action of notification `id`.
  public func invokeAction(_ key: String, ofNotification id: UInt32) {
    run.send("action \(id) \(key)\n")
  }

  /// Sends `NotificationClosed(id, reason)` (1 expired, 2 dismissed, 3 closed by a call).
  public func closeNotification(_ id: UInt32, reason: UInt32) {
    run.send("closed \(id) \(reason)\n")
  }

  /// Everything the service wrote, for a failure's message.
  public var output: String { run.output }
}
