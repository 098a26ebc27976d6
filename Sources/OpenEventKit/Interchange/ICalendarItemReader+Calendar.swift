import Foundation
import ICalendar

extension ICalendarItemReader {
  /// The events and reminders of one VCALENDAR, in file order, read as an import reads them
  /// (``ImportReading``: a large calendar in chunks on every core); the first error in file
  /// order is the one thrown.
  static func items(of calendar: ICalendarComponent) throws(ICalendarParseError)
    -> (events: [ImportedItem], reminders: [ImportedItem])
  {
    let reading = ImportReading(ICalendarDocument(calendars: [calendar]))
    reading.start()
    defer { reading.stop() }
    var events: [ImportedItem] = []
    var reminders: [ImportedItem] = []
    for index in 0..<reading.chunkCount {
      let chunk = try reading.chunk(index)
      events += chunk.events
      reminders += chunk.reminders
    }
    return (events, reminders)
  }
}
