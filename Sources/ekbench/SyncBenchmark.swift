import ArgumentParser
import CalDAV
import Foundation
import OpenEventKit
import OpenEventKitSync
import Synchronization

/// `ekbench sync`: CalDAV sync against a real Radicale started on 127.0.0.1 — the first sync of
/// a calendar of 10,000 events into a new store, and a sync of 10 changes made on the server —
/// beside the clients people use on the same server and calendar in the same run: the python
/// `caldav` client fetching the calendar, and vdirsyncer syncing it into a folder.
struct SyncBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Time a first sync of 10,000 events from Radicale, and a sync of 10 changes.",
    discussion: """
      Needs Radicale, and the peers' packages: caldav, vdirsyncer (scripts/requirements.txt \
      pins them; OPENEVENTKIT_PYTHON names the Python that has them).
      """)

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Events on the server.")
  var events = 10_000

  @Option(help: "Changes made on the server before the incremental sync.")
  var changes = 10

  @Option(help: "Runs of the incremental sync; the best counts.")
  var runs = 5

  @Option(
    help: ArgumentHelp(
      "Radicale's log of each request (its time, size and client) to this file.",
      discussion: "scripts/radicale-request-times sums it by client and request kind."))
  var serverLog: String?

  @Option(
    help: ArgumentHelp(
      "A folder keeping Radicale's seeded and indexed storage of each size between runs.",
      discussion: """
        The first run of a size seeds and indexes it there (Radicale's --verify-storage: \
        about 20 minutes for 100,000 events on a loaded 2-core machine); later runs copy it \
        (seconds). A copy is the same server state: the same files and the same cache.
        """))
  var seededStorage: String?

  @Option(
    help: ArgumentHelp(
      "The most events Radicale puts in one report's calendar data (default: --events, at least 10,000).",
      discussion: """
        Radicale's [reporting] max_expand_occurrence, 10,000 unless set: it refuses with 400 \
        any report (sync-collection, calendar-query, calendar-multiget) whose calendar data \
        holds more, after making it. Raised to --events by default so that every client can \
        fetch a calendar of 100,000 its own way; 10000 gives Radicale's default.
        """))
  var reportLimit: Int?

  @Option(
    name: .customLong("peer"),
    help: "A client timed beside ours: caldav, vdirsyncer, or none (repeatable).")
  var peers: [SyncPeer] = [.caldav, .vdirsyncer]

  func validate() throws {
    if peers.contains(.none), peers.count > 1 {
      throw ValidationError("--peer none leaves out the others; give it alone")
    }
    guard events >= changes * runs, changes > 0, runs > 0 else {
      throw ValidationError("--events must be at least --changes × --runs, both above 0")
    }
  }

  func run() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("ekbench-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let seedStart = DispatchTime.now().uptimeNanoseconds
    let server = try Radicale(
      folder: root, events: events, log: serverLog.map { URL(fileURLWithPath: $0) },
      seeded: seededStorage.map { URL(fileURLWithPath: $0) },
      reportLimit: reportLimit ?? max(events, 10_000))
    defer { server.stop() }
    let seeded = Double(DispatchTime.now().uptimeNanoseconds - seedStart) / 1e9
    printFigures(
      json: json, "server-seed",
      ["seconds": (seeded * 10).rounded() / 10, "copied": server.copiedSeed ? 1 : 0],
      server.copiedSeed
        ? "\(events) files and Radicale's index of them copied from --seeded-storage"
        : "\(events) files written into Radicale's folder and indexed by it (not a client's time)"
    )

    let database = root.appendingPathComponent("store/Calendar.sqlite")
    try FileManager.default.createDirectory(
      at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
    _ = try EKEventStore(ownerOf: database, create: true)
    let accounts = try CalDAVAccounts(databaseFile: database)
    let (url, collection) = (server.url, server.collection)
    try wait {
      _ = try await accounts.add(url: url, user: "bench", password: "bench", name: "bench")
    }
    var received = 0
    server.mark("sync-initial")
    resetPeakMemory()
    let cpuBefore = processorSeconds()
    let serverBefore = server.processorSeconds()
    let first = try seconds {
      received = try wait { try await accounts.sync(named: "bench").first?.received ?? 0 }
    }
    // What this process spent of the wall time; the rest is waiting for the server.
    let processor = processorSeconds() - cpuBefore
    // What Radicale spent answering it, whatever else the machine runs.
    let serverProcessor = server.processorSeconds() - serverBefore
    guard received == events else {
      throw ValidationError("the first sync received \(received) of \(events) events")
    }
    let ours = Double(events) / first
    printFigures(
      json: json, "sync-initial",
      [
        "perSecond": ours.rounded(), "seconds": (first * 100).rounded() / 100,
        "clientSeconds": (processor * 100).rounded() / 100,
        "clientPercent": (processor / first * 100).rounded(),
        "serverSeconds": (serverProcessor * 100).rounded() / 100,
        "peakMB": (Double(residentMemory().peak) / 1_048_576).rounded(),
      ],
      "ours: \(events) events from Radicale into a new store: the sync token by PROPFIND, "
        + "a calendar-query of every event with its data, writes; serverSeconds: Radicale's "
        + "processor time answering it")

    if peers.contains(.caldav) {
      server.mark("python-caldav")
      let python = try caldavFetch(
        url: url, collection: collection, log: root.appendingPathComponent("caldav.log"))
      guard python.events == events else {
        throw ValidationError("python caldav fetched \(python.events) of \(events) events")
      }
      let perSecond = Double(events) / python.seconds
      printFigures(
        json: json, "python-caldav",
        [
          "perSecond": perSecond.rounded(), "seconds": (python.seconds * 100).rounded() / 100,
          "oursRatio": (ours / perSecond * 100).rounded() / 100,
        ],
        "python caldav: the same \(events) events fetched and parsed (no store); ours ÷ it")
    }

    var vdirsyncer: Vdirsyncer?
    if peers.contains(.vdirsyncer) {
      server.mark("vdirsyncer")
      let peer = try Vdirsyncer(
        folder: root.appendingPathComponent("vdirsyncer"), calendar: collection)
      let discover = try peer.time(["discover"])
      let serverBefore = server.processorSeconds()
      let sync = try peer.time(["sync"])
      let serverProcessor = server.processorSeconds() - serverBefore
      let copied = try peer.count()
      guard copied == events else {
        throw ValidationError("vdirsyncer's first sync copied \(copied) of \(events) events")
      }
      let perSecond = Double(events) / sync
      printFigures(
        json: json, "vdirsyncer-initial",
        [
          "perSecond": perSecond.rounded(), "seconds": (sync * 100).rounded() / 100,
          "discoverSeconds": (discover * 100).rounded() / 100,
          "serverSeconds": (serverProcessor * 100).rounded() / 100,
          "oursRatio": (ours / perSecond * 100).rounded() / 100,
        ],
        "vdirsyncer sync (a process, wall time) into a folder of .ics; discover apart; "
          + "serverSeconds: Radicale's processor time answering it; ours ÷ it")
      vdirsyncer = peer
    }

    server.mark("sync-changes")
    var best = (wall: Double.infinity, processor: Double.infinity)
    var peerBest = Double.infinity
    for run in 0..<runs {
      let changes = self.changes
      try wait {
        let client = try CalDAVClient(baseURL: url, user: "bench", password: "bench")
        for index in 0..<changes {
          let uid = "bench-\(run * changes + index)"
          let target = collection.appendingPathComponent("\(uid).ics")
          _ = try await client.put(
            target,
            data: Data(Radicale.event(uid: uid, index: index, title: "Changed \(run)").utf8),
            ifMatch: try await client.etag(target))
        }
        await client.shutdown()
      }
      var got = 0
      let cpuBefore = processorSeconds()
      let time = try seconds {
        got = try wait { try await accounts.sync(named: "bench").first?.received ?? 0 }
      }
      let processor = processorSeconds() - cpuBefore
      guard got == changes else {
        throw ValidationError("an incremental sync received \(got) of \(changes) changes")
      }
      best = (min(best.wall, time), min(best.processor, processor))
      if let vdirsyncer {
        peerBest = min(peerBest, try vdirsyncer.time(["sync"]))
        let uid = "bench-\(run * changes + changes - 1)"
        guard vdirsyncer.item(uid: uid)?.contains("SUMMARY:Changed \(run)") == true else {
          throw ValidationError("vdirsyncer's sync did not bring the change of \(uid)")
        }
      }
    }
    printFigures(
      json: json, "sync-changes",
      [
        "millis": (best.wall * 1000 * 10).rounded() / 10,
        "clientMillis": (best.processor * 1000 * 10).rounded() / 10,
      ],
      "ours: \(changes) events changed on the server, then one sync (best of \(runs))")
    if vdirsyncer != nil {
      printFigures(
        json: json, "vdirsyncer-changes",
        [
          "millis": (peerBest * 1000).rounded(),
          "oursRatio": (peerBest / best.wall * 100).rounded() / 100,
        ],
        "vdirsyncer sync after the same changes (best of \(runs)); its time ÷ ours")
    }

    // The server's own share: one sync-collection report with a current token, which finds
    // nothing new — the least any client's incremental sync asks of it.
    server.mark("server-sync-report")
    let report = try wait {
      let client = try CalDAVClient(baseURL: url, user: "bench", password: "bench")
      do {
        let token = try await client.syncCollection(collection, token: nil).token
        var best = Double.infinity
        for _ in 0..<runs {
          let start = DispatchTime.now().uptimeNanoseconds
          _ = try await client.syncCollection(collection, token: token)
          best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        await client.shutdown()
        return best
      } catch {
        await client.shutdown()
        throw error
      }
    }
    printFigures(
      json: json, "server-sync-report", ["millis": (report * 1000 * 10).rounded() / 10],
      "Radicale alone: one sync-collection report of no changes (best of \(runs))")
  }

  /// Runs async work from this synchronous command and waits for its result.
  @discardableResult
  private func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let result: Result<T, any Error>
      do { result = .success(try await body()) } catch { result = .failure(error) }
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    guard let result = outcome.withLock({ $0 }) else { throw CancellationError() }
    return try result.get()
  }
}

/// Radicale on a free port of 127.0.0.1, its storage seeded with one calendar of `events`
/// events written straight into its folder (Radicale reads what its folder holds).
final class Radicale {
  let url: URL
  let collection: URL
  /// The storage was copied from a seeded one (`seeded`), not seeded and indexed here.
  let copiedSeed: Bool
  private let process: Process
  private let logging: Bool

  /// `log`, when given, receives Radicale's record of each request (at its `info` level:
  /// method, path, client, seconds and bytes). `seeded`, when given, keeps the seeded and
  /// indexed storage of each size: copied from there when it has one, kept there otherwise.
  init(
    folder: URL, events: Int, log: URL? = nil, seeded: URL? = nil, reportLimit: Int = 10_000
  ) throws {
    let storage = folder.appendingPathComponent("radicale")
    // Named by the size and the events' text: a change to `event` seeds again.
    let kept = seeded?.appendingPathComponent(
      "radicale-\(events)-\(Self.digest(Self.event(uid: "bench-1", index: 1, title: "Event 1")))")
    let copy =
      kept.map {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("complete").path)
      } ?? false
    copiedSeed = copy
    if let kept, copy {
      try Self.copy(kept.appendingPathComponent("radicale"), to: storage)
    } else {
      try Self.seed(storage, events: events)
    }
    try "bench:bench\n".write(
      to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
    let port = try Self.freePort()
    let config = folder.appendingPathComponent("config")
    try """
    [server]
    hosts = 127.0.0.1:\(port)
    [auth]
    type = htpasswd
    htpasswd_filename = \(folder.appendingPathComponent("users").path)
    htpasswd_encryption = plain
    [storage]
    filesystem_folder = \(storage.path)
    [reporting]
    max_expand_occurrence = \(reportLimit)
    [logging]
    level = \(log == nil ? "warning" : "info")
    """.write(to: config, atomically: true, encoding: .utf8)
    // Radicale parses and indexes a collection's files on its first listing (minutes for
    // 10,000): that is the server's cost, paid before anything is timed by its own
    // `--verify-storage`, which fills the index.
    let verify = Process()
    verify.executableURL = try Peers.python()
    verify.arguments = ["-m", "radicale", "--config", config.path, "--verify-storage"]
    verify.standardOutput = FileHandle.nullDevice
    verify.standardError = FileHandle.nullDevice
    if !copy {
      try verify.run()
      verify.waitUntilExit()
      guard verify.terminationStatus == 0 else {
        throw ValidationError("Radicale could not read its storage (pip install radicale==3.9.0)")
      }
      if let kept {
        // Kept whole or not at all: copied beside, renamed, then marked complete.
        try? FileManager.default.removeItem(at: kept)
        let partial = kept.appendingPathExtension("partial")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Self.copy(storage, to: partial.appendingPathComponent("radicale"))
        try FileManager.default.moveItem(at: partial, to: kept)
        try Data().write(to: kept.appendingPathComponent("complete"))
      }
    }
    process = Process()
    process.executableURL = try Peers.python()
    process.arguments = ["-m", "radicale", "--config", config.path]
    process.standardOutput = FileHandle.nullDevice
    if let log {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: log)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    logging = log != nil
    url = URL(string: "http://127.0.0.1:\(port)/")!
    collection = URL(string: "http://127.0.0.1:\(port)/bench/bench/")!
    let deadline = Date().addingTimeInterval(20)
    while !Self.answers(port) {
      guard process.isRunning, Date() < deadline else {
        stop()
        throw ValidationError("Radicale did not start (pip install radicale==3.9.0)")
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  /// One calendar of `events` events written straight into Radicale's storage folder, one
  /// file at a time (nothing held but the file being written), its cache empty.
  private static func seed(_ storage: URL, events: Int) throws {
    let calendar = storage.appendingPathComponent("collection-root/bench/bench", isDirectory: true)
    try FileManager.default.createDirectory(at: calendar, withIntermediateDirectories: true)
    try
      #"{"tag": "VCALENDAR", "D:displayname": "Bench", "C:supported-calendar-component-set": "VEVENT"}"#
      .write(
        to: calendar.appendingPathComponent(".Radicale.props"), atomically: true, encoding: .utf8)
    for index in 0..<events {
      let uid = "bench-\(index)"
      try Self.event(uid: uid, index: index, title: "Event \(index)")
        .write(
          to: calendar.appendingPathComponent("\(uid).ics"), atomically: false, encoding: .utf8)
    }
  }

  /// `source` copied to `target` (which must not exist) with `cp -a`: files, Radicale's
  /// cache and their times, without the lock file of a Radicale that ran there.
  private static func copy(_ source: URL, to target: URL) throws {
    let cp = Process()
    cp.executableURL = URL(fileURLWithPath: "/bin/cp")
    cp.arguments = ["-a", source.path, target.path]
    try cp.run()
    cp.waitUntilExit()
    guard cp.terminationStatus == 0 else {
      throw ValidationError("could not copy \(source.path) to \(target.path)")
    }
    try? FileManager.default.removeItem(at: target.appendingPathComponent(".Radicale.lock"))
  }

  /// FNV-1a of `text`, in hex: a name that changes when the text does.
  private static func digest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }

  /// The processor seconds Radicale's process has spent so far (user and system, from
  /// /proc/PID/stat), 0 where that cannot be read.
  func processorSeconds() -> Double {
    guard
      let stat = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return 0 }
    // After the command's ")": state is field 3; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// With a log, a mark in it that the benchmark's `phase` starts: a request for
  /// `/ekbench-phase/<phase>` (answered 404, logged as any other), which
  /// scripts/radicale-request-times splits the log by. Nothing without a log.
  func mark(_ phase: String) {
    guard logging else { return }
    let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(url.port ?? 80).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else { return }
    let request = Array(
      "OPTIONS /ekbench-phase/\(phase) HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: ekbench\r\n\r\n"
        .utf8)
    guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count
    else { return }
    // The answer read to its end: the mark is in the log before the phase's first request.
    var buffer = [UInt8](repeating: 0, count: 4096)
    while recv(socket, &buffer, buffer.count, 0) > 0 {}
  }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }

  /// One event resource: a zoned hour a day with its VTIMEZONE (RFC 5545 §3.6.5 asks for
  /// one per TZID), every fifth with an alarm.
  static func event(uid: String, index: Int, title: String) -> String {
    let day = Date(timeIntervalSince1970: 1_767_225_600 + TimeInterval(index % 3650) * 86_400)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd"
    let date = formatter.string(from: day)
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ekbench//EN", "BEGIN:VTIMEZONE",
      "TZID:Europe/Paris", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
      "TZNAME:CEST", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
      "END:DAYLIGHT", "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET",
      "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
      "END:VTIMEZONE", "BEGIN:VEVENT", "UID:\(uid)",
      "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Paris:\(date)T100000",
      "DTEND;TZID=Europe/Paris:\(date)T110000", "SUMMARY:\(title)",
      "LOCATION:Room \(index % 40)", "DESCRIPTION:Generated event \(index)",
    ]
    if index % 5 == 0 {
      lines += [
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(title)", "TRIGGER:-PT15M", "END:VALARM",
      ]
    }
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  private static func freePort() throws -> Int {
    let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw ValidationError("no free port on 127.0.0.1") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func answers(_ port: Int) -> Bool {
    let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
