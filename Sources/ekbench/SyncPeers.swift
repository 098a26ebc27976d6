import ArgumentParser
import Foundation

/// A client `ekbench sync` times beside ours on the same Radicale and calendar.
enum SyncPeer: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// The python `caldav` client fetching every event of the calendar (no store).
  case caldav
  /// vdirsyncer copying the calendar into a folder of .ics files, as a new user runs it.
  case vdirsyncer
  /// No peer: our client alone.
  case none
}

/// vdirsyncer set up as its documentation tells a new user to: a configuration file with a
/// pair of a caldav storage (the Radicale calendar) and a filesystem storage (a folder of .ics
/// files), `vdirsyncer discover`, then `vdirsyncer sync`. Each command is a whole process,
/// timed from its start to its exit, as the user waits for it.
struct Vdirsyncer {
  let folder: URL
  let configuration: URL

  init(folder: URL, calendar: URL) throws {
    self.folder = folder
    configuration = folder.appendingPathComponent("config")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("calendar"), withIntermediateDirectories: true)
    try """
    [general]
    status_path = "\(folder.appendingPathComponent("status").path)/"

    [pair bench]
    a = "bench_local"
    b = "bench_remote"
    collections = null

    [storage bench_local]
    type = "filesystem"
    path = "\(folder.appendingPathComponent("calendar").path)/"
    fileext = ".ics"

    [storage bench_remote]
    type = "caldav"
    url = "\(calendar.absoluteString)"
    username = "bench"
    password = "bench"

    """.write(to: configuration, atomically: true, encoding: .utf8)
  }

  /// Seconds `vdirsyncer` with `arguments` takes, from its start to its exit (Python's own
  /// start included: the user waits for it too).
  func time(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = try Peers.python()
    process.arguments = ["-m", "vdirsyncer", "--config", configuration.path] + arguments
    // What it tells the user (a line per item copied) goes to a file, read if it fails.
    let log = folder.appendingPathComponent("log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    defer { try? logHandle.close() }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = logHandle
    process.standardError = logHandle
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    process.waitUntilExit()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard process.terminationStatus == 0 else {
      let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw ValidationError(
        "vdirsyncer \(arguments.joined(separator: " ")) failed (pip install vdirsyncer==0.21.0, "
          + "as scripts/requirements.txt pins it): \(message.suffix(2000))")
    }
    return elapsed
  }

  /// The .ics files vdirsyncer holds in its folder.
  func count() throws -> Int {
    try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("calendar").path
    ).filter { $0.hasSuffix(".ics") }.count
  }

  /// The text vdirsyncer holds of the event with `uid` (its filesystem storage names a file
  /// by the item's UID).
  func item(uid: String) -> String? {
    try? String(
      contentsOf: folder.appendingPathComponent("calendar/\(uid).ics"), encoding: .utf8)
  }
}

/// The python `caldav` client's `calendar.events()` of the calendar at `collection`: one
/// calendar-query REPORT of every event with its data, each parsed; no store. Returns the
/// seconds it took, timed inside the script (Python's start and imports left out), and the
/// events it got. Its error output goes to `log`, read if it fails.
func caldavFetch(url: URL, collection: URL, log: URL) throws -> (seconds: Double, events: Int) {
  let script = """
    import sys, time, caldav
    client = caldav.DAVClient(url=sys.argv[1], username="bench", password="bench")
    calendar = client.calendar(url=sys.argv[2])
    start = time.perf_counter()
    events = calendar.events()
    for event in events: event.icalendar_instance
    print(time.perf_counter() - start, len(events))
    """
  let process = Process()
  process.executableURL = try Peers.python()
  process.arguments = ["-c", script, url.absoluteString, collection.absoluteString]
  _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  let logHandle = try FileHandle(forWritingTo: log)
  defer { try? logHandle.close() }
  let output = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = logHandle
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
  guard process.terminationStatus == 0, fields.count == 2, let time = Double(fields[0]),
    let events = Int(fields[1])
  else {
    let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    throw ValidationError(
      "python caldav failed (pip install caldav==3.6.0, as scripts/requirements.txt pins it): "
        + message.suffix(2000))
  }
  return (time, events)
}
