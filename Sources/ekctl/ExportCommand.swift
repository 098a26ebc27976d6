import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import OpenEventKitPaths

/// `ekctl export`: calendars as one .ics file.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export calendars as an iCalendar (.ics) file.",
    discussion: """
      Without --calendar, every calendar and reminder list. The file goes to standard output \
      unless -o names one, which is written with mode 0600 (readable by you only), whole or \
      not at all.

      Example: ekctl export --calendar Work -o work.ics
      """)

  @OptionGroup var store: StoreOptions

  @Option(help: "Only the calendar (and reminder list) with this title.")
  var calendar: String?

  @Option(name: .shortAndLong, help: "The file to write.", completion: .file(extensions: ["ics"]))
  var output: String?

  func run() throws {
    let store = try store.open()
    let chosen = try calendars(titled: calendar, in: store)
    let bar = ProgressBar(label: "Exporting")
    let data = try failing { try store.exportICalendar(calendars: chosen, progress: bar.update) }
    bar.finish()
    if let output {
      // A calendar is a person's data: 0600, and never half written.
      do {
        try DataLocation.writePrivately(data, to: URL(fileURLWithPath: output))
      } catch {
        throw CommandError(error.message)
      }
    } else {
      FileHandle.standardOutput.write(data)
    }
  }
}
