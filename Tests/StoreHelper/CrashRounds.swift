import Foundation
import OpenEventKit

/// `oek-store-helper rounds FOLDER LOG ROUNDS SIZE`: the batched writer the crash tests kill.
///
/// Each round stages SIZE one-hour events titled "Round K n" with `commit: false`, appends
/// "staged K" and their identifiers to LOG, commits them in one `commit()`, then appends
/// "committed K". The log is written straight to the file (no buffer in this process), so
/// what it says survives a SIGKILL: each staged round must afterwards be in the store whole
/// or not at all, and each committed one whole.
func crashRounds(store: EKEventStore, log path: String, rounds: Int, size: Int) throws {
  guard FileManager.default.createFile(atPath: path, contents: nil),
    let log = FileHandle(forWritingAtPath: path)
  else { fail("cannot write \(path)") }
  let start = Date(timeIntervalSince1970: 1_800_000_000)
  for round in 0..<rounds {
    var identifiers: [String] = []
    for index in 0..<size {
      let event = EKEvent(eventStore: store)
      event.calendar = store.defaultCalendarForNewEvents
      event.title = "Round \(round) \(index)"
      event.startDate = start.addingTimeInterval(TimeInterval((round * size + index) * 3600))
      event.endDate = event.startDate.addingTimeInterval(3600)
      try store.save(event, span: .thisEvent, commit: false)
      identifiers.append(event.calendarItemIdentifier)
    }
    log.write(Data((["staged \(round)"] + identifiers).joined(separator: " ").utf8 + [10]))
    try store.commit()
    log.write(Data("committed \(round)\n".utf8))
  }
}
