import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program run on a pseudo-terminal, as a person runs it in a terminal window: its standard
/// input, output and error are the terminal, which is its controlling terminal, so readline
/// edits lines, Ctrl-C interrupts and progress bars are drawn.
///
/// A run goes through ``Step``s, each of which waits until the terminal has shown some text,
/// then types keys or kills the program. It returns everything the terminal showed and how the
/// program ended (``Outcome``).
///
/// The program starts as a shell starts it: in a session of its own with the terminal as its
/// controlling terminal, no signal blocked, and the signals a terminal sends (Ctrl-C, Ctrl-\,
/// Ctrl-Z, hang-up), the job-control signals, SIGTERM and SIGPIPE at their default actions.
///
/// Linux only (glibc's `openpty` and `posix_spawn`).
public enum PseudoTerminal {
  /// Something to do once the terminal has shown some text.
  public struct Step: Sendable {
    /// What a step does.
    public enum Action: Sendable {
      /// Types these bytes on the terminal's keyboard: `"\r"` is Return, `"\u{03}"` Ctrl-C,
      /// `"\u{04}"` Ctrl-D, `"\u{1B}[A"` the up arrow.
      case send([UInt8])
      /// Kills the program with SIGKILL, which gives it no chance to clean up.
      case kill
      /// Runs this (another process acting on the same store, say) while the program waits,
      /// then reads what it shows for the pause.
      case run(@Sendable () -> Void)
    }

    /// The text to wait for in what the terminal has shown after the text the step before
    /// waited for (after what was shown when it acted, for a step that waited for nothing;
    /// from the start for the first step), never in what came earlier: a prompt the step
    /// before answered is not the next one. `nil` acts at once.
    public var waitFor: String?
    /// What to do then.
    public var action: Action

    public init(waitFor: String?, action: Action) {
      self.waitFor = waitFor
      self.action = action
    }

    /// Once the terminal has shown `text`, types `keys` (their UTF-8 bytes).
    public static func after(_ text: String?, send keys: String) -> Step {
      Step(waitFor: text, action: .send(Array(keys.utf8)))
    }

    /// Once the terminal has shown `text`, does `action`.
    public static func after(_ text: String?, _ action: Action) -> Step {
      Step(waitFor: text, action: action)
    }
  }

  /// How the program ended.
  public enum Ending: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// This signal killed it (`SIGKILL`, say).
    case signalled(Int32)

    public var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }

  /// The end of a run.
  public struct Outcome: Sendable {
    /// Everything the terminal showed, decoded as UTF-8. The terminal turns each `"\n"` the
    /// program writes into `"\r\n"`, and echoes what is typed unless the program turns that
    /// off (readline does).
    public let shown: String
    /// How the program ended.
    public let ending: Ending
    /// How many steps were taken, from the first. The steps stop at the first whose text
    /// never came: the program ended first or the deadline passed.
    public let stepsTaken: Int
    /// Whether the deadline passed with the program still running, so that the run killed it
    /// (with SIGKILL; ``ending`` then says so).
    public let timedOut: Bool
  }

  /// A system call that failed, so that the program could not be run.
  public struct SystemCallFailed: Error, CustomStringConvertible {
    /// The call, such as `openpty`.
    public let call: String
    /// The `errno` it set (or returned).
    public let code: Int32

    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }

  /// Runs `executable` with `arguments` and `environment` on a new pseudo-terminal, takes
  /// `steps` in order, then reads what the terminal shows until the program ends.
  ///
  /// - Parameters:
  ///   - deadline: The time the whole run may take. When it passes, the steps stop and the
  ///     program is killed.
  ///   - pause: How long to go on reading after typing, before the next step looks for its
  ///     text: the program needs a moment to take in the keys. (The next step's text is
  ///     looked for only in what came after this step acted, so the pause is not what keeps
  ///     it from matching a prompt seen before.)
  public static func run(
    _ executable: URL, arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment, steps: [Step] = [],
    deadline: Duration = .seconds(30), pause: Duration = .milliseconds(200)
  ) throws -> Outcome {
    let end = ContinuousClock.now + deadline
    var master: Int32 = -1
    var terminal: Int32 = -1
    guard openpty(&master, &terminal, nil, nil, nil) == 0 else {
      throw SystemCallFailed(call: "openpty", code: errno)
    }
    defer { close(master) }
    // Neither end goes to programs that other tests start meanwhile.
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(terminal, F_SETFD, FD_CLOEXEC)
    let pid: pid_t
    do {
      pid = try spawn(
        executable, arguments: arguments, environment: environment,
        terminal: try name(of: terminal))
      // The program has its own copy: once it ends, reading the master end fails.
      close(terminal)
    } catch {
      close(terminal)
      throw error
    }

    var screen = Screen(master: master)
    var stepsTaken = 0
    taking: for step in steps {
      if let text = step.waitFor {
        guard let found = screen.read(until: Data(text.utf8), before: end) else { break taking }
        // The next step waits for text after this one's.
        screen.mark = found
      } else {
        screen.mark = screen.shown.count
      }
      switch step.action {
      case .send(let keys):
        guard screen.type(keys) else { break taking }
        screen.read(until: nil, before: min(.now + pause, end))
      case .kill:
        kill(pid, SIGKILL)
      case .run(let body):
        body()
        screen.read(until: nil, before: min(.now + pause, end))
      }
      stepsTaken += 1
    }
    screen.read(until: nil, before: end)
    let stillRunning = !screen.closed
    if stillRunning {
      kill(pid, SIGKILL)
      screen.read(until: nil, before: .now + .seconds(5))
    }
    let (ending, killed) = try reap(pid, killingAfter: end)
    return Outcome(
      shown: String(decoding: screen.shown, as: UTF8.self), ending: ending,
      stepsTaken: stepsTaken, timedOut: stillRunning || killed)
  }

  /// The master end of the terminal, and everything read from it.
  private struct Screen {
    let master: Int32
    var shown = Data()
    /// Whether the program's end of the terminal is closed everywhere: the program ended.
    var closed = false
    /// Where in ``shown`` text is looked for: what came before the last step's text is not.
    var mark = 0

    init(master: Int32) { self.master = master }

    /// Reads until the terminal has shown `text` (when not `nil`) after ``mark``, the
    /// program's end closes or `limit` passes; where in ``shown`` the text ends, or nil when
    /// it was not shown.
    @discardableResult
    mutating func read(until text: Data?, before limit: ContinuousClock.Instant) -> Int? {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        if let text, let found = shown.range(of: text, in: mark..<shown.count) {
          return found.upperBound
        }
        let remaining = ContinuousClock.now.duration(to: limit)
        guard !closed, remaining > .zero else { return nil }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, PseudoTerminal.milliseconds(remaining))
        if ready == 0 || (ready < 0 && errno == EINTR) { continue }
        let count = ready < 0 ? -1 : Glibc.read(master, &buffer, buffer.count)
        if count > 0 {
          shown.append(contentsOf: buffer[0..<count])
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          // Linux answers EIO once no one has the program's end open.
          closed = true
        }
      }
    }

    /// Types `keys`; whether the terminal took them all.
    func type(_ keys: [UInt8]) -> Bool {
      var offset = 0
      while offset < keys.count {
        let written = keys[offset...].withUnsafeBytes {
          Glibc.write(master, $0.baseAddress, $0.count)
        }
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  /// The path of the terminal's program end, `/dev/pts/N`.
  private static func name(of terminal: Int32) throws -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let code = ttyname_r(terminal, &buffer, buffer.count)
    guard code == 0 else { throw SystemCallFailed(call: "ttyname_r", code: code) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// glibc's `POSIX_SPAWN_SETSID`, which the Glibc module does not export (it is a GNU
  /// extension): the program starts in a session of its own.
  private static let spawnSetSession: Int32 = 0x80

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time for the same
  /// reason.
  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

  /// Starts `executable` on the terminal at path `terminal`, as a shell would.
  private static func spawn(
    _ executable: URL, arguments: [String], environment: [String: String], terminal: String
  ) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    var code = posix_spawnattr_init(&attributes)
    guard code == 0 else { throw SystemCallFailed(call: "posix_spawnattr_init", code: code) }
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP, SIGTERM, SIGPIPE] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | spawnSetSession))

    var actions = posix_spawn_file_actions_t()
    code = posix_spawn_file_actions_init(&actions)
    guard code == 0 else {
      throw SystemCallFailed(call: "posix_spawn_file_actions_init", code: code)
    }
    defer { posix_spawn_file_actions_destroy(&actions) }
    // A session leader that opens a terminal makes it its controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
      _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
      strings.map { strdup($0) } + [nil]
    }
    let argv = cStrings([executable.path] + arguments)
    let envp = cStrings(environment.map { "\($0.key)=\($0.value)" })
    defer { for string in argv + envp { free(string) } }
    var pid = pid_t()
    code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
    guard code == 0 else { throw SystemCallFailed(call: "posix_spawn", code: code) }
    return pid
  }

  /// Waits for the program to end and tells how; kills it with SIGKILL if it has not ended
  /// by `limit`, and then says so.
  private static func reap(_ pid: pid_t, killingAfter limit: ContinuousClock.Instant) throws
    -> (Ending, killed: Bool)
  {
    var status: Int32 = 0
    var killed = false
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { throw SystemCallFailed(call: "waitpid", code: errno) }
      if !killed && ContinuousClock.now >= limit {
        kill(pid, SIGKILL)
        killed = true
      }
      usleep(10_000)
    }
    // WIFSIGNALED and WTERMSIG, WEXITSTATUS: C macros Swift does not import.
    let signal = status & 0x7f
    return (signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal), killed)
  }

  /// `duration` in whole milliseconds, rounded up, for `poll`.
  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }
}
