import Foundation

/// A Unix socket that accepts connections and never says a word: a session bus that hangs.
/// A client must give up at its timeout, not wait for it.
public final class MuteBus: Sendable {
  private let home: TemporaryHome
  private let run: SampleRun
  /// Its address, for `DBUS_SESSION_BUS_ADDRESS`.
  public let address: String

  /// Starts it and waits until it listens.
  public init() throws {
    home = try TemporaryHome()
    let socket = home.url.appendingPathComponent("mute").path
    run = try SampleRun(
      executable: "/usr/bin/env",
      arguments: [
        "python3", "-c",
        "import signal, socket, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
          + "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); "
          + "print('listening', flush=True); c = [s.accept() for _ in range(100)]",
        socket,
      ], home: home)
    try run.wait(for: "listening", timeout: 60)
    address = "unix:path=\(socket)"
  }

  deinit { run.stop() }
}
