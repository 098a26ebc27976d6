import Foundation
import GRDB
import ICalendar

/// The local versions a conflict did not keep on the server: copies in the calendar (and
/// reminder list) "Conflicts" of the Local source, made when missing, each with a UID of its
/// own so that a later conflict of the same item adds a copy instead of replacing this one.
/// Nothing a person wrote is lost; they compare and delete the copy when done.
enum ConflictCopies {
  static let calendarTitle = "Conflicts"

  /// Keeps a copy of a resource; returns the copy's `calendarItemIdentifier`.
  static func keep(_ data: Data, _ db: Database) throws -> String? {
    var document = try ICalendarDocument(parsing: [UInt8](data))
    let suffix = "-conflict-" + Identifier.make()
    for index in document.calendars.indices {
      for item in document.calendars[index].components.indices {
        var component = document.calendars[index].components[item]
        guard component.name == "VEVENT" || component.name == "VTODO",
          let uid = component.property("UID")?.value
        else { continue }
        component.properties.removeAll { $0.name.uppercased() == "UID" }
        component.properties.insert(ICalendarProperty(name: "UID", value: uid + suffix), at: 0)
        document.calendars[index].components[item] = component
      }
    }
    var events: [ImportedItem] = []
    var reminders: [ImportedItem] = []
    for calendar in document.calendars {
      let items = try ICalendarItemReader.items(of: calendar)
      events += items.events
      reminders += items.reminders
    }
    // The Local source's calendar: nothing of it is sent anywhere.
    return try RowWriter.writing(db, origin: .server) { rows in
      _ = try ImportWriter(title: calendarTitle, progress: nil).write(
        events: events, reminders: reminders, to: &rows)
      let written = rows.writtenIds
      return try written.lazy.compactMap { try ItemRows.item(db, id: $0) }
        .first { $0.seriesId == nil }?.id
    }
  }
}
