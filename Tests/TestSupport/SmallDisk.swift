import Foundation

/// A full disk that needs no right to mount one: a folder whose regular files may hold
/// `bytes` in all, for the programs a test starts with ``environment``.
///
/// A tmpfs of a few megabytes is the real thing, but mounting it needs root with mount
/// rights, which an unprivileged container does not give; a process limit (`ulimit -f`)
/// fails writes with EFBIG, which SQLite reports as an input/output error, not as a full
/// disk. So the programs run with Tests/Fixtures/small-disk/small-disk.c preloaded
/// (`LD_PRELOAD`): their writes that would grow the folder's files past `bytes` write what
/// fits and fail with ENOSPC, as the kernel's do on a full disk, and SQLite says
/// `SQLITE_FULL`. The library is built once per test process, with the toolchain's C
/// compiler.
///
/// ```swift
/// let disk = try SmallDisk(bytes: 3 << 20)
/// let database = disk.folder.url.appendingPathComponent("Calendar.sqlite")
/// // run ekctl with disk.environment added to its environment
/// ```
public final class SmallDisk: Sendable {
  /// The folder that is the disk.
  public let folder: TemporaryFolder
  /// What its files may hold, in bytes.
  public let bytes: Int

  public init(bytes: Int) throws {
    folder = try TemporaryFolder(prefix: "SmallDisk")
    self.bytes = bytes
    _ = try Self.library.get()
  }

  /// The variables that make a program see the folder as a disk of `bytes`.
  public var environment: [String: String] {
    [
      "LD_PRELOAD": (try? Self.library.get().path) ?? "",
      "SMALL_DISK_FOLDER": folder.url.resolvingSymlinksInPath().path,
      "SMALL_DISK_BYTES": String(bytes),
    ]
  }

  /// The file space the folder's regular files hold now.
  public var used: Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
    return names.reduce(0) { total, name in
      let path = folder.url.appendingPathComponent(name).path
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      guard attributes?[.type] as? FileAttributeType == .typeRegular else { return total }
      return total + ((attributes?[.size] as? Int) ?? 0)
    }
  }

  /// The preloaded library, built once per process: into a file of its own, then moved over
  /// the one of the user in the temporary folder (one file, whichever process built it last).
  private static let library: Result<URL, any Error> = Result {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/small-disk/small-disk.c")
    let library = FileManager.default.temporaryDirectory
      .appendingPathComponent("openeventkit-small-disk-\(getuid()).so")
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("openeventkit-small-disk-\(getpid())-\(UUID().uuidString).so")
    guard let compiler = ["clang", "cc", "gcc"].lazy.compactMap(SmallDisk.onPath).first else {
      throw SmallDiskError(message: "no C compiler on PATH to build \(source.path)")
    }
    let result = try runProgram(
      compiler, ["-shared", "-fPIC", "-O1", "-Wall", "-o", output.path, source.path, "-ldl"],
      input: nil, environment: ProcessInfo.processInfo.environment)
    guard result.status == 0 else {
      throw SmallDiskError(
        message: "\(compiler.path) failed to build \(source.path): \(result.stderr)")
    }
    guard rename(output.path, library.path) == 0 else {
      throw SmallDiskError(message: "cannot move \(output.path) to \(library.path)")
    }
    return library
  }

  private static func onPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent(name)
    }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}

/// Why a ``SmallDisk`` could not be made.
public struct SmallDiskError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
