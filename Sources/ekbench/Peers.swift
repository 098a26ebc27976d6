import ArgumentParser
import Foundation

/// The programs ekbench times ours against, found as a shell finds them: the `sqlite3` shell
/// on `PATH`, and Python (with Radicale and the python caldav client) from
/// `OPENEVENTKIT_PYTHON`, the pinned environment scripts/test makes, else `python3` on
/// `PATH`. Never a path written here: a machine may keep them in /usr/local/bin or a Nix
/// profile. A benchmark whose peer is missing stops and names what to install, rather than
/// print a row without the figure it is read beside.
enum Peers {
  /// The program `name` on `PATH`, or nil.
  static func onPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder), isDirectory: true)
        .appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// The `sqlite3` shell; throws, naming the Debian package, when it is not on `PATH`.
  static func sqliteShell() throws -> URL {
    guard let shell = onPath("sqlite3") else {
      throw ValidationError(
        "the sqlite3 shell, the peer of this benchmark, is not on PATH: apt-get install sqlite3")
    }
    return shell
  }

  /// The Python that runs the peers: the interpreter `OPENEVENTKIT_PYTHON` names, else
  /// `python3` on `PATH`.
  static func python() throws -> URL {
    if let named = ProcessInfo.processInfo.environment["OPENEVENTKIT_PYTHON"], !named.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: named) else {
        throw ValidationError("OPENEVENTKIT_PYTHON=\(named) is not a program")
      }
      return URL(fileURLWithPath: named)
    }
    guard let python = onPath("python3") else {
      throw ValidationError(
        "no python3 on PATH: scripts/test makes .build/python from scripts/requirements.txt, "
          + "and OPENEVENTKIT_PYTHON names it")
    }
    return python
  }
}
