import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit

/// `ekctl calendars rm ID|NAME`: removes a calendar or reminder list with everything in it
/// (`removeCalendar(_:commit:)`). What it holds goes too, so a calendar that holds anything
/// is removed only once the person said yes on the terminal, or a script passed `--yes`.
struct CalendarRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rm",
    abstract: "Remove a calendar or reminder list with every event or reminder in it.",
    discussion: """
      When it holds events or reminders, asks first on a terminal; elsewhere (a script, a \
      pipe) it refuses unless --yes is given. Subscribed and read-only calendars are refused.

      Examples:
        ekctl calendars rm Work
        ekctl calendars rm 6B29FC40-CA47-1067-B31D-00DD010662DA --yes
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The calendar's identifier or title.")
  var calendar: String

  @Flag(help: "Do not ask, even when it holds events or reminders.")
  var yes = false

  func run() throws {
    let store = try store.open()
    let chosen = try findCalendar(calendar, in: store)
    try checkChangeable(chosen, doing: "remove")
    let count = store.calendarItemCount(in: chosen)
    let items = counted(count, chosen.allowedEntityTypes.contains(.event) ? "event" : "reminder")
    if count > 0, !yes {
      guard isatty(STDIN_FILENO) != 0 else {
        throw CommandError(
          "\"\(chosen.title)\" holds \(items), which would go with it; there is no terminal "
            + "to ask on, so pass --yes to remove it anyway")
      }
      // Written at once, and beside the errors, so that the output stays the outcome alone.
      FileHandle.standardError.write(
        Data(InertText.of("Delete \"\(chosen.title)\" and its \(items)? [y/N] ").utf8))
      guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
        printInert("Kept \"\(chosen.title)\".")
        return
      }
    }
    try failing { try store.removeCalendar(chosen, commit: true) }
    printInert("Removed \"\(chosen.title)\"\(count == 0 ? "" : " and its \(items)").")
  }
}
