import Foundation

/// The folder SwiftPM builds products into, where the tests find the executables they run
/// (`ekctl`, the samples, the helpers).
public enum BuildProducts {
  /// The products folder: the folder of the test bundle (`….xctest`), or the folder of the
  /// test executable itself when there is no bundle.
  public static let directory: URL = {
    let bundle = Bundle.main.bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
  }()

  /// The built executable named `name`, such as `ekctl`.
  public static func executable(_ name: String) -> URL {
    directory.appendingPathComponent(name)
  }
}
