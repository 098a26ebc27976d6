import Dispatch
import Foundation
import ICalendar
import Synchronization

/// The events and to-dos of a parsed file, read into rows on background threads in chunks
/// and handed out in file order, so that an import writes the first ones while the rest are
/// still read.
///
/// Reading an item into its row costs about as much as SQLite's insert of it, and the two
/// halves of a large import took turns: the rows read on every core, then written on one.
/// Here the writer takes chunk after chunk (``chunk(_:)`` waits for the one it asks for)
/// while threads read the next ones. The first error in file order is the one a chunk
/// reports, as a single pass would meet it.
///
/// ```swift
/// let reading = ImportReading(document)
/// reading.start()
/// defer { reading.stop() }
/// let shared = reading.sharedUIDs()  // while the threads read
/// for index in 0..<reading.chunkCount {
///   let chunk = try reading.chunk(index)
///   // write chunk.events and chunk.reminders
/// }
/// ```
final class ImportReading: @unchecked Sendable {
  /// One chunk: the components it reads, then what they read to. A worker writes it before
  /// signalling `ready`; the writer reads it after waiting for that.
  final class Chunk: @unchecked Sendable {
    fileprivate let reader: Int
    fileprivate var components: ArraySlice<ICalendarComponent>
    fileprivate let ready = DispatchSemaphore(value: 0)
    /// The events read, each followed by the instances its RDATE periods give.
    private(set) var events: [ImportedItem] = []
    private(set) var reminders: [ImportedItem] = []
    fileprivate var error: ICalendarParseError?

    fileprivate init(reader: Int, components: ArraySlice<ICalendarComponent>) {
      self.reader = reader
      self.components = components
    }

    fileprivate func read(with reader: ICalendarItemReader) {
      var reader = reader
      for component in components {
        do throws(ICalendarParseError) {
          if component.name == "VEVENT" {
            let event = try reader.event(component)
            events.append(event)
            events += event.periodOccurrences
          } else {
            reminders.append(try reader.reminder(component))
          }
        } catch {
          self.error = error
          break
        }
      }
      // The parsed components are freed here, on the reading thread.
      components = []
    }
  }

  /// Items per chunk: small enough that the writer starts soon, large enough that handing
  /// chunks over costs nothing that shows.
  static let chunkSize = 512

  /// The X-WR-CALNAME of the first VCALENDAR that has one.
  let calendarName: String?
  /// How many VEVENTs and VTODOs the file has.
  let itemCount: Int
  let hasEvents: Bool
  let hasReminders: Bool
  var chunkCount: Int { chunks.count }

  /// The VEVENTs of each calendar, until ``sharedUIDs()`` has read their UIDs; then nil, so
  /// that the components are freed by the threads that read them.
  private var eventsToScan: [[ICalendarComponent]]?
  private var shared: Set<String> = []

  private let readers: [ICalendarItemReader]
  private let chunks: [Chunk]
  private let nextChunk = Atomic<Int>(0)
  /// The first chunk that failed: no chunk after it needs reading.
  private let firstFailed = Atomic<Int>(.max)
  private let stopped = Atomic<Bool>(false)
  private let workers = DispatchGroup()

  /// The items of every VCALENDAR of the document, in order; VTIMEZONE is read by each
  /// calendar's zone resolver, and VJOURNAL has no counterpart.
  init(_ document: ICalendarDocument, chunkSize: Int = ImportReading.chunkSize) {
    var readers: [ICalendarItemReader] = []
    var chunks: [Chunk] = []
    var name: String?
    var count = 0
    var events = false
    var reminders = false
    var eventsToScan: [[ICalendarComponent]] = []
    for calendar in document.calendars {
      if name == nil, let title = calendar.property("X-WR-CALNAME")?.textValue, !title.isEmpty {
        name = title
      }
      let items = calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
      guard !items.isEmpty else { continue }
      events = events || items.contains { $0.name == "VEVENT" }
      reminders = reminders || items.contains { $0.name == "VTODO" }
      count += items.count
      eventsToScan.append(items.filter { $0.name == "VEVENT" })
      readers.append(ICalendarItemReader(calendar: calendar))
      for start in stride(from: 0, to: items.count, by: chunkSize) {
        chunks.append(
          Chunk(
            reader: readers.count - 1,
            components: items[start..<min(start + chunkSize, items.count)]))
      }
    }
    self.readers = readers
    self.chunks = chunks
    calendarName = name
    itemCount = count
    hasEvents = events
    hasReminders = reminders
    self.eventsToScan = eventsToScan
  }

  /// The UIDs more than one VEVENT of the file has (versions of an item, a series and its
  /// overrides), as ``ICalendarItemReader/uid(of:)`` reads them. Found at the first call, on
  /// the calling thread: after ``start()``, it runs while the threads read (on one core it
  /// was a tenth of a large import, the other core idle). Call it from one thread only.
  func sharedUIDs() -> Set<String> {
    guard let eventsToScan else { return shared }
    var seen = Set<String>()
    for events in eventsToScan {
      for event in events {
        if let uid = ICalendarItemReader.uid(of: event), !seen.insert(uid).inserted {
          shared.insert(uid)
        }
      }
    }
    self.eventsToScan = nil
    return shared
  }

  /// Starts reading, on as many threads as the machine has cores; a file of one chunk is
  /// read on the thread that asks for it instead (a synced resource holds one item).
  func start() {
    guard chunks.count > 1 else { return }
    let threads = min(ProcessInfo.processInfo.activeProcessorCount, chunks.count)
    for _ in 0..<threads {
      workers.enter()
      DispatchQueue.global(qos: .userInitiated).async { [self] in
        readChunks()
        workers.leave()
      }
    }
  }

  private func readChunks() {
    while !stopped.load(ordering: .relaxed) {
      let index = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < chunks.count else { return }
      let chunk = chunks[index]
      if index < firstFailed.load(ordering: .relaxed) {
        chunk.read(with: readers[chunk.reader])
        if chunk.error != nil { firstFailed.min(index, ordering: .relaxed) }
      }
      chunk.ready.signal()
    }
  }

  /// The chunk at `index`, once read.
  ///
  /// - Throws: The first error in the chunk's items, the first of the file when every
  ///   chunk before was asked for first.
  func chunk(_ index: Int) throws(ICalendarParseError) -> Chunk {
    let chunk = chunks[index]
    if chunks.count == 1,
      nextChunk.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged
    {
      chunk.read(with: readers[chunk.reader])
      chunk.ready.signal()
    }
    chunk.ready.wait()
    chunk.ready.signal()  // ready for the next one to ask, too
    if let error = chunk.error { throw error }
    return chunk
  }

  /// The first error in file order, reading every chunk; nil when the whole file reads.
  func firstError() -> ICalendarParseError? {
    for index in chunks.indices {
      do throws(ICalendarParseError) {
        _ = try chunk(index)
      } catch {
        return error
      }
    }
    return nil
  }

  /// Stops reading after the chunks being read, and waits for the threads to end.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    workers.wait()
  }
}
