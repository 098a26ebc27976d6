import ArgumentParser
import Foundation
import OpenEventKit

/// `ekctl watch`: a line for every change to the store, by any process, until interrupted.
struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Print a line for each item added, changed or removed, by any app.",
    discussion: """
      Each line is the time (UTC), what happened, the title and the identifier. Stop with \
      Ctrl-C.
      """)

  @OptionGroup var store: StoreOptions

  func run() throws {
    let store = try store.open()
    let watcher = StoreWatcher(store: store)
    // Written straight to the file descriptor: `print` would sit in a buffer while piped.
    FileHandle.standardOutput.write(
      Data("Watching \(store.databaseFile.path) (Ctrl-C to stop)\n".utf8))
    watcher.start()
    dispatchMain()
  }
}

/// Compares the store's items after each `EKEventStoreChanged` with what it saw before.
final class StoreWatcher: @unchecked Sendable {
  private let store: EKEventStore
  private var stamps: [String: Date]
  private var titles: [String: String] = [:]
  private let queue = DispatchQueue(label: "ekctl.watch")
  private var observer: (any NSObjectProtocol)?

  init(store: EKEventStore) {
    self.store = store
    stamps = store.calendarItemStamps()
    for id in stamps.keys { titles[id] = store.calendarItem(withIdentifier: id)?.title }
  }

  func start() {
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [self] _ in
      queue.async { self.report() }
    }
  }

  private func report() {
    let now = store.calendarItemStamps()
    let time = OccurrenceText.utc(Date())
    var lines: [String] = []
    for (id, stamp) in now.sorted(by: { $0.key < $1.key }) {
      guard stamps[id] != stamp else { continue }
      let title = store.calendarItem(withIdentifier: id)?.title ?? ""
      lines.append("\(time) \(stamps[id] == nil ? "added" : "changed") \"\(title)\" \(id)")
      titles[id] = title
    }
    for id in stamps.keys.sorted() where now[id] == nil {
      lines.append("\(time) removed \"\(titles.removeValue(forKey: id) ?? "")\" \(id)")
    }
    if lines.isEmpty { lines.append("\(time) changed (calendars or settings)") }
    stamps = now
    // Written at once, line by line, so that a pipe reader sees each change as it happens.
    FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
  }
}
