import Foundation

/// The programs the tests run that are not built here (sqlite3, openssl, dbus-daemon…),
/// found on `PATH` as a shell finds them, never at a path written into a test: a machine may
/// keep them in /usr/local/bin or a Nix profile. scripts/test installs them.
public enum Programs {
  /// A program the tests need is not on `PATH`.
  public struct NotFound: Error, CustomStringConvertible {
    public let description: String
  }

  /// The executable `name` on `PATH`; throws, naming the Debian package that has it, when
  /// there is none.
  public static func path(_ name: String, package: String? = nil) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder), isDirectory: true)
        .appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw NotFound(
      description: "\(name) is not on PATH (\(path)): scripts/test installs it "
        + "(the Debian package \(package ?? name))")
  }
}
