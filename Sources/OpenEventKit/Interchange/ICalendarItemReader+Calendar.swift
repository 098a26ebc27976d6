import Foundation
import ICalendar

extension ICalendarItemReader {
  /// The events and reminders of one VCALENDAR, in file order.
  ///
  /// Reading an item costs far more than writing its row, and items are read independently,
  /// so a large calendar is read in chunks on every core; the first error in file order is
  /// the one thrown, as a single pass would throw it.
  static func items(of calendar: ICalendarComponent) throws(ICalendarParseError)
    -> (events: [ImportedItem], reminders: [ImportedItem])
  {
    let components = calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
    let reader = ICalendarItemReader(calendar: calendar)
    let chunkCount = max(
      1, min(ProcessInfo.processInfo.activeProcessorCount, components.count / minimumChunk))
    let chunks = (0..<chunkCount).map { _ in ChunkResult() }
    let size = (components.count + chunkCount - 1) / max(chunkCount, 1)
    DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
      var reader = reader
      let result = chunks[chunk]
      for component in components[
        min(chunk * size, components.count)..<min((chunk + 1) * size, components.count)]
      {
        do throws(ICalendarParseError) {
          if component.name == "VEVENT" {
            let event = try reader.event(component)
            result.events.append(event)
            result.events += event.periodOccurrences
          } else {
            result.reminders.append(try reader.reminder(component))
          }
        } catch {
          result.error = error
          return
        }
      }
    }
    var events: [ImportedItem] = []
    var reminders: [ImportedItem] = []
    for chunk in chunks {
      if let error = chunk.error { throw error }
      events += chunk.events
      reminders += chunk.reminders
    }
    return (events, reminders)
  }

  /// Below this many items per core, one thread reads faster than several.
  static let minimumChunk = 2_000

  /// What one chunk read; each chunk writes only its own.
  private final class ChunkResult: @unchecked Sendable {
    var events: [ImportedItem] = []
    var reminders: [ImportedItem] = []
    var error: ICalendarParseError?
  }
}
