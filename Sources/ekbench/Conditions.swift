import Foundation
import OpenEventKit

/// What a figure depends on beyond the code: the disk under the folder measured, the machine,
/// the build and the commit. A timing printed without them cannot be compared with another.
struct Conditions {
  /// Name and value pairs, in the order printed.
  var fields: [(String, String)] = []

  /// The machine, build and commit, and the file system under `folder`.
  init(folder: URL) {
    let (type, source) = Conditions.fileSystem(of: folder)
    fields = [
      ("folder", folder.path),
      ("filesystem", type),
      ("device", source),
      ("cores", String(ProcessInfo.processInfo.activeProcessorCount)),
      ("load", Conditions.loadAverage()),
      ("build", Conditions.build),
      ("commit", Conditions.commit()),
    ]
  }

  /// Prints the conditions: one JSON object (`{"name": "conditions", …}`) or one line each,
  /// before the table.
  func print(json: Bool) {
    if json {
      Swift.print(
        JSONWriter.object { json in
          json.member("name", "conditions")
          for (name, value) in fields {
            json.key(escaping: name)
            json.string(value)
          }
        })
    } else {
      for (name, value) in fields {
        Swift.print("# " + (name + ":").padding(toLength: 13, withPad: " ", startingAt: 0) + value)
      }
    }
  }

  static var build: String {
    #if DEBUG
      "debug"
    #else
      "release"
    #endif
  }

  /// The type and the device of the file system `folder` is on: the mount in
  /// `/proc/self/mountinfo` whose mount point is the longest prefix of its real path (ext4,
  /// tmpfs, overlay…); "unknown" off Linux.
  static func fileSystem(of folder: URL) -> (type: String, source: String) {
    guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
      return ("unknown", "unknown")
    }
    let path = folder.resolvingSymlinksInPath().path
    var best: (length: Int, type: String, source: String) = (-1, "unknown", "unknown")
    for line in table.split(separator: "\n") {
      // id parent major:minor root mount-point options [optional…] - type source options
      let halves = line.components(separatedBy: " - ")
      let fields = halves[0].split(separator: " ")
      guard halves.count == 2, fields.count >= 5 else { continue }
      let after = halves[1].split(separator: " ")
      // Spaces and the like in a mount point are written as octal escapes (\040).
      let mountPoint = String(fields[4]).replacingOccurrences(of: "\\040", with: " ")
      let inside =
        mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
      if inside, mountPoint.count > best.length, after.count >= 2 {
        best = (mountPoint.count, String(after[0]), String(after[1]))
      }
    }
    return (best.type, best.source)
  }

  /// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them.
  static func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
      return "unknown"
    }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// The commit of the checkout this ekbench was built in (`git rev-parse --short HEAD` run
  /// beside the executable), with "+ changes" when its files differ from it; "unknown" without
  /// git or outside a checkout.
  static func commit() -> String {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    guard let head = git(["-C", folder.path, "rev-parse", "--short", "HEAD"]) else {
      return "unknown"
    }
    let changes = git(["-C", folder.path, "status", "--porcelain", "--untracked-files=no"])
    return head + ((changes?.isEmpty ?? true) ? "" : " + changes")
  }

  /// What `git` printed, trimmed; nil when it could not run or failed.
  private static func git(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// The bytes and the write calls this process has handed to the kernel (`wchar` and `syscw` in
/// `/proc/self/io`, all threads): what a commit costs in writes, whatever the disk does with
/// them. Zero off Linux.
struct WriteCounters {
  var bytes = 0
  var calls = 0

  static func now() -> WriteCounters {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else {
      return WriteCounters()
    }
    var counters = WriteCounters()
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let value = Int(parts[1]) else { continue }
      if parts[0] == "wchar" { counters.bytes = value }
      if parts[0] == "syscw" { counters.calls = value }
    }
    return counters
  }

  static func - (after: WriteCounters, before: WriteCounters) -> WriteCounters {
    WriteCounters(bytes: after.bytes - before.bytes, calls: after.calls - before.calls)
  }
}
