import CDBus
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The thread that owns one libdbus connection: libdbus is called from it only, so that no
/// libdbus lock is ever contended and no handler runs on a caller's thread. It polls the
/// socket as libdbus's watches ask, and a pipe that other threads write to when they give it
/// a message to send; it runs the reply and signal handlers, answers a reply's deadline with
/// an error when the peer never answers, and when the connection ends fails whatever waits.
final class DBusLoop: @unchecked Sendable {
  typealias ReplyHandler = @Sendable (DBusMessage) -> Void

  /// A call to send, handed from a caller to the thread; the libdbus message is the thread's
  /// from then on.
  private struct Job: @unchecked Sendable {
    let message: OpaquePointer?  // nil: close the connection
    let deadline: ContinuousClock.Instant
    let onReply: ReplyHandler?
  }

  private let bus: OpaquePointer
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let queue = Mutex((jobs: [Job](), ended: false))
  let signalHandler = Mutex<(@Sendable (DBusMessage) -> Void)?>(nil)
  // The thread's own (and the initializer's, before the thread starts).
  private var watches: [OpaquePointer] = []
  private var pending: [UInt32: (deadline: ContinuousClock.Instant, handler: ReplyHandler)] = [:]

  /// Connects to `address` (libdbus's syntax) and starts the thread; the bus says nothing
  /// before the first call, which authenticates.
  ///
  /// - Throws: ``DBusConnection/Failure`` with libdbus's reason.
  init(address: String) throws {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      throw DBusConnection.Failure("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }
    var error = DBusError()
    dbus_error_init(&error)
    guard let bus = dbus_connection_open_private(address, &error) else {
      let reason = error.message.map { String(cString: $0) } ?? "libdbus did not say why"
      dbus_error_free(&error)
      for fd in fds { Glibc.close(fd) }
      throw DBusConnection.Failure("cannot connect to the bus: \(reason)")
    }
    self.bus = bus
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    // libdbus's default for a private connection, said here: a bus that goes away must not end
    // the process.
    dbus_connection_set_exit_on_disconnect(bus, 0)
    let me = Unmanaged.passUnretained(self).toOpaque()
    guard
      dbus_connection_set_watch_functions(
        bus, Self.addWatch, Self.removeWatch, Self.toggleWatch, me, nil) != 0,
      dbus_connection_add_filter(bus, Self.filter, me, nil) != 0
    else {
      dbus_connection_close(bus)
      dbus_connection_unref(bus)
      throw DBusConnection.Failure.outOfMemory
    }
    Thread.detachNewThread { [self] in run() }
  }

  deinit {
    Glibc.close(wakeRead)
    Glibc.close(wakeWrite)
  }

  /// Gives the thread a call to send; `onReply` gets its reply or error on the thread, or an
  /// `org.freedesktop.DBus.Error.NoReply` error at `deadline`.
  ///
  /// - Throws: ``DBusConnection/Failure`` when the call is not valid or the connection ended.
  func send(_ message: DBusMessage, deadline: ContinuousClock.Instant, onReply: ReplyHandler?)
    throws
  {
    let call = try message.libdbusCall()
    let job = Job(message: call, deadline: deadline, onReply: onReply)
    guard enqueue(job) else {
      dbus_message_unref(call)
      throw DBusConnection.Failure("the bus closed the connection")
    }
  }

  /// Ends the connection; whatever waits for a reply gets an error.
  func close() {
    _ = enqueue(Job(message: nil, deadline: .now, onReply: nil))
  }

  private func enqueue(_ job: Job) -> Bool {
    queue.withLock { queue in
      guard !queue.ended else { return false }
      queue.jobs.append(job)
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)  // a full pipe wakes the thread as well
      return true
    }
  }

  // MARK: The thread

  private func run() {
    while dbus_connection_get_is_connected(bus) != 0 {
      let polled = watches.filter { dbus_watch_get_enabled($0) != 0 }
      var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      for watch in polled {
        let flags = dbus_watch_get_flags(watch)
        let events =
          (flags & DBUS_WATCH_READABLE.rawValue != 0 ? POLLIN : 0)
          | (flags & DBUS_WATCH_WRITABLE.rawValue != 0 ? POLLOUT : 0)
        fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: Int16(events), revents: 0))
      }
      // Until the nearest deadline, in milliseconds (rounded up, so as not to wake before it).
      let wait = pending.values.map(\.deadline).min().map { deadline in
        Int32(min(max(0, (deadline - .now) / .milliseconds(1)).rounded(.up), 1e9))
      }
      guard poll(&fds, nfds_t(fds.count), wait ?? -1) >= 0 || errno == EINTR else { break }
      for (index, watch) in polled.enumerated() where fds[index + 1].revents != 0 {
        // Handling one watch can remove another (a hang-up removes both).
        guard watches.contains(watch) else { continue }
        let revents = Int32(fds[index + 1].revents)
        var flags: UInt32 = 0
        if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        dbus_watch_handle(watch, flags)
      }
      var byte: UInt8 = 0
      while read(wakeRead, &byte, 1) > 0 {}
      for job in queue.withLock({ queue in
        defer { queue.jobs = [] }
        return queue.jobs
      }) {
        run(job)
      }
      while dbus_connection_dispatch(bus) == DBUS_DISPATCH_DATA_REMAINS {}
      let expired = pending.filter { $0.value.deadline <= .now }
      for (serial, (_, handler)) in expired {
        pending[serial] = nil
        handler(Self.noReply)
      }
    }
    end()
  }

  private func run(_ job: Job) {
    guard let message = job.message else {
      dbus_connection_close(bus)
      return
    }
    defer { dbus_message_unref(message) }
    var serial: UInt32 = 0
    guard dbus_connection_send(bus, message, &serial) != 0 else {
      job.onReply?(
        Self.error("org.freedesktop.DBus.Error.NoMemory", "libdbus has no memory for the message"))
      return
    }
    if let onReply = job.onReply { pending[serial] = (job.deadline, onReply) }
  }

  /// The connection ended: calls not sent and calls unanswered get an error.
  private func end() {
    let jobs = queue.withLock { queue in
      queue.ended = true
      defer { queue.jobs = [] }
      return queue.jobs
    }
    let closed = Self.error(
      "org.freedesktop.DBus.Error.Disconnected", "the bus closed the connection")
    for job in jobs {
      if let message = job.message { dbus_message_unref(message) }
      job.onReply?(closed)
    }
    for (_, (_, handler)) in pending { handler(closed) }
    pending = [:]
    dbus_connection_close(bus)
    dbus_connection_unref(bus)
  }

  /// The error a call gets when no reply came by its deadline.
  static let noReply = error("org.freedesktop.DBus.Error.NoReply", "no answer in time")

  private static func error(_ name: String, _ text: String) -> DBusMessage {
    DBusMessage(kind: .error, errorName: name, body: [.string(text)])
  }

  /// Replies to their handlers, signals (but libdbus's own, `Disconnected`) to the signal
  /// handler; method calls are left to libdbus, which answers them with an error.
  private func received(_ message: OpaquePointer) -> Bool {
    switch Int(dbus_message_get_type(message)) {
    case Int(DBUS_MESSAGE_TYPE_METHOD_RETURN), Int(DBUS_MESSAGE_TYPE_ERROR):
      guard
        let (_, handler) = pending.removeValue(forKey: dbus_message_get_reply_serial(message))
      else { return false }
      handler(DBusMessage(reading: message))
      return true
    case Int(DBUS_MESSAGE_TYPE_SIGNAL):
      if dbus_message_has_interface(message, DBUS_INTERFACE_LOCAL) == 0,
        let handler = signalHandler.withLock({ $0 })
      {
        handler(DBusMessage(reading: message))
      }
      return false
    default:
      return false
    }
  }

  // MARK: libdbus's callbacks, on the thread (the first watches on the initializer's)

  private static func loop(_ data: UnsafeMutableRawPointer?) -> DBusLoop {
    Unmanaged<DBusLoop>.fromOpaque(data!).takeUnretainedValue()
  }

  private static let addWatch: DBusAddWatchFunction = { watch, data in
    if let watch { loop(data).watches.append(watch) }
    return 1
  }

  private static let removeWatch: DBusRemoveWatchFunction = { watch, data in
    loop(data).watches.removeAll { $0 == watch }
  }

  // Enabled or not is read at each poll, which follows any change made on the thread.
  private static let toggleWatch: DBusWatchToggledFunction = { _, _ in }

  private static let filter: DBusHandleMessageFunction = { _, message, data in
    guard let message, loop(data).received(message) else {
      return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    return DBUS_HANDLER_RESULT_HANDLED
  }
}
