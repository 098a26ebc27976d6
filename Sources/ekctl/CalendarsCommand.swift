import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit

/// `ekctl calendars`: the calendars and reminder lists, listed, made, renamed and removed.
/// Listing is the default subcommand, so `ekctl calendars [--json]` lists as it always has.
struct CalendarsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendars",
    abstract: "List, add, rename and remove calendars and reminder lists.",
    discussion: """
      Without a subcommand, lists them (`list`). `rename` and `rm` take a calendar's \
      identifier, as `list` prints it, or its title when no other calendar has it.

      Examples:
        ekctl calendars --json
        ekctl calendars add Work --color '#1BADF8'
        ekctl calendars add Groceries --reminders
        ekctl calendars rename Work Office
        ekctl calendars rm Office --yes
      """,
    subcommands: [
      CalendarListCommand.self, CalendarAddCommand.self, CalendarRenameCommand.self,
      CalendarRemoveCommand.self,
    ],
    defaultSubcommand: CalendarListCommand.self)
}

/// `ekctl calendars list`: every calendar and reminder list, with its source and identifier.
struct CalendarListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List calendars and reminder lists: title, kind, source, access and identifier.")

  @OptionGroup var store: StoreOptions

  @Flag(help: "Print JSON Lines instead of a table.")
  var json = false

  func run() throws {
    let store = try store.open()
    let calendars = store.calendars(for: .event) + store.calendars(for: .reminder)
    if json {
      for calendar in calendars {
        var line = JSONLine()
        line.add("title", calendar.title)
        line.add("entity", kind(of: calendar))
        line.add("source", calendar.source?.title)
        line.add("writable", calendar.allowsContentModifications)
        line.add("calendarIdentifier", calendar.calendarIdentifier)
        print(line.text)
      }
      return
    }
    // Columns in terminal columns (DisplayWidth): a title with an emoji or CJK is whole and
    // the columns after it line up.
    // Titles and sources are data (a server's displayname, an .ics file's X-WR-CALNAME):
    // measured and shown in their inert form.
    let titles = calendars.map { InertText.of($0.title) }
    let sources = calendars.map { InertText.of($0.source?.title ?? "") }
    let width = max(5, titles.map { DisplayWidth.width(of: $0) }.max() ?? 0)
    let sourceWidth = max(6, sources.map { DisplayWidth.width(of: $0) }.max() ?? 0)
    print(
      DisplayWidth.padded("title", to: width) + "  kind       "
        + DisplayWidth.padded("source", to: sourceWidth) + "  access      identifier")
    for (index, calendar) in calendars.enumerated() {
      print(
        DisplayWidth.padded(titles[index], to: width) + "  "
          + DisplayWidth.padded(kind(of: calendar), to: 9) + "  "
          + DisplayWidth.padded(sources[index], to: sourceWidth) + "  "
          + (calendar.allowsContentModifications ? "read-write" : "read-only ") + "  "
          + calendar.calendarIdentifier)
    }
  }
}
