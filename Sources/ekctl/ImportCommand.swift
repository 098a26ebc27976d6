import ArgumentParser
import EkctlKit
import Foundation
import ICalendar
import OpenEventKit

/// `ekctl import FILE`: an .ics file into the store, in one transaction.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import an iCalendar (.ics) file.",
    discussion: """
      Events go into the calendar titled --calendar, or named by the file's X-WR-CALNAME, or \
      after the file; to-dos into the reminder list of that title. Either is made when \
      missing. An item whose UID is already there is updated, so importing a file again does \
      not duplicate it. A bad file changes nothing and names the line that is wrong.

      Example: ekctl import ~/Downloads/basic.ics --calendar Work
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The .ics file, or - for standard input.", completion: .file(extensions: ["ics"]))
  var file: String

  @Option(help: "The title of the calendar to import into.")
  var calendar: String?

  func run() throws {
    let data: Data
    if file == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      guard let contents = FileManager.default.contents(atPath: file) else {
        throw CommandError("cannot read \(file)")
      }
      data = contents
    }
    let name =
      file == "-"
      ? "Imported" : URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let store = try store.openCreating()
    let bar = ProgressBar(label: "Importing")
    defer { bar.finish() }
    let summary = try failing {
      do {
        return try store.importICalendar(
          data, calendarTitle: calendar, fallbackTitle: name, progress: bar.update)
      } catch let error as ICalendarParseError {
        throw CommandError("\(file): \(error)")
      }
    }
    bar.finish()
    var parts: [String] = []
    if let id = summary.eventCalendarIdentifier, let target = store.calendar(withIdentifier: id) {
      parts.append(
        "\(counted(summary.eventsAdded, "event")) added, \(summary.eventsUpdated) updated in "
          + "\"\(target.title)\"")
    }
    if let id = summary.reminderCalendarIdentifier, let target = store.calendar(withIdentifier: id)
    {
      parts.append(
        "\(counted(summary.remindersAdded, "reminder")) added, \(summary.remindersUpdated) "
          + "updated in \"\(target.title)\"")
    }
    printInert(
      parts.isEmpty ? "Nothing to import in \(file)." : parts.joined(separator: "; ") + ".")
  }
}
