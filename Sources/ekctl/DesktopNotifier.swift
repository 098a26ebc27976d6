import DBus
import Foundation
import OpenEventKit
import REPLKit

/// Desktop notifications of the alarm agent, through the freedesktop Notifications service on
/// the session bus (the "Desktop Notifications Specification"): the item's title, when, where
/// and which calendar; its "Show" action notifies again with what `ekctl show` says of it.
final class DesktopNotifier: @unchecked Sendable {
  private let connection: DBusConnection
  private let showCommand: @Sendable (String) -> String
  /// The item of each notification sent, by notification id, for its action.
  private let shown = NSLock()
  private var items: [UInt32: String] = [:]
  /// Whether a failed notification was already told (told once, not at every alarm).
  private var toldFailure = false

  /// The notifier of the session bus, or nil when there is none (`DBUS_SESSION_BUS_ADDRESS`
  /// unset: no desktop session) or it cannot be reached, which is said on standard error.
  ///
  /// - Parameter show: `ekctl show`'s text of an item, by its identifier.
  static func sessionBus(show: @escaping @Sendable (String) -> String) -> DesktopNotifier? {
    guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
      !address.isEmpty
    else { return nil }
    do {
      return try DesktopNotifier(connection: DBusConnection(address: address), show: show)
    } catch {
      let reason = InertText.keepingLineBreaks("\(error)")
      FileHandle.standardError.write(Data("ekctl: no desktop notifications: \(reason)\n".utf8))
      return nil
    }
  }

  init(connection: DBusConnection, show: @escaping @Sendable (String) -> String) throws {
    self.connection = connection
    showCommand = show
    connection.onSignal { [weak self] signal in self?.handle(signal) }
    try connection.addMatch(
      "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'")
  }

  /// Notifies of a firing; a failure is said once on standard error, and the agent goes on.
  func notify(_ firing: AlarmFiring, kind: String) {
    var body = AlarmText.words(firing)
    if let location = firing.location, !location.isEmpty { body += "\n" + location }
    if !firing.calendarTitle.isEmpty { body += "\n" + firing.calendarTitle }
    let summary = kind == "snoozed" ? "\(firing.title) (snoozed)" : firing.title
    send(
      summary: summary, body: body, actions: ["show", "Show"], item: firing.calendarItemIdentifier)
  }

  private func send(summary: String, body: String, actions: [String], item: String?) {
    let call = DBusMessage.call(
      destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications", member: "Notify",
      [
        .string("ekctl"), .uint32(0), .string("appointment-soon"), .string(summary),
        .string(body), .array(elementSignature: "s", actions.map(DBusValue.string)),
        .array(
          elementSignature: "{sv}",
          [
            .dictEntry(.string("urgency"), .variant(.byte(1))),
            .dictEntry(.string("category"), .variant(.string("x-openeventkit.alarm"))),
          ]),
        .int32(-1),
      ])
    // Sent without waiting: the agent never waits on the desktop. The reply is handled on the
    // connection's thread before any later signal, so an action on this notification
    // finds its item.
    do {
      try connection.send(call) { [weak self] reply in
        guard let self else { return }
        if reply.kind == .error {
          let text = reply.body.first?.text.map { ": " + $0 } ?? ""
          tellFailure("Notify failed: \(reply.errorName ?? "error")\(text)")
        } else if let id = reply.body.first?.uint32, let item {
          shown.withLock { items[id] = item }
        }
      }
    } catch {
      tellFailure("\(error)")
    }
  }

  /// Says on standard error that a notification failed, the first time only.
  private func tellFailure(_ reason: String) {
    let tell = shown.withLock {
      defer { toldFailure = true }
      return !toldFailure
    }
    if tell {
      // The reason is the notification service's own text: inert on the terminal.
      let shown = InertText.keepingLineBreaks(reason)
      FileHandle.standardError.write(Data("ekctl: a desktop notification failed: \(shown)\n".utf8))
    }
  }

  /// "Show" on a notification: a notification of what `ekctl show` says of the item.
  private func handle(_ signal: DBusMessage) {
    guard signal.interface == "org.freedesktop.Notifications",
      signal.member == "ActionInvoked", signal.body.count == 2,
      let id = signal.body[0].uint32, signal.body[1].text == "show",
      let item = shown.withLock({ items[id] })
    else { return }
    DispatchQueue.global().async { [self] in
      send(summary: "ekctl show", body: showCommand(item), actions: [], item: nil)
    }
  }
}
