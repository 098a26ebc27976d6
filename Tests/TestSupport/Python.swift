import Foundation

/// The Python the tests run their other ends on: Radicale, the python caldav client, the
/// hostile servers of Tests/Fixtures/caldav and every other script. One interpreter, with
/// the exact packages of scripts/requirements.txt, so that a test's outcome does not hang on
/// whatever versions a machine has installed.
///
/// It is, in order: the one `OPENEVENTKIT_PYTHON` names (scripts/test sets it to the
/// environment it makes, `.build/python`); else that environment under this package when it
/// is there (a `swift test` run by hand after scripts/test); else `python3` on `PATH`, saying
/// so once, since its packages may be other versions or missing.
public enum Python {
  /// No Python at all.
  public struct NotFound: Error, CustomStringConvertible {
    public let description: String
  }

  /// The interpreter; throws when there is none.
  public static func executable() throws -> URL { try located.get() }

  /// What to run to make the environment, for a message about a missing package.
  public static let advice =
    "scripts/test makes .build/python from scripts/requirements.txt, and "
    + "OPENEVENTKIT_PYTHON names it"

  /// The environment scripts/lib.sh makes: `.build/python` in the package's folder, two
  /// folders above this file's.
  public static let environment = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/python/bin/python3")

  private static let located: Result<URL, NotFound> = {
    if let named = ProcessInfo.processInfo.environment["OPENEVENTKIT_PYTHON"], !named.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: named) else {
        return .failure(NotFound(description: "OPENEVENTKIT_PYTHON=\(named) is not a program"))
      }
      return .success(URL(fileURLWithPath: named))
    }
    if FileManager.default.isExecutableFile(atPath: environment.path) {
      return .success(environment)
    }
    guard let python = try? Programs.path("python3") else {
      return .failure(
        NotFound(description: "no python3 on PATH and no \(environment.path): \(advice)"))
    }
    FileHandle.standardError.write(
      Data(
        ("note: the tests use \(python.path), not the pinned environment "
          + "\(environment.path), which is missing: \(advice)\n").utf8))
    return .success(python)
  }()
}
