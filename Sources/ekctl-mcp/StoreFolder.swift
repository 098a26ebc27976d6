import EkctlKit
import Foundation
import OpenEventKit

/// The store the server works on, and the privacy decisions beside it: the user's, or the
/// folder of the `Calendar.sqlite` that `--db` names.
///
/// The server opens the store as an app does (`EKEventStore(folder:)`, never
/// `init(ownerOf:)`), so that the store itself enforces the person's decision for it: what
/// this program checks first only words the refusal for the agent.
struct StoreFolder: Sendable {
  /// Nil for the user's store.
  let folder: URL?

  init(_ options: StoreOptions) throws {
    guard let path = options.database else {
      folder = nil
      return
    }
    let file = URL(fileURLWithPath: path)
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw CommandError("no calendar database at \(file.path)")
    }
    // An app's store is a folder's Calendar.sqlite, with the decisions (Privacy.sqlite) beside.
    guard file.lastPathComponent == "Calendar.sqlite" else {
      throw CommandError(
        "ekctl mcp opens a store as an app does, a folder's Calendar.sqlite; \(file.path) is not one"
      )
    }
    folder = file.deletingLastPathComponent()
  }

  func openStore() -> EKEventStore {
    folder.map { EKEventStore(folder: $0) } ?? EKEventStore()
  }

  func privacy() throws -> PrivacySettings {
    try failing { try folder.map { try PrivacySettings(folder: $0) } ?? PrivacySettings() }
  }

  /// `--db FILE` as the person types it after a command, or nothing for the user's store.
  var databaseArgument: String {
    folder.map { " --db " + shellWord($0.appendingPathComponent("Calendar.sqlite").path) } ?? ""
  }
}

/// `text` as one word for a POSIX shell, quoted only when it needs to be.
func shellWord(_ text: String) -> String {
  let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@+,".contains($0) }
  if plain && !text.isEmpty { return text }
  return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
