import CalDAV
import Crypto
import Foundation
import OpenEventKit

/// Where a resource made here goes on the server: a name in its collection made of its UID,
/// one per item (OpenEventKit's article Sync, "What is synced"). A resource the server sent
/// keeps the href the server gave it; these names are only for what the server has never
/// had.
enum ResourceNames {
  /// The names to try for `uid`, best first, without `.ics`:
  ///
  /// 1. the UID itself, when it is a safe name already (ASCII letters, digits and `-_.@`, at
  ///    most 120 characters);
  /// 2. its safe form (every other character `_`, cut to 100) with 8 hex digits of the UID's
  ///    SHA-256, which two UIDs of one safe form (`team/meeting` and `team_meeting`) do not
  ///    share;
  /// 3. the same with 16 hex digits, for the improbable name taken by another UID.
  ///
  /// Each is the same at every sync, so that a sync stopped after the server took a PUT and
  /// before it was recorded sends the next one to the same name, where the server's ETag
  /// tells a repeat from a conflict.
  static func candidates(uid: String) -> [String] {
    let safe = String(
      uid.unicodeScalars.map { scalar -> Character in
        (scalar.isASCII && CharacterSet.alphanumerics.contains(scalar))
          || "-_.@".unicodeScalars.contains(scalar)
          ? Character(scalar) : "_"
      })
    let hash = SHA256.hash(data: Data(uid.utf8)).lowercaseHex
    let stem = safe.isEmpty ? "" : String(safe.prefix(100)) + "-"
    var names: [String] = []
    if safe == uid, !uid.isEmpty, uid.count <= 120 { names.append(uid) }
    names.append(stem + hash.prefix(8))
    names.append(stem + hash.prefix(16))
    return names
  }

  /// The href of a resource named `name` in the collection at `collection` (a path).
  static func href(collection: String, name: String) -> String {
    (collection.hasSuffix("/") ? collection : collection + "/") + name + ".ics"
  }
}
