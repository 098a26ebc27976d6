import Foundation

/// Who is asking for access: the app's bundle identifier, the name the prompt shows, and the
/// usage descriptions it gives for each kind of access, read from its `Info.plist` with Apple's
/// keys.
///
/// The `Info.plist` is found, in this order: a file beside the executable (how an installed app
/// ships it), then a resource in the executable target's SwiftPM resource bundle beside the
/// executable (`<package>_<target>.resources/Info.plist`, or one folder down in it, since
/// SwiftPM refuses an `Info.plist` at the top of a bundle and targets copy a folder holding it:
/// `resources: [.copy("Bundle")]`; how the samples ship theirs). With
/// neither, the bundle identifier and name are the executable's name, and there are no usage
/// descriptions.
struct AppIdentity: Sendable, Hashable {
  var bundleIdentifier: String
  var displayName: String
  /// Usage descriptions by their `Info.plist` key.
  var usageDescriptions: [String: String]

  /// The keys of the usage descriptions, as Apple names them.
  enum UsageKey {
    static let calendarsFullAccess = "NSCalendarsFullAccessUsageDescription"
    static let calendarsWriteOnly = "NSCalendarsWriteOnlyAccessUsageDescription"
    static let remindersFullAccess = "NSRemindersFullAccessUsageDescription"
    /// The keys of apps built before iOS 17 and macOS 14, which the new requests do not read.
    static let calendars = "NSCalendarsUsageDescription"
    static let reminders = "NSRemindersUsageDescription"

    static func older(for entity: EKEntityType) -> String {
      entity == .event ? calendars : reminders
    }
  }

  /// The older keys the Info.plist has (``UsageKey/calendars``, ``UsageKey/reminders``): read
  /// only to say why a request without the new key fails.
  var olderUsageKeys: Set<String> = []

  /// What is wrong with the `Info.plist`, in words, when none could be read: none was found
  /// (and where it was looked for, ``infoPlistPlaces(for:)``), or the file is not a property
  /// list. A request for access then says so, rather than that a key is missing from a file
  /// that is not there (a program copied without its resource bundle). Nil when one was read.
  var infoPlistProblem: String?

  /// The identity of this process, from its executable's real path (`/proc/self/exe`: the
  /// first argument is only a name when the program was found on PATH).
  static let current = AppIdentity(executable: runningExecutable())

  /// The running program's file. Read straight from `/proc/self/exe`, which is what
  /// `Bundle.main.executableURL` reads too, but without the listing of the program's whole
  /// folder that making `Bundle.main` costs (milliseconds in /usr/bin, at every app start).
  static func runningExecutable() -> URL {
    var path = [UInt8](repeating: 0, count: Int(PATH_MAX))
    let length = path.withUnsafeMutableBytes {
      readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
    }
    guard length > 0 else {
      return URL(fileURLWithPath: CommandLine.arguments.first ?? "app").resolvingSymlinksInPath()
    }
    return URL(fileURLWithPath: String(decoding: path[..<length], as: UTF8.self))
  }

  init(bundleIdentifier: String, displayName: String, usageDescriptions: [String: String] = [:]) {
    self.bundleIdentifier = bundleIdentifier
    self.displayName = displayName
    self.usageDescriptions = usageDescriptions
  }

  /// The identity of the program at `executable`, from the first `Info.plist` found for it.
  init(executable: URL) {
    let name = executable.lastPathComponent
    let file = AppIdentity.infoPlist(for: executable)
    let read = file.flatMap(AppIdentity.read)
    let plist = read ?? [:]
    if let file, read == nil {
      infoPlistProblem = "its Info.plist, \(file.path), is not a property list"
    } else if file == nil {
      infoPlistProblem =
        "no Info.plist was found for it (\(AppIdentity.infoPlistPlaces(for: executable)))"
    }
    bundleIdentifier = (plist["CFBundleIdentifier"] as? String).flatMap(\.nonEmpty) ?? name
    displayName =
      (plist["CFBundleDisplayName"] as? String).flatMap(\.nonEmpty)
      ?? (plist["CFBundleName"] as? String).flatMap(\.nonEmpty) ?? name
    var descriptions: [String: String] = [:]
    for key in [
      UsageKey.calendarsFullAccess, UsageKey.calendarsWriteOnly, UsageKey.remindersFullAccess,
    ] {
      if let text = (plist[key] as? String).flatMap(\.nonEmpty) { descriptions[key] = text }
    }
    olderUsageKeys = Set([UsageKey.calendars, UsageKey.reminders].filter { plist[$0] != nil })
    usageDescriptions = descriptions
  }

  /// The `Info.plist` that belongs to `executable`, if any.
  static func infoPlist(for executable: URL) -> URL? {
    let folder = executable.deletingLastPathComponent()
    let beside = folder.appendingPathComponent("Info.plist")
    if FileManager.default.fileExists(atPath: beside.path) { return beside }
    // glob(3) reads the folder without making a string of every file in it, and sorts what
    // matches.
    let pattern =
      escapedForGlob(folder.path) + "/*"
      + escapedForGlob("_\(executable.lastPathComponent).resources")
    var matches = glob_t()
    defer { globfree(&matches) }
    guard glob(pattern, 0, nil, &matches) == 0 else { return nil }
    let bundles = (0..<Int(matches.gl_pathc)).compactMap {
      matches.gl_pathv[$0].map { String(cString: $0) }
    }
    for bundle in bundles {
      let root = URL(fileURLWithPath: bundle)
      let inside = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
      let candidates =
        [root.appendingPathComponent("Info.plist")]
        + inside.sorted().map {
          root.appendingPathComponent($0).appendingPathComponent("Info.plist")
        }
      if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
        return found
      }
    }
    return nil
  }

  /// Where ``infoPlist(for:)`` looks, in words: the file beside the executable, then the
  /// resource bundles beside it. The folder is named once: a message with it is read in a
  /// terminal.
  static func infoPlistPlaces(for executable: URL) -> String {
    let folder = executable.deletingLastPathComponent().path
    return "looked in \(folder) and in the \(executable.lastPathComponent) resource bundle there"
  }

  /// `text` matching only itself in a glob(3) pattern.
  private static func escapedForGlob(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if "*?[]\\".contains(character) { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// A property list's top-level dictionary (XML or binary), nil when it is not one.
  static func read(_ url: URL) -> [String: Any]? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return (try? PropertyListSerialization.propertyList(from: data, format: nil))
      as? [String: Any]
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
