import Foundation
import OpenEventKit
import TestSupport
import Testing

/// `import OpenEventKit` brings what `import EventKit` brings: EventKitCode.swift compiles
/// with that one import (the test is that this target builds, in Swift 6 mode with strict
/// concurrency and member import visibility on), and what it writes is what EventKit code
/// means.
@Suite struct EventKitImportTests {
  @Test func eventKitCodeCompilesWithTheOneImportAndMeansWhatItSays() throws {
    let folder = try TemporaryFolder()
    let store = EKEventStore(folder: folder.url)
    let calendar = EKCalendar(for: .event, eventStore: store)
    paint(calendar)
    #expect(calendar.cgColor.components?.map { ($0 * 10).rounded() } == [2, 4, 8, 10])
    let lunch = makeLunch(in: store, calendar: calendar)
    #expect(lunch.title == "Lunch")
    #expect(lunch.endDate.timeIntervalSince(lunch.startDate) == 3600)
    #expect(lunch.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 7)
    #expect(lunch.structuredLocation?.geoLocation?.coordinate.latitude == 48.8566)
    let (_, events) = thisWeek(in: store, from: lunch.startDate)
    #expect(events.isEmpty)  // nothing saved, and no access asked: nothing to see
    let observer = observeChanges(of: store) {}
    NotificationCenter.default.removeObserver(observer)
  }
}
