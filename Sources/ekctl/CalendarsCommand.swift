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
        var line = JSONWriter()
        line.beginObject()
        line.member("title", calendar.title)
        line.member("entity", kind(of: calendar))
        line.member("source", calendar.source?.title)
        line.member("writable", calendar.allowsContentModifications)
        line.member("calendarIdentifier", calendar.calendarIdentifier)
        line.endObject()
        print(line.text)
      }
      return
    }
    // Titles and sources are data (a server's displayname, an .ics file's X-WR-CALNAME):
    // TextTable measures them in terminal columns and shows them inert, so a title with an
    // emoji or CJK is whole and the columns after it line up. Kind and access keep the
    // width of their longest word whatever the store holds.
    var table = TextTable(
      rows: calendars.map { calendar in
        [
          calendar.title, kind(of: calendar), calendar.source?.title ?? "",
          calendar.allowsContentModifications ? "read-write" : "read-only",
          calendar.calendarIdentifier,
        ]
      },
      header: ["title", "kind", "source", "access", "identifier"])
    table.minimumWidths = [0, "reminders".count, 0, "read-write".count]
    for line in table.lines { print(line) }
  }
}
