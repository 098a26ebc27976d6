// `oek-store-helper lifetimes FOLDER COUNT observe|quiet`: COUNT stores made and dropped one
// after another on the main thread, which stays busy the whole time, as the main thread of a
// command-line tool or of a REPL reading its input does (it never returns to the main queue,
// so the main actor never runs). Each store, in a folder of its own inside FOLDER, commits a
// reminder and is dropped once it has posted `EKEventStoreChanged` for it (up to 20 s), with
// an observer of its own first (`observe`, removed before) or none (`quiet`). Then it prints
//
//   store K freed|alive inotify N
//
// `freed` when the store was freed within 10 s of being dropped, and N the inotify instances
// the process holds then (each store's change watcher has one, and a user may have 128:
// `fs.inotify.max_user_instances`). First it prints "inotify N" for the process before any
// store. A store kept alive keeps its instance: a process that makes stores one after
// another runs out, and its stores stop posting.
import Foundation
import OpenEventKit
import Synchronization

func runStoreLifetimes(_ arguments: [String]) {
  guard arguments.count == 4, let count = Int(arguments[2]),
    ["observe", "quiet"].contains(arguments[3])
  else { fail("lifetimes FOLDER COUNT observe|quiet") }
  // Which stores posted, by identity: an observer of every store, so that it holds none.
  let posted = Mutex<Set<ObjectIdentifier>>([])
  let everyStore = NotificationCenter.default.addObserver(
    forName: .EKEventStoreChanged, object: nil, queue: nil
  ) { notification in
    guard let store = notification.object as? EKEventStore else { return }
    _ = posted.withLock { $0.insert(ObjectIdentifier(store)) }
  }
  defer { NotificationCenter.default.removeObserver(everyStore) }
  let before = inotifyInstances()
  say("inotify \(before)")
  for index in 0..<count {
    // A new store may have the address of a freed one.
    posted.withLock { $0.removeAll() }
    let folder = URL(fileURLWithPath: arguments[1]).appendingPathComponent("store-\(index)")
    let dropped = madeAndDropped(folder, observe: arguments[3] == "observe") { store in
      waitUntil(seconds: 20) { posted.withLock { $0.contains(ObjectIdentifier(store)) } }
    }
    let freed = waitUntil(seconds: 10) { dropped.store == nil }
    // A freed store's watcher closes its instance on its queue, a moment later.
    waitUntil(seconds: freed ? 10 : 0) { inotifyInstances() == before }
    say("store \(index) \(freed ? "freed" : "alive") inotify \(inotifyInstances())")
  }
}

/// A weak reference to a store that was dropped.
final class DroppedStore {
  weak var store: EKEventStore?
}

/// A store made in `folder` (with full access to reminders), which commits a reminder, waits
/// for `posted` and is dropped: the weak reference left.
private func madeAndDropped(
  _ folder: URL, observe: Bool, posted: (EKEventStore) -> Bool
) -> DroppedStore {
  let dropped = DroppedStore()
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try PrivacySettings(folder: folder).set(
      .fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: .reminder)
    let store = EKEventStore(folder: folder)
    dropped.store = store
    let own =
      observe
      ? NotificationCenter.default.addObserver(
        forName: .EKEventStoreChanged, object: store, queue: nil
      ) { _ in }
      : nil
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = store.defaultCalendarForNewReminders()
    reminder.title = "Milk"
    try store.save(reminder, commit: true)
    guard posted(store) else { fail("\(folder.path): no EKEventStoreChanged in 20 s") }
    own.map(NotificationCenter.default.removeObserver)
  } catch {
    fail("\(folder.path): \(error)")
  }
  return dropped
}

/// Whether `condition` came true within `seconds`, looked at every 10 ms.
@discardableResult
private func waitUntil(seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    guard Date() < deadline else { return false }
    usleep(10_000)
  }
  return true
}

/// The inotify instances this process holds: its descriptors that are one.
private func inotifyInstances() -> Int {
  let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return descriptors.filter {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))
      == "anon_inode:inotify"
  }.count
}
