import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `ekctl-sync`, the program that syncs: where it is found, and how a store starts it once
/// to sync the accounts that are due (`ekctl-sync sync --due --db FILE`).
package enum SyncAgentProgram {
  package static let name = "ekctl-sync"

  /// The environment variable naming the program, when it is not where it is looked for
  /// (a test's, or an unusual install). When set, it is the only place looked at.
  static let variable = "OPENEVENTKIT_SYNC_AGENT"

  /// The program, found as `ekctl` finds it: `$OPENEVENTKIT_SYNC_AGENT` when set; else
  /// beside the running program, its links resolved (`PREFIX/lib/openeventkit/` for ekctl and
  /// the installed samples, the build folder for a test runner); else beside the `ekctl`
  /// found on the environment's PATH, its links resolved (`bin/ekctl` is a link into
  /// `lib/openeventkit/`). Nil when none of them has it.
  static func find(environment: [String: String]) -> String? {
    if let named = environment[variable] {
      return isProgram(named) ? named : nil
    }
    var folders = [ownFolder()].compactMap { $0 }
    for folder in searchPath(environment) where isProgram(folder + "/ekctl") {
      if let real = realFolder(of: folder + "/ekctl") { folders.append(real) }
      break
    }
    return find(in: folders)
  }

  /// The program in the first of `folders` that has it.
  package static func find(in folders: [String]) -> String? {
    find(name, in: folders)
  }

  /// The program called `program` (ekctl's other companion, ekctl-mcp, too) in the first of
  /// `folders` that has it.
  package static func find(_ program: String, in folders: [String]) -> String? {
    folders.lazy.map { $0 + "/" + program }.first(where: isProgram)
  }

  /// The folder of the running program, every link resolved; nil without /proc.
  package static func ownFolder() -> String? {
    realFolder(of: "/proc/self/exe")
  }

  /// The absolute folders of the environment's PATH, in order. An empty or relative entry
  /// would be read from the current folder: never a place to run a program from.
  package static func searchPath(_ environment: [String: String]) -> [String] {
    (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter {
      $0.hasPrefix("/")
    }
  }

  private static func realFolder(of path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return URL(fileURLWithPath: String(cString: real)).deletingLastPathComponent().path
  }

  /// Whether `path` is a regular file this user may run.
  private static func isProgram(_ path: String) -> Bool {
    var status = stat()
    return path.hasPrefix("/") && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
      && access(path, X_OK) == 0
  }

  /// Starts `program` to sync the due accounts of `databaseFile` once, detached from this
  /// process: in a session of its own (a terminal's Ctrl-C or hang-up does not reach it),
  /// with no signal blocked and the stop signals at their default (an app's mask and
  /// handlers are not the agent's), standard input and output on /dev/null, and this
  /// process's environment. A thread waits for it, so that it leaves no zombie.
  ///
  /// - Returns: Its pid, or the system's reason it could not be started.
  static func start(_ program: String, databaseFile: URL) -> Result<pid_t, Failure> {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var stops = sigset_t()
    sigemptyset(&stops)
    for number in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&stops, number) }
    posix_spawnattr_setsigdefault(&attributes, &stops)
    // glibc's POSIX_SPAWN_SETSID (2.26), a macro Swift does not import.
    let setsid: Int32 = 0x80
    posix_spawnattr_setflags(
      &attributes, Int16(setsid | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let arguments = [program, "sync", "--due", "--db", databaseFile.path]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, program, &actions, &attributes, &argv, environ)
    guard status == 0 else {
      return .failure(
        Failure(message: "cannot run \(program): \(String(cString: strerror(status)))"))
    }
    let child = pid
    Thread.detachNewThread {
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }
    return .success(child)
  }

  /// Why the program could not be started, in words naming it.
  struct Failure: Error, Equatable {
    let message: String
  }
}
