import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl calendars rename ID|NAME NEW`: gives a calendar or reminder list a new title, as an
/// app would (`title`, then `saveCalendar(_:commit:)`). Its identifier stays, so apps that
/// keep it find the calendar under its new title.
struct CalendarRenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rename",
    abstract: "Give a calendar or reminder list a new title.",
    discussion: """
      Subscribed and read-only calendars are refused. A title that several calendars share \
      names none of them: give the identifier that `ekctl calendars` prints.

      Example: ekctl calendars rename Work Office
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The calendar's identifier or title.")
  var calendar: String

  @Argument(help: "Its new title.")
  var title: String

  func run() throws {
    let store = try store.open()
    let chosen = try findCalendar(calendar, in: store)
    try checkChangeable(chosen, doing: "rename")
    let old = chosen.title
    chosen.title = title
    try failing { try store.saveCalendar(chosen, commit: true) }
    printInert("Renamed \"\(old)\" to \"\(chosen.title)\".")
  }
}
