import OpenEventKit

// `ekbench-cold-open FOLDER FROM TO`: an app's cold open, spawned by `ekbench store --only
// cold-open`, which times it from spawn to exit. A program of its own, linking OpenEventKit and
// nothing else, so that the figure is what an app pays at start (the loader, the runtime's
// first conformance scans over the program's records), not what ekbench links. It opens the
// store in FOLDER as an app does and fetches the events between FROM and TO (seconds since
// 1970), then prints their count and the milliseconds from `EKEventStore(folder:)` to them.
let arguments = CommandLine.arguments
guard arguments.count == 4, let from = Double(arguments[2]), let to = Double(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: ekbench-cold-open FOLDER FROM TO\n".utf8))
  exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
// `EKEventStore(folder:)` makes a missing store: a wrong folder would time an empty one.
guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Calendar.sqlite").path)
else {
  FileHandle.standardError.write(
    Data("ekbench-cold-open: no Calendar.sqlite in \(folder.path)\n".utf8))
  exit(1)
}
let clock = ContinuousClock()
let began = clock.now
let store = EKEventStore(folder: folder)
let month = store.predicateForEvents(
  withStart: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to), calendars: nil
)
let events = store.events(matching: month)
let elapsed = began.duration(to: clock.now).components
print(
  events.count,
  String(format: "%.3f", Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15))
