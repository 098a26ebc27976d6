import Foundation
import ICalendar
import OpenEventKit

/// One input: the bytes of an .ics file, imported into a real store as `ekctl import` imports
/// it, into a calendar (and reminder list) titled "Fuzz".
///
/// The store lives in a temporary folder for the whole run, and every input leaves it as it
/// found it: the calendars an import made are removed afterwards. Checks:
/// - a refused import changes nothing (no calendar titled "Fuzz" is left behind);
/// - what was imported reads back: the items of the file's first UIDs with their fields, and
///   the occurrences near the first DTSTARTs (a window of a month after each, at most
///   `occurrenceLimit` occurrences, since a series may repeat every second for ever);
/// - what was imported exports, and the export imports again, updating every item instead of
///   adding any;
/// - the export of that import is the export itself.
///
/// Inputs are bounded as the store's own cost is: a file with a sub-daily rule whose COUNT is
/// over `countLimit` is passed over (see `isWithinBounds`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: bytes, count: count)
  if let document = try? ICalendarDocument(parsing: Array(data)), !isWithinBounds(document) {
    return 0
  }
  let store = Harness.store
  defer { removeFuzzCalendars(of: store) }
  let summary: ICalendarImportSummary
  do {
    summary = try store.importICalendar(data, calendarTitle: title)
  } catch {
    guard fuzzCalendars(of: store).isEmpty else {
      fatalError("a refused import left a calendar behind: \(error)")
    }
    return 0
  }
  readBack(bytes: Array(data), from: store)
  let calendars = fuzzCalendars(of: store)
  let exported: Data
  do {
    exported = try store.exportICalendar(calendars: calendars)
  } catch {
    fatalError("what was imported cannot be exported: \(error)")
  }
  let again: ICalendarImportSummary
  do {
    again = try store.importICalendar(exported, calendarTitle: title)
  } catch {
    fatalError("an export is refused on import: \(error)")
  }
  guard again.eventsAdded == 0, again.remindersAdded == 0 else {
    fatalError(
      "importing an export added \(again.eventsAdded) events and \(again.remindersAdded)"
        + " reminders (first import: \(summary.eventsAdded) and \(summary.remindersAdded))")
  }
  // What the store wrote it reads back whole: the export of the export is the export.
  let reexported: Data
  do {
    reexported = try store.exportICalendar(calendars: fuzzCalendars(of: store))
  } catch {
    fatalError("an imported export cannot be exported: \(error)")
  }
  guard reexported == exported else {
    fatalError(
      "an export imported and exported again differs: \(firstDifference(exported, reexported))")
  }
  return 0
}

let title = "Fuzz"

/// Called by libFuzzer before the first input: makes the store and runs one import, export
/// and removal, so that the costs paid once per process (the database's creation and
/// migration, the first zone files read) do not count towards the first input's second.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  let store = Harness.store
  let warmUp = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Fuzz//EN", "BEGIN:VEVENT",
    "UID:warm-up", "DTSTART;TZID=Europe/Berlin:20250301T090000", "DURATION:PT1H",
    "RRULE:FREQ=WEEKLY;COUNT=3", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M",
    "END:VALARM", "END:VEVENT", "BEGIN:VTODO", "UID:warm-up-to-do", "DUE:20250301", "END:VTODO",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")
  do {
    _ = try store.importICalendar(Data(warmUp.utf8), calendarTitle: title)
    _ = try store.exportICalendar(calendars: fuzzCalendars(of: store))
  } catch {
    fatalError("the warm-up import fails: \(error)")
  }
  removeFuzzCalendars(of: store)
  return 0
}

/// The largest COUNT of an hourly, minutely or secondly rule in an input (see
/// `isWithinBounds`).
let countLimit = 1_000

/// Whether the store's work on a file stays within what one input may cost. Saving a series
/// with a COUNT walks its instances to find its end (up to 100,000); for a sub-daily rule with
/// BY-parts that steps through every hour, minute or second between them, about 70 ms in a
/// release build but tens of times slower under the fuzzer's instrumentation, which would
/// time out on what is no hang.
func isWithinBounds(_ document: ICalendarDocument) -> Bool {
  for calendar in document.calendars {
    for component in calendar.components {
      for property in component.properties(named: "RRULE") {
        guard let rule = try? property.recurrenceRuleValue() else { continue }
        if [.hourly, .minutely, .secondly].contains(rule.frequency),
          (rule.count ?? 0) > countLimit
        {
          return false
        }
      }
    }
  }
  return true
}

/// How many occurrences are read near each DTSTART, and how many DTSTARTs and UIDs are used.
let occurrenceLimit = 64
let sampleLimit = 4

/// The store of the run, in a folder removed when the process exits.
enum Harness {
  static let folder: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("oek-fuzz-import-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    atexit {
      try? FileManager.default.removeItem(at: Harness.folder)
    }
    return url
  }()

  static let store: EKEventStore = {
    do {
      return try EKEventStore(
        ownerOf: folder.appendingPathComponent("Calendar.sqlite"), create: true)
    } catch {
      fatalError("cannot make the store: \(error)")
    }
  }()
}

func fuzzCalendars(of store: EKEventStore) -> [EKCalendar] {
  (store.calendars(for: .event) + store.calendars(for: .reminder)).filter { $0.title == title }
}

func removeFuzzCalendars(of store: EKEventStore) {
  for calendar in fuzzCalendars(of: store) {
    do {
      try store.removeCalendar(calendar, commit: true)
    } catch {
      fatalError("cannot remove an imported calendar: \(error)")
    }
  }
}

/// Reads back what the import wrote, through the API an app uses.
func readBack(bytes: [UInt8], from store: EKEventStore) {
  // The file read for its UIDs and starts; the import has already read it whole.
  guard let document = try? ICalendarDocument(parsing: bytes) else {
    fatalError("an imported file is refused when read again")
  }
  var uids: [String] = []
  var starts: [Date] = []
  for calendar in document.calendars {
    var zones = TimeZoneResolver(calendar: calendar)
    for component in calendar.components where ["VEVENT", "VTODO"].contains(component.name) {
      if let uid = component.property("UID")?.textValue, uids.count < sampleLimit,
        !uids.contains(uid)
      {
        uids.append(uid)
      }
      // Not an override's: its series would be walked from its own start to there.
      if component.name == "VEVENT", starts.count < sampleLimit,
        component.property("RECURRENCE-ID") == nil,
        let start = try? component.property("DTSTART")?.dateTimeValue(zones: &zones),
        let seconds = try? start.secondsSinceEpoch()
      {
        starts.append(Date(timeIntervalSince1970: TimeInterval(seconds)))
      }
    }
  }
  for uid in uids {
    for item in store.calendarItems(withExternalIdentifier: uid) {
      touch(item)
    }
  }
  let calendars = store.calendars(for: .event).filter { $0.title == title }
  for start in starts {
    let predicate = store.predicateForEvents(
      withStart: start.addingTimeInterval(-86_400), end: start.addingTimeInterval(32 * 86_400),
      calendars: calendars)
    var seen = 0
    store.enumerateEvents(matching: predicate) { event, stop in
      touch(event)
      seen += 1
      if seen >= occurrenceLimit { stop.pointee = true }
    }
  }
}

/// Reads every field an app might show.
func touch(_ item: EKCalendarItem) {
  _ = (item.title, item.notes, item.location, item.url, item.timeZone, item.hasChanges)
  _ = (item.alarms?.count, item.recurrenceRules?.count, item.attendees?.count)
  if let event = item as? EKEvent {
    _ = (event.startDate, event.endDate, event.isAllDay, event.occurrenceDate, event.isDetached)
    _ = (event.status, event.availability, event.organizer, event.structuredLocation)
  }
  if let reminder = item as? EKReminder {
    _ = (reminder.dueDateComponents, reminder.startDateComponents, reminder.isCompleted)
    _ = (reminder.completionDate, reminder.priority)
  }
}

/// The first line where two exports differ, for the report.
func firstDifference(_ one: Data, _ other: Data) -> String {
  let a = String(decoding: one, as: UTF8.self).split(separator: "\r\n")
  let b = String(decoding: other, as: UTF8.self).split(separator: "\r\n")
  for (index, line) in a.enumerated() where index >= b.count || b[index] != line {
    let then = index < b.count ? ICalendarText.excerpt(b[index]) : "nothing"
    return "line \(index + 1): \(ICalendarText.excerpt(line)) became \(then)"
  }
  return "\(a.count) lines became \(b.count)"
}
