import Foundation
import OpenEventKit
import Testing

/// The value objects of recurrence rules, used as code written for EventKit uses them.
@Suite struct EKRecurrenceValueTests {
  @Test func recurrenceEndIsADateOrACount() {
    let date = Date(timeIntervalSince1970: 1_735_689_600)
    let byDate = EKRecurrenceEnd(end: date)
    #expect(byDate.endDate == date)
    #expect(byDate.occurrenceCount == 0)
    let byCount = EKRecurrenceEnd(occurrenceCount: 10)
    #expect(byCount.endDate == nil)
    #expect(byCount.occurrenceCount == 10)
    #expect(byCount == EKRecurrenceEnd(occurrenceCount: 10))
    #expect(byCount != byDate)
  }

  @Test func dayOfWeekWithAndWithoutAWeekNumber() {
    let everyMonday = EKRecurrenceDayOfWeek(.monday)
    #expect(everyMonday.dayOfTheWeek == .monday)
    #expect(everyMonday.weekNumber == 0)
    let lastFriday = EKRecurrenceDayOfWeek(.friday, weekNumber: -1)
    #expect(lastFriday.weekNumber == -1)
    #expect(lastFriday.description == "-1FR")
    #expect(EKRecurrenceDayOfWeek(dayOfTheWeek: .monday, weekNumber: 0) == everyMonday)
    #expect(Set([everyMonday, EKRecurrenceDayOfWeek(.monday), lastFriday]).count == 2)
  }

  @Test func bothSurviveKeyedArchiving() throws {
    let days = [EKRecurrenceDayOfWeek(.tuesday, weekNumber: 2)]
    let end = EKRecurrenceEnd(end: Date(timeIntervalSinceReferenceDate: 123_456))
    let dayData = try NSKeyedArchiver.archivedData(
      withRootObject: days[0], requiringSecureCoding: true)
    let endData = try NSKeyedArchiver.archivedData(withRootObject: end, requiringSecureCoding: true)
    let day = try NSKeyedUnarchiver.unarchivedObject(
      ofClass: EKRecurrenceDayOfWeek.self, from: dayData)
    let decodedEnd = try NSKeyedUnarchiver.unarchivedObject(
      ofClass: EKRecurrenceEnd.self, from: endData)
    #expect(day == days[0])
    #expect(decodedEnd == end)
  }
}
