import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit
import Synchronization

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
    // The line comes once the reference is taken: every commit after it is reported.
    watcher.start()
    // Written straight to the file descriptor: `print` would sit in a buffer while piped.
    FileHandle.standardOutput.write(
      Data("Watching \(store.databaseFile.path) (Ctrl-C to stop)\n".utf8))
    dispatchMain()
  }
}

/// Tells each change to the store's items as it happens: OpenEventKit's `ChangeTracker` over
/// every item's last-modified stamp, asked after each `EKEventStoreChanged`. Notifications
/// that come while a report is waiting to run make no report of their own.
final class StoreWatcher: @unchecked Sendable {
  private let store: EKEventStore
  private let tracker = ChangeTracker<String, Date>(of: [.event, .reminder]) {
    $0.calendarItemStamps()
  }
  /// The titles seen, so that a removed item is named.
  private var titles: [String: String] = [:]
  private let queue = DispatchQueue(label: "ekctl.watch")
  /// Whether a report is scheduled and has not started yet.
  private let reportPending = Mutex(false)

  init(store: EKEventStore) {
    self.store = store
  }

  func start() {
    tracker.onStoreChanged = { [self] in
      let scheduled = reportPending.withLock { pending in
        defer { pending = true }
        return pending
      }
      if !scheduled { queue.async { self.report() } }
    }
    // The titles read after the reference is taken: an item added between the two has a
    // title here, and is reported as added, since the tracker's reference lacks it.
    queue.sync {
      tracker.start(with: store)
      titles = store.calendarItemTitles()
    }
  }

  private func report() {
    reportPending.withLock { $0 = false }
    let time = OccurrenceText.utc(Date())
    // Nil: no change posted since the last report (its change was told there), or no access.
    guard let changes = tracker.changes() else { return }
    let present = store.calendarItemTitles(
      of: changes.filter { $0.after != nil }.map(\.key))
    let lines = changes.map { change in
      guard change.after != nil else {
        let title = titles.removeValue(forKey: change.key) ?? ""
        return InertText.of("\(time) removed \"\(title)\" \(change.key)")
      }
      let title = present[change.key] ?? ""
      titles[change.key] = title
      return InertText.of(
        "\(time) \(change.before == nil ? "added" : "changed") \"\(title)\" \(change.key)")
    }
    // Written at once, line by line, so that a pipe reader sees each change as it happens.
    let text =
      lines.isEmpty ? "\(time) changed (calendars or settings)" : lines.joined(separator: "\n")
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
