import Foundation
import TestSupport
import Testing

/// How `ekctl` finds `ekctl-sync`, the program that carries its network words: beside
/// itself, its links resolved, then on PATH; and what it says when there is none.
@Suite struct SyncProgramTests {
  let folder: TemporaryFolder
  /// A folder on PATH with no ekctl-sync in it.
  let emptyFolder: URL

  init() throws {
    folder = try TemporaryFolder(prefix: "EkctlSyncProgram")
    emptyFolder = folder.url.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
  }

  /// Runs `program` with exactly `path` as PATH and a home of its own.
  func run(_ program: URL, _ arguments: [String], path: String) throws -> ProcessResult {
    try runProgram(
      program, arguments, input: nil,
      environment: [
        "PATH": path, "OPENEVENTKIT_HOME": folder.url.appendingPathComponent("home").path,
      ])
  }

  /// A copy of the built ekctl, alone in a folder of its own.
  func ekctlAlone() throws -> URL {
    let alone = folder.url.appendingPathComponent("alone")
    try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
    let copy = alone.appendingPathComponent("ekctl")
    // A hard link where it can be: a copy is a file open for writing, and a process another
    // test forks meanwhile holds that descriptor until it execs, so that running the copy
    // fails with ETXTBSY ("Text file busy"). Its folder is still its own.
    do {
      try FileManager.default.linkItem(at: BuildProducts.executable("ekctl"), to: copy)
    } catch {
      try FileManager.default.copyItem(at: BuildProducts.executable("ekctl"), to: copy)
    }
    return copy
  }

  @Test(arguments: [
    ("sync", ["sync"]), ("account", ["account", "remove", "work", "--yes"]),
    ("accounts", ["accounts", "--json"]),
  ])
  func anEkctlWithoutItSaysWhereItLookedAndFails(_ word: String, _ arguments: [String]) throws {
    let ekctl = try ekctlAlone()
    let run = try run(ekctl, arguments, path: emptyFolder.path)
    let beside = ekctl.deletingLastPathComponent().resolvingSymlinksInPath().path
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "Error: ekctl \(word) needs the program ekctl-sync, found neither in \(beside), "
        + "beside ekctl, nor on PATH; install again with scripts/install\n")
    // The words stay ekctl's: their help needs no ekctl-sync.
    let help = try self.run(ekctl, [word, "--help"], path: emptyFolder.path)
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: ekctl \(word)"), "\(help.stdout)")
  }

  @Test func itIsFoundOnPATH() throws {
    let ekctl = try ekctlAlone()
    let path =
      emptyFolder.path + ":"
      + BuildProducts.executable("ekctl-sync")
      .deletingLastPathComponent().path
    let missing = folder.url.appendingPathComponent("missing.sqlite").path
    let run = try run(ekctl, ["accounts", "--db", missing], path: path)
    #expect(run.status == 1)
    #expect(run.stderr == "Error: no calendar database at \(missing)\n")
  }

  /// As scripts/install runs it: `bin/ekctl` is a link to `lib/openeventkit/ekctl`, and
  /// ekctl-sync is beside the program, not beside the link.
  @Test func itIsFoundBesideTheProgramALinkNames() throws {
    let link = emptyFolder.appendingPathComponent("ekctl")
    try FileManager.default.createSymbolicLink(
      at: link, withDestinationURL: BuildProducts.executable("ekctl"))
    let missing = folder.url.appendingPathComponent("missing.sqlite").path
    // --db before the word: moved to it by ekctl, as ekctl-sync reads it.
    let run = try run(link, ["--db", missing, "sync"], path: emptyFolder.path)
    #expect(run.status == 1)
    #expect(run.stderr == "Error: no calendar database at \(missing)\n")
  }
}
