import Foundation

/// Where a user's calendar database lives: one folder per user, shared by every app.
///
/// `$OPENEVENTKIT_HOME` names the folder when set (tests and sample sessions use it to keep
/// their data apart); otherwise it is `OpenEventKit` in the XDG data folder,
/// `$XDG_DATA_HOME` or `~/.local/share`.
struct StoreLocation: Sendable, Hashable {
  let folder: URL
  let calendarDatabase: URL

  var privacyDatabase: URL { folder.appendingPathComponent("Privacy.sqlite") }

  init(folder: URL) {
    self.folder = folder
    calendarDatabase = folder.appendingPathComponent("Calendar.sqlite")
  }

  /// A database file of any name; the privacy decisions are the `Privacy.sqlite` beside it.
  init(databaseFile: URL) {
    folder = databaseFile.deletingLastPathComponent()
    calendarDatabase = databaseFile
  }

  /// The user's store, from the environment.
  static func current(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> StoreLocation {
    if let home = environment["OPENEVENTKIT_HOME"], !home.isEmpty {
      return StoreLocation(folder: URL(fileURLWithPath: home, isDirectory: true))
    }
    // The XDG Base Directory specification ignores relative paths in XDG_DATA_HOME.
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return StoreLocation(
        folder: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(
          "OpenEventKit", isDirectory: true))
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return StoreLocation(
      folder: URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share/OpenEventKit", isDirectory: true))
  }

  /// Creates the folder (mode 0700) and an empty database file (mode 0600) when missing, so
  /// that calendar data is private to the user whatever the process's umask.
  func prepare(_ file: URL) throws(EKError) {
    let manager = FileManager.default
    do {
      if !manager.fileExists(atPath: folder.path) {
        try manager.createDirectory(
          at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      }
      if !manager.fileExists(atPath: file.path) {
        let descriptor = open(file.path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        if descriptor >= 0 {
          close(descriptor)
        } else if errno != EEXIST {
          throw EKError(
            .internalFailure,
            "cannot create \(file.path): \(String(cString: strerror(errno)))")
        }
      }
    } catch let error as EKError {
      throw error
    } catch {
      throw EKError(.internalFailure, "cannot create \(folder.path): \(error.localizedDescription)")
    }
  }
}
