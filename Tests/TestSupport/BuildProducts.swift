import Foundation

/// The folders SwiftPM builds products into, where the tests find the executables they run
/// (`ekctl`, the samples, the helpers).
///
/// What ships is a release build, and optimization can change behaviour (issue 41: C state
/// copied by inlining left the idle notice silent in release builds only). So scripts/test
/// builds the samples in release too and runs their terminal tests again with
/// `OPENEVENTKIT_TEST_RELEASE` naming the release products folder
/// (`swift build -c release --show-bin-path`) and the programs to take from it:
///
/// ```sh
/// OPENEVENTKIT_TEST_RELEASE="$(swift build -c release --show-bin-path):poker-vote,wedding-planner" \
///   swift test --skip-build --filter onATerminal
/// ```
public enum BuildProducts {
  /// The products folder of the build the tests were built with: the folder of the test
  /// bundle (`….xctest`), or the folder of the test executable itself when there is no
  /// bundle.
  public static let directory: URL = {
    let bundle = Bundle.main.bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
  }()

  /// The release folder and the programs taken from it, from `OPENEVENTKIT_TEST_RELEASE`
  /// (`FOLDER:NAME,NAME`); nil when it is not set.
  static let release: (folder: URL, programs: Set<String>)? = {
    guard let value = ProcessInfo.processInfo.environment["OPENEVENTKIT_TEST_RELEASE"],
      let colon = value.lastIndex(of: ":")
    else { return nil }
    let names = value[value.index(after: colon)...].split(separator: ",").map(String.init)
    return (URL(fileURLWithPath: String(value[..<colon]), isDirectory: true), Set(names))
  }()

  /// The built executable named `name`, such as `ekctl`: the release build's when
  /// `OPENEVENTKIT_TEST_RELEASE` names it (a test then runs the program as it ships; it
  /// fails, rather than falling back, when that build has no such program), else this
  /// build's.
  public static func executable(_ name: String) -> URL {
    if let release, release.programs.contains(name) {
      return release.folder.appendingPathComponent(name)
    }
    return directory.appendingPathComponent(name)
  }
}
