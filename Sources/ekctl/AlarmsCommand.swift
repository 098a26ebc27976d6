import ArgumentParser
import Foundation
import OpenEventKit

/// `ekctl alarms`: when the store's alarms fire (OpenEventKit.docc/Alarms.md).
struct AlarmsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "alarms",
    abstract: "List the alarms that fire in a window.",
    discussion: """
      Each line is one firing: when it fires (on your clock), the event or reminder, its \
      calendar, the alarm in words, and the firing's identifier. A repeating event's relative \
      alarm fires for each occurrence (a detached occurrence by its own time, a removed one \
      not at all); a reminder's fires from its due date, and not once it is completed; an \
      absolute alarm fires once. The window is [--from, --to): from now to seven days later \
      unless given. Location alarms need your position, which OpenEventKit does not have: \
      they never fire, and are listed after the others as such.

      With --json each firing is one JSON object per line, in firing order, its times in UTC \
      with Z; then each location alarm, with "trigger":"location" and no fireDate.

      Example: ekctl alarms --from 2025-03-01 --to 2025-03-08 --json
      """)

  @OptionGroup var store: StoreOptions

  @Option(help: "The start of the window (default: now).")
  var from: DateArgument?

  @Option(help: "The end of the window, exclusive (default: seven days after the start).")
  var to: DateArgument?

  @Option(help: "Only alarms of the calendar or reminder list with this title.")
  var calendar: String?

  @Flag(help: "Print JSON Lines.")
  var json = false

  /// The window the options name.
  var window: (start: Date, end: Date) {
    let start = from?.date ?? Date()
    return (start, to?.date ?? start.addingTimeInterval(7 * 86_400))
  }

  func validate() throws {
    guard window.start < window.end else {
      throw ValidationError("--to must come after --from.")
    }
  }

  func run() throws {
    let store = try store.open()
    let chosen = try calendar.map { try calendars(titled: $0, in: store) }
    let firings = store.alarmFirings(from: window.start, to: window.end, calendars: chosen)
    let located = store.locationAlarmItems(calendars: chosen)
    if json {
      for firing in firings { print(AlarmText.jsonLine(firing)) }
      for item in located { print(AlarmText.jsonLine(locationAlarmOf: item)) }
      return
    }
    if firings.isEmpty { print("No alarm fires in that window.") }
    for firing in firings { print(AlarmText.textLine(firing)) }
    guard !located.isEmpty else { return }
    print("")
    print(
      "Location alarms, which fire on arriving or leaving: OpenEventKit has no position, so "
        + "these never fire:")
    for item in located { print(AlarmText.textLine(locationAlarmOf: item)) }
  }
}
