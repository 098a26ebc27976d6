import Foundation

/// A folder of its own for one test, private to its owner (0700), removed with everything in
/// it when the last reference goes.
public final class TemporaryFolder: Sendable {
  /// The folder, under the system's temporary folder.
  public let url: URL

  /// Creates the folder, named `prefix` followed by a fresh UUID.
  public init(prefix: String = "OpenEventKitTests") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
      at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
