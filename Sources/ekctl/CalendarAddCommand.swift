import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl calendars add NAME`: makes a calendar, or a reminder list, as an EventKit app makes
/// one (`EKCalendar(for:eventStore:)`, then `saveCalendar(_:commit:)`), so that apps watching
/// the store hear of it like of any other change.
struct CalendarAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Make a calendar, or a reminder list with --reminders.",
    discussion: """
      It goes to the source --source names (by title or identifier), else to the source of \
      the default calendar (or reminder list), else to Local. A calendar made in a CalDAV \
      account is made on the server at its next sync. Prints the new calendar's identifier.

      Examples:
        ekctl calendars add Work --color '#1BADF8'
        ekctl calendars add Groceries --reminders --source Local
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The title.")
  var name: String

  @Flag(help: "Make a reminder list rather than a calendar of events.")
  var reminders = false

  @Option(help: "The source (account) to make it in, by title or identifier.")
  var source: String?

  @Option(
    help: ArgumentHelp(
      "Its colour (default: green for a calendar, purple for a list).", valueName: "#RRGGBB"),
    transform: ColorArgument.init)
  var color: ColorArgument?

  func run() throws {
    let store = try store.open()
    let entity: EKEntityType = reminders ? .reminder : .event
    let chosen = try chooseSource(source, for: entity, in: store)
    let calendar = EKCalendar(for: entity, eventStore: store)
    calendar.title = name
    calendar.source = chosen
    if let color { calendar.cgColor = color.color }
    try failing { try store.saveCalendar(calendar, commit: true) }
    printInert(
      "Added the \(reminders ? "reminder list" : "calendar") \"\(calendar.title)\" in "
        + "\(chosen.title): \(calendar.calendarIdentifier)")
  }
}
