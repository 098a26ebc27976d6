// oek-store-helper: another process on the same calendar database, for the tests that need
// one. It uses only the public API, as any app would.
//
//   oek-store-helper add FOLDER TITLE COUNT START   saves COUNT one-hour events, an hour apart,
//                                                 from START (ISO 8601), each committed alone
//   oek-store-helper batch FOLDER TITLE COUNT START the same, staged and committed once
//   oek-store-helper rounds FOLDER LOG ROUNDS SIZE  ROUNDS batches of SIZE events, each logged
//                                                 to LOG before and after its commit
//                                                 (CrashRounds.swift)
//   oek-store-helper read FOLDER TITLE SIZE SECONDS reads the events titled "TITLE n" in a
//                                                 loop for SECONDS (or until a file
//                                                 "stop-readers" is in FOLDER), and prints
//                                                 "torn COUNT"
//                                                 each time their count is not a multiple of
//                                                 SIZE (a batch seen in part), then "reads N"
//   oek-store-helper watch FOLDER SECONDS          prints "changed" on each EKEventStoreChanged
//                                                 and exits after SECONDS
//   oek-store-helper watch-main FOLDER SECONDS     the same as an app: queue: .main, a
//                                                 fetch in the block, the main run loop
//                                                 running (MainQueueWatch.swift)
//   oek-store-helper probe FOLDER EVENT_ID REMINDER_ID
//                                                 tries every store call and prints one
//                                                 "call=result" line for each
//   oek-store-helper present FOLDER yes|no         asks for full access to events through an
//                                                 installed presenter that prints "asked: "
//                                                 and the alert's title, and answers
//   oek-store-helper request FOLDER full|write-only|reminders
//                                                 asks for access (its Info.plist, in its
//                                                 resource bundle, names it), prints
//                                                 "granted", "refused" or "error: …"
//   oek-store-helper hostile FOLDER CASE           one save or query that once trapped
//                                                 (HostileSaves.swift), prints its outcome
//   oek-store-helper privacy-probe FOLDER event=ID series=ID reminder=ID completed=ID
//       calendar=ID work=ID old=ID list=ID         every store call once, one "call=result"
//                                                 line each (PrivacyProbe.swift)
//   oek-store-helper probe-loop FOLDER EVENT_ID    reads and writes every 50 ms until its
//                                                 input ends, one "tick …" line each
//                                                 (ProbeLoop.swift)
//   oek-store-helper lifetimes FOLDER COUNT observe|quiet
//                                                 COUNT stores made and dropped by a busy
//                                                 main thread, one "store K freed|alive
//                                                 inotify N" line each (StoreLifetimes.swift)
//   oek-store-helper refresh FOLDER COUNT          COUNT stores each call
//                                                 refreshSourcesIfNecessary() once (asking
//                                                 the sync agent), then prints "refreshed"
import Foundation
import OpenEventKit

/// Writes a line to standard output at once, so that a test reading the pipe sees it.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("oek-store-helper: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first, arguments.count >= 3 else {
  fail("usage: add|batch FOLDER TITLE COUNT START, or watch FOLDER SECONDS")
}
if command == "lifetimes" {
  // Before the store of the other commands, which would hold an inotify instance of its own.
  runStoreLifetimes(Array(arguments))
  exit(0)
}
let store = EKEventStore(folder: URL(fileURLWithPath: Array(arguments)[1]))

switch command {
case "add", "batch":
  let values = Array(arguments)
  guard values.count == 5, let count = Int(values[3]),
    let start = ISO8601DateFormatter().date(from: values[4])
  else { fail("add|batch FOLDER TITLE COUNT START") }
  do {
    for index in 0..<count {
      let event = EKEvent(eventStore: store)
      event.calendar = store.defaultCalendarForNewEvents
      event.title = "\(values[2]) \(index)"
      event.startDate = start.addingTimeInterval(TimeInterval(index * 3600))
      event.endDate = event.startDate.addingTimeInterval(3600)
      try store.save(event, span: .thisEvent, commit: command == "add")
    }
    try store.commit()
  } catch {
    fail("\(error)")
  }
case "rounds":
  let values = Array(arguments)
  guard values.count == 5, let rounds = Int(values[3]), let size = Int(values[4]) else {
    fail("rounds FOLDER LOG ROUNDS SIZE")
  }
  do { try crashRounds(store: store, log: values[2], rounds: rounds, size: size) } catch {
    fail("\(error)")
  }
case "read":
  let values = Array(arguments)
  guard values.count == 5, let size = Int(values[3]), let seconds = Double(values[4]) else {
    fail("read FOLDER TITLE SIZE SECONDS")
  }
  let end = Date().addingTimeInterval(seconds)
  var reads = 0
  let window = store.predicateForEvents(
    withStart: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_000_000_000),
    calendars: nil)
  let stop = URL(fileURLWithPath: values[1]).appendingPathComponent("stop-readers").path
  while Date() < end, !FileManager.default.fileExists(atPath: stop) {
    let count = store.events(matching: window).filter {
      $0.title?.hasPrefix(values[2] + " ") == true
    }.count
    if count % size != 0 { say("torn \(count)") }
    reads += 1
  }
  say("reads \(reads)")
case "watch":
  guard let seconds = Double(Array(arguments)[2]) else { fail("watch FOLDER SECONDS") }
  let observer = NotificationCenter.default.addObserver(
    forName: .EKEventStoreChanged, object: store, queue: nil
  ) { _ in
    say("changed")
  }
  say("watching")
  Thread.sleep(forTimeInterval: seconds)
  NotificationCenter.default.removeObserver(observer)
case "probe":
  let values = Array(arguments)
  guard values.count == 4 else { fail("probe FOLDER EVENT_ID REMINDER_ID") }
  let start = ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!
  let end = ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")!
  say("event-calendars=\(store.calendars(for: .event).count)")
  say("reminder-calendars=\(store.calendars(for: .reminder).count)")
  say("source-calendars=\(store.sources.map { $0.calendars(for: .event).count }.reduce(0, +))")
  say("default-calendar=\(store.defaultCalendarForNewEvents?.title ?? "nil")")
  let predicate = store.predicateForEvents(withStart: start, end: end, calendars: nil)
  say("events=\(store.events(matching: predicate).count)")
  var enumerated = 0
  store.enumerateEvents(matching: predicate) { _, _ in enumerated += 1 }
  say("enumerated=\(enumerated)")
  say("event-lookup=\(store.event(withIdentifier: values[2]) == nil ? "nil" : "found")")
  say("item-lookup=\(store.calendarItem(withIdentifier: values[3]) == nil ? "nil" : "found")")
  say("reminders=\(reminderCount(store, store.predicateForReminders(in: nil)))")
  say(
    "save-new-event="
      + outcome {
        let event = EKEvent(eventStore: store)
        event.calendar = store.defaultCalendarForNewEvents ?? store.calendars(for: .event).first
        event.title = "Probe"
        event.startDate = start
        event.endDate = start.addingTimeInterval(600)
        try store.save(event, span: .thisEvent)
      })
  say(
    "save-new-reminder="
      + outcome {
        let reminder = EKReminder(eventStore: store)
        reminder.calendar = store.defaultCalendarForNewReminders()
        reminder.title = "Probe"
        try store.save(reminder, commit: true)
      })
  say(
    "new-calendar="
      + outcome {
        let calendar = EKCalendar(for: .event, eventStore: store)
        calendar.title = "Probe"
        calendar.source = store.sources.first
        try store.saveCalendar(calendar, commit: true)
      })
case "present":
  // An app's own presenter, as the samples install one over their REPL.
  struct Presenter: AccessPromptPresenter {
    let answer: Bool
    func present(_ request: AccessPromptRequest) -> Bool? {
      say("asked: \(request.title) [\(request.choices.allow) / \(request.choices.deny)]")
      return answer
    }
  }
  EKEventStore.accessPromptPresenter = Presenter(answer: Array(arguments)[2] == "yes")
  let presented = DispatchSemaphore(value: 0)
  store.requestFullAccessToEvents { granted, error in
    say(error.map { "error: \($0.localizedDescription)" } ?? (granted ? "granted" : "refused"))
    presented.signal()
  }
  presented.wait()
case "request":
  let kind = Array(arguments)[2]
  let done = DispatchSemaphore(value: 0)
  let answer: EKEventStoreRequestAccessCompletionHandler = { granted, error in
    if let error {
      say("error: \(error.localizedDescription)")
    } else {
      say(granted ? "granted" : "refused")
    }
    done.signal()
  }
  switch kind {
  case "full": store.requestFullAccessToEvents(completion: answer)
  case "write-only": store.requestWriteOnlyAccessToEvents(completion: answer)
  case "reminders": store.requestFullAccessToReminders(completion: answer)
  case "deprecated":
    (store as any OldStyleAccessRequest).requestAccess(to: .event, completion: answer)
  default: fail("request FOLDER full|write-only|reminders|deprecated")
  }
  done.wait()
case "refresh":
  guard let count = Int(Array(arguments)[2]) else { fail("refresh FOLDER COUNT") }
  store.refreshSourcesIfNecessary()
  for _ in 1..<max(1, count) {
    EKEventStore(folder: URL(fileURLWithPath: Array(arguments)[1])).refreshSourcesIfNecessary()
  }
  say("refreshed")
case "hostile": runHostile(store, Array(arguments))
case "privacy-probe": runPrivacyProbe(store, Array(arguments))
case "probe-loop": runProbeLoop(store, Array(arguments))
case "watch-main": runMainQueueWatch(store, Array(arguments))
default:
  fail("unknown command \(command)")
}

/// How code from before iOS 17 asks (`requestAccess(to:completion:)`), called through a
/// protocol as such code's own wrappers do, so that its deprecation stays out of this build.
protocol OldStyleAccessRequest {
  func requestAccess(
    to entityType: EKEntityType, completion: @escaping EKEventStoreRequestAccessCompletionHandler)
}

extension EKEventStore: OldStyleAccessRequest {}
