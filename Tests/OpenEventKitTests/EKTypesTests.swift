import Foundation
import OpenEventKit
import Testing

/// EventKit's enumerations keep Apple's raw values: apps store them, and compare them with
/// values written by Apple's EventKit.
@Suite struct EKTypesTests {
  @Test func rawValuesAreApples() {
    #expect(EKEntityType.reminder.rawValue == 1)
    #expect(EKEntityMask([.event, .reminder]).rawValue == 3)
    #expect(EKSpan.futureEvents.rawValue == 1)
    #expect(EKAuthorizationStatus.fullAccess.rawValue == 3)
    #expect(EKAuthorizationStatus.writeOnly.rawValue == 4)
    #expect(EKEventAvailability.notSupported.rawValue == -1)
    #expect(EKEventStatus.canceled.rawValue == 3)
    #expect(EKCalendarType.subscription.rawValue == 3)
    #expect(EKSourceType.exchange.rawValue == 1)
    #expect(EKSourceType.calDAV.rawValue == 2)
    #expect(EKCalendarEventAvailabilityMask.unavailable.rawValue == 8)
    #expect(EKAlarmProximity.leave.rawValue == 2)
    #expect(EKAlarmType.email.rawValue == 3)
    #expect(EKParticipantRole.nonParticipant.rawValue == 4)
    #expect(EKParticipantStatus.inProcess.rawValue == 7)
    #expect(EKParticipantType.group.rawValue == 4)
    #expect(EKParticipantScheduleStatus.recipientNotAllowed.rawValue == 8)
    #expect(EKReminderPriority.medium.rawValue == 5)
    #expect(EKRecurrenceFrequency.yearly.rawValue == 3)
    #expect(EKWeekday.sunday.rawValue == 1 && EKWeekday.saturday.rawValue == 7)
  }

  @Test func errorsBridgeWithApplesDomainAndCodes() {
    let error = EKError(.datesInverted, "the end date comes before the start date")
    #expect(error.code == .datesInverted)
    #expect(EKError.Code.eventStoreNotAuthorized.rawValue == 29)
    #expect(EKError.Code.reminderAlarmContainsEmailOrUrl.rawValue == 36)
    #expect(EKError.errorDomain == "EKErrorDomain")
    let bridged = error as NSError
    #expect(bridged.domain == EKErrorDomain)
    #expect(bridged.code == 4)
    #expect(error.localizedDescription == "the end date comes before the start date")
  }

  @Test func errorsMatchInCatchClausesAsWithAppleSEventKit() {
    func save() throws { throw EKError(.noCalendar, "the event has no calendar") }
    var caught = false
    do {
      try save()
    } catch EKError.noCalendar {
      caught = true
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(caught)
    do {
      try save()
    } catch let error as EKError {
      #expect(error.code == EKError.noCalendar)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
