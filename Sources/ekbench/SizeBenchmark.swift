import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench size`: what a program carries, the figures issue 44's bars are about — the
/// executable's bytes, its text (code and read-only data, what the loader maps and relocates)
/// and how many of its symbols come from the network stack (SwiftNIO, BoringSSL,
/// AsyncHTTPClient), which a program that only talks to the store should not link.
///
/// The figures come from binutils' `size` (Berkeley format) and `nm`: reading ELF by hand
/// here would be a second, less tested copy of them.
struct SizeBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "size",
    abstract: "Measure programs' size and the network symbols they link.",
    discussion: """
      Compare builds of the same kind: a static executable's text includes the Swift \
      runtime and ICU's data, a dynamic one's does not.
      """)

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Argument(
    help: """
      The executables to measure (default: ekctl, book-club and loan-scheduler beside \
      ekbench).
      """)
  var programs: [String] = []

  /// The symbol name parts that mark each network library.
  static let libraries: [(name: String, marks: [String])] = [
    ("NIO", ["NIO"]), ("BoringSSL", ["BoringSSL", "boringssl"]),
    ("AsyncHTTPClient", ["AsyncHTTPClient"]),
  ]

  func run() throws {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    let paths =
      programs.isEmpty
      ? ["ekctl", "book-club", "loan-scheduler"].map { beside.appendingPathComponent($0).path }
      : programs
    if !json {
      print("program              bytes       text        NIO  BoringSSL  AsyncHTTPClient")
    }
    for path in paths {
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ValidationError("\(path) is not an executable (build it first)")
      }
      let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      let text = try Self.textSize(path)
      let symbols = try Self.run("nm", ["--defined-only", path]).split(separator: "\n")
      let counts = Self.libraries.map { library in
        symbols.count { line in library.marks.contains { line.contains($0) } }
      }
      let name = URL(fileURLWithPath: path).lastPathComponent
      if json {
        print(
          JSONWriter.object { json in
            json.member("name", "size")
            json.member("program", name)
            json.member("bytes", bytes)
            json.member("text", text)
            for (library, count) in zip(Self.libraries, counts) {
              json.key(escaping: library.name)
              json.integer(count)
            }
          })
      } else {
        print(
          name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + String(
              format: " %10d %10d %10d %10d %16d", bytes, text, counts[0], counts[1], counts[2]))
      }
    }
  }

  /// The text column of `size`'s Berkeley format.
  static func textSize(_ path: String) throws -> Int {
    let lines = try run("size", ["-B", path]).split(separator: "\n")
    let fields = lines.count >= 2 ? lines[1].split(whereSeparator: \.isWhitespace) : []
    guard let text = fields.first.flatMap({ Int($0) }) else {
      throw ValidationError("size -B \(path) printed nothing readable")
    }
    return text
  }

  /// What `tool` printed on standard output; a failure says which tool and why.
  static func run(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw ValidationError("cannot run \(tool) (binutils): \(error.localizedDescription)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ValidationError("\(tool) \(arguments.joined(separator: " ")) failed")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
