import Foundation
import OpenEventKit
import TestSupport
import Testing

// EventKit code from Apple's documentation, Apple's sample code and WWDC session code, run
// against OpenEventKit. Each test keeps the snippet as Apple wrote it (ported to Swift where the
// original is Objective-C, UIKit left out, `guard … else { return }` made to fail the test),
// names where it comes from, and then checks that it did what it says in the store.
//
// Every snippet opens the user's database with `EKEventStore()`, so these tests run with
// OPENEVENTKIT_HOME pointing at a folder of their own (`.inSnippetHome`, SnippetHome.swift), set
// for each test's task, not for the process, whose other suites run at the same time. All tests
// share that database: each uses titles, dates and identifiers of its own and never counts what
// other tests saved.

@Suite(.serialized, .inSnippetHome) struct AppleDocumentationSnippetTests {
  /// `EKEventStore()` opens the snippets' folder, while the process's environment is left as
  /// it was for the suites running beside these.
  @Test func snippetsOpenTheirOwnFolderAndLeaveTheProcessAlone() {
    #expect(EKEventStore.defaultDatabaseFile.deletingLastPathComponent().path == snippetHome.path)
    #expect(ProcessInfo.processInfo.environment["OPENEVENTKIT_HOME"] != snippetHome.path)
    let store = EKEventStore()
    #expect(store.databaseFile.deletingLastPathComponent().path == snippetHome.path)
  }

  // MARK: Retrieving events and reminders

  @Test func fetchingEventsFromOneDayAgoToOneYearFromNow() throws {
    let store = EKEventStore()
    let nextWeek = try saveEvent(
      store, "Snippet: dentist", start: Date().addingTimeInterval(7 * 86_400))
    let lastWeek = try saveEvent(
      store, "Snippet: last week's dentist", start: Date().addingTimeInterval(-7 * 86_400))

    // Apple: "Retrieving events and reminders", Fetch Events listing.
    // Get the appropriate calendar.
    let calendar = Calendar.current

    // Create the start date components
    var oneDayAgoComponents = DateComponents()
    oneDayAgoComponents.day = -1
    let oneDayAgo = calendar.date(
      byAdding: oneDayAgoComponents, to: Date(), wrappingComponents: false)

    // Create the end date components.
    var oneYearFromNowComponents = DateComponents()
    oneYearFromNowComponents.year = 1
    let oneYearFromNow = calendar.date(
      byAdding: oneYearFromNowComponents, to: Date(), wrappingComponents: false)

    // Create the predicate from the event store's instance method.
    var predicate: NSPredicate? = nil
    if let anAgo = oneDayAgo, let aNow = oneYearFromNow {
      predicate = store.predicateForEvents(withStart: anAgo, end: aNow, calendars: nil)
    }

    // Fetch all events that match the predicate.
    var events: [EKEvent]? = nil
    if let aPredicate = predicate {
      events = store.events(matching: aPredicate)
    }

    let fetched = try #require(events)
    let start = try #require(oneDayAgo)
    let end = try #require(oneYearFromNow)
    #expect(fetched.contains { $0.eventIdentifier == nextWeek.eventIdentifier })
    #expect(!fetched.contains { $0.eventIdentifier == lastWeek.eventIdentifier })
    #expect(fetched.allSatisfy { $0.endDate > start && $0.startDate < end })
    // Every yearly holiday of the subscribed Holidays calendar falls in any year-long range.
    for holiday in ["New Year's Day", "International Workers' Day", "Christmas Day"] {
      #expect(fetched.contains { $0.title == holiday }, "\(holiday)")
    }
  }

  @Test func fetchingRemindersWithAPredicate() async throws {
    let store = EKEventStore()
    let list = try #require(store.defaultCalendarForNewReminders())
    let stamps = EKReminder(eventStore: store)
    stamps.title = "Snippet: buy stamps"
    stamps.calendar = list
    try store.save(stamps, commit: true)
    let letter = EKReminder(eventStore: store)
    letter.title = "Snippet: post the letter"
    letter.calendar = list
    letter.isCompleted = true
    try store.save(letter, commit: true)

    let titles: [String] = await withCheckedContinuation { continuation in
      // Apple: "Retrieving events and reminders", Fetch Reminders listing (`var` there).
      let predicate: NSPredicate? = store.predicateForReminders(in: nil)
      if let aPredicate = predicate {
        store.fetchReminders(
          matching: aPredicate,
          completion: { (_ reminders: [Any]?) -> Void in
            var seen: [String] = []
            for reminder: EKReminder? in reminders as? [EKReminder?] ?? [EKReminder?]() {
              // Do something for each reminder.
              seen.append(reminder?.title ?? "")
            }
            continuation.resume(returning: seen)
          })
      }
    }

    // predicateForReminders(in: nil) finds every reminder, complete or not.
    #expect(titles.contains("Snippet: buy stamps"))
    #expect(titles.contains("Snippet: post the letter"))
  }

  @Test func enumeratingEventsUntilTheCallbackStops() throws {
    let store = EKEventStore()
    let standup = try saveEvent(
      store, "Snippet: daily standup", start: localDate(2031, 3, 3, hour: 9),
      rule: EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 5)))
    let predicate = store.predicateForEvents(
      withStart: localDate(2031, 3, 1), end: localDate(2031, 4, 1), calendars: nil)

    // Apple: enumerateEvents(matching:using:) calls the block for each event the predicate
    // finds; setting the EKEventSearchCallback's stop to true ends the enumeration.
    var firstThree: [Date] = []
    store.enumerateEvents(matching: predicate) { event, stop in
      guard event.eventIdentifier == standup.eventIdentifier else { return }
      firstThree.append(event.startDate)
      if firstThree.count == 3 {
        stop.pointee = true
      }
    }
    var all: [Date] = []
    store.enumerateEvents(matching: predicate) { event, _ in
      if event.eventIdentifier == standup.eventIdentifier {
        all.append(event.startDate)
      }
    }

    #expect(
      all.map(dayText) == ["2031-03-03", "2031-03-04", "2031-03-05", "2031-03-06", "2031-03-07"])
    #expect(firstThree.count == 3)
    #expect(Set(firstThree).isSubset(of: all))
    let matching = store.events(matching: predicate).filter {
      $0.eventIdentifier == standup.eventIdentifier
    }
    #expect(matching.compactMap(\.startDate).sorted() == all.sorted())
  }

  // MARK: WWDC23 "Discover Calendar and EventKit"

  @Test func addingAnEventWithWriteOnlyAccessThenFetchingTheMonth() async throws {
    // The session's placeholders: two hours in the middle of this month.
    let month = try #require(Calendar.current.dateInterval(of: .month, for: Date()))
    let myEventStartDate = month.start.addingTimeInterval(14 * 86_400 + 10 * 3600)
    let myEventEndDate = myEventStartDate.addingTimeInterval(2 * 3600)

    // Apple: WWDC23 session 10052, "Adding an event with write-only access".
    // Create an event store
    let store = EKEventStore()

    // Request write-only access
    guard try await store.requestWriteOnlyAccessToEvents() else {
      Issue.record("write-only access was refused")
      return
    }

    // Create an event
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "WWDC23 Keynote"
    event.startDate = myEventStartDate
    event.endDate = myEventEndDate
    event.timeZone = TimeZone(identifier: "America/Los_Angeles")
    event.location = "1 Apple Park Way, Cupertino, CA, United States"
    event.notes = "Kick off an exhilarating week of technology and community."

    // Save the event (the slide's `guard try … else { return }` does not compile: save
    // returns nothing)
    try store.save(event, span: .thisEvent)

    do {
      // Apple: WWDC23 session 10052, "Fetch events".
      // Create an event store
      let store = EKEventStore()

      // Request full access
      guard try await store.requestFullAccessToEvents() else {
        Issue.record("full access was refused")
        return
      }

      // Create a predicate
      guard let interval = Calendar.current.dateInterval(of: .month, for: Date()) else {
        Issue.record("no interval for this month")
        return
      }
      let predicate = store.predicateForEvents(
        withStart: interval.start,
        end: interval.end,
        calendars: nil)

      // Fetch the events
      let events = store.events(matching: predicate)

      let sortedEvents = events.sorted { $0.compareStartDate(with: $1) == .orderedAscending }

      let keynote = try #require(
        sortedEvents.first { $0.eventIdentifier == event.eventIdentifier })
      #expect(keynote.title == "WWDC23 Keynote")
      #expect(keynote.startDate == myEventStartDate && keynote.endDate == myEventEndDate)
      #expect(keynote.timeZone?.identifier == "America/Los_Angeles")
      #expect(keynote.location == "1 Apple Park Way, Cupertino, CA, United States")
      #expect(keynote.notes == "Kick off an exhilarating week of technology and community.")
      #expect(keynote.calendar.calendarIdentifier == event.calendar.calendarIdentifier)
      #expect(sortedEvents.count == events.count)
      #expect(
        zip(sortedEvents, sortedEvents.dropFirst()).allSatisfy { $0.startDate <= $1.startDate })
      #expect(
        sortedEvents.allSatisfy { $0.endDate > interval.start && $0.startDate < interval.end })
    }
  }

  // MARK: Access

  @Test func requestingAccessWithACompletionHandlerAndWithAsync() async throws {
    // Apple: "Accessing the event store", Connect to the event store.
    // Initialize the store. (`var` in Apple's listing.)
    let store = EKEventStore()

    // Request access to reminders.
    let answer: (granted: Bool, error: String?) = await withCheckedContinuation { continuation in
      store.requestFullAccessToReminders { granted, error in
        // Handle the response to the request.
        continuation.resume(returning: (granted, error?.localizedDescription))
      }
    }

    #expect(answer.granted)
    #expect(answer.error == nil)
    #expect(EKEventStore.authorizationStatus(for: .reminder) == .fullAccess)

    // Apple sample "Accessing Calendar using EventKit and EventKitUI", MonthlyEvents'
    // EventDataStore: check the status, asking for full access while it is undetermined.
    let dataStore = EventDataStore()
    #expect(try await dataStore.verifyAuthorizationStatus())
    #expect(await dataStore.isFullAccessAuthorized)

    // The async twins the sample's README shows.
    #expect(try await store.requestWriteOnlyAccessToEvents())
    #expect(try await store.requestFullAccessToEvents())
    #expect(try await store.requestFullAccessToReminders())
  }

  // MARK: Recurrence

  @Test func repeatingLessonsSampleSavesASeriesWithTheComplexInitializer() throws {
    let lesson = Lesson(
      title: "Snippet: piano", type: .recurring,
      days: [
        Lesson.LessonDay(dayOfWeek: EKRecurrenceDayOfWeek(.tuesday)),
        Lesson.LessonDay(dayOfWeek: EKRecurrenceDayOfWeek(.thursday)),
      ],
      repeats: .weekly, interval: 1, occurrenceCount: 6)
    let firstLesson = localDate(2030, 9, 3, hour: 16)  // a Tuesday
    let eventStore = EKEventStore()

    // Apple sample "Accessing Calendar using EventKit and EventKitUI", RepeatingLessons'
    // EventStoreManager.addLesson(_:date:calendar:).
    // Create an event with the specified lesson details, then save it with all its occurences.
    let newEvent = lesson.eventWithDate(firstLesson, store: eventStore, calendar: nil)
    try eventStore.save(newEvent, span: .futureEvents)

    let other = EKEventStore()
    let occurrences = other.events(
      matching: other.predicateForEvents(
        withStart: localDate(2030, 9, 1), end: localDate(2030, 11, 1), calendars: nil)
    ).filter { $0.eventIdentifier == newEvent.eventIdentifier }
    #expect(
      occurrences.map { dayText($0.startDate) } == [
        "2030-09-03", "2030-09-05", "2030-09-10", "2030-09-12", "2030-09-17", "2030-09-19",
      ])
    #expect(occurrences.allSatisfy { $0.endDate.timeIntervalSince($0.startDate) == 1800 })
    #expect(occurrences.allSatisfy { $0.title == "Snippet: piano" })
    let saved = try #require(other.event(withIdentifier: newEvent.eventIdentifier))
    #expect(saved.timeZone?.identifier == TimeZone.current.identifier)
    let rule = try #require(saved.recurrenceRules?.first)
    #expect(rule.frequency == .weekly && rule.interval == 1)
    #expect(
      rule.daysOfTheWeek == [EKRecurrenceDayOfWeek(.tuesday), EKRecurrenceDayOfWeek(.thursday)])
    #expect(rule.recurrenceEnd?.occurrenceCount == 6)
  }

  @Test func recurrenceRulesFromTheCreatingARecurringEventArticle() throws {
    let store = EKEventStore()

    // Apple: "Creating a recurring event", Create a Basic Rule: a monthly rule with an interval
    // of 3 repeats every three months; the end is a number of occurrences.
    let quarterly = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 3, end: EKRecurrenceEnd(occurrenceCount: 4))

    // Create a Complex Rule, the article's examples: every Tuesday and Friday; the first and
    // last day of every month; the first and last weekday of every year.
    let tuesdaysAndFridays = EKRecurrenceRule(
      recurrenceWith: .weekly, interval: 1,
      daysOfTheWeek: [EKRecurrenceDayOfWeek(.tuesday), EKRecurrenceDayOfWeek(.friday)],
      daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
      setPositions: nil, end: EKRecurrenceEnd(occurrenceCount: 4))
    let firstAndLastDay = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 1, daysOfTheWeek: nil, daysOfTheMonth: [1, -1],
      monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: nil,
      end: EKRecurrenceEnd(occurrenceCount: 6))
    let weekdays = [EKWeekday.monday, .tuesday, .wednesday, .thursday, .friday].map {
      EKRecurrenceDayOfWeek($0)
    }
    let firstAndLastWeekday = EKRecurrenceRule(
      recurrenceWith: .yearly, interval: 1, daysOfTheWeek: weekdays, daysOfTheMonth: nil,
      monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: [1, -1],
      end: EKRecurrenceEnd(occurrenceCount: 4))

    // Apple: EKRecurrenceDayOfWeek, a week number picks one such day of the period (Tuesday,
    // week 2: the second Tuesday of every month); a negative one counts from the end.
    let secondTuesday = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 1,
      daysOfTheWeek: [EKRecurrenceDayOfWeek(.tuesday, weekNumber: 2)], daysOfTheMonth: nil,
      monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: nil,
      end: EKRecurrenceEnd(occurrenceCount: 3))
    let lastFriday = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 1,
      daysOfTheWeek: [EKRecurrenceDayOfWeek(.friday, weekNumber: -1)], daysOfTheMonth: nil,
      monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: nil,
      end: EKRecurrenceEnd(occurrenceCount: 3))

    // Apply each rule to an event with addRecurrenceRule(_:), and read the days back.
    func days(_ title: String, _ rule: EKRecurrenceRule, from start: Date) throws -> [String] {
      let event = try saveEvent(store, title, start: start, rule: rule)
      let other = EKEventStore()
      return other.events(
        matching: other.predicateForEvents(
          withStart: localDate(2033, 1, 1), end: localDate(2035, 1, 1), calendars: nil)
      ).filter { $0.eventIdentifier == event.eventIdentifier }.map { dayText($0.startDate) }
    }
    #expect(
      try days("Snippet: quarterly review", quarterly, from: localDate(2033, 1, 15, hour: 9))
        == ["2033-01-15", "2033-04-15", "2033-07-15", "2033-10-15"])
    #expect(
      try days("Snippet: gym", tuesdaysAndFridays, from: localDate(2033, 3, 1, hour: 9))
        == ["2033-03-01", "2033-03-04", "2033-03-08", "2033-03-11"])
    #expect(
      try days("Snippet: meter reading", firstAndLastDay, from: localDate(2033, 1, 1, hour: 9))
        == ["2033-01-01", "2033-01-31", "2033-02-01", "2033-02-28", "2033-03-01", "2033-03-31"])
    #expect(
      try days("Snippet: inventory", firstAndLastWeekday, from: localDate(2033, 1, 3, hour: 9))
        == ["2033-01-03", "2033-12-30", "2034-01-02", "2034-12-29"])
    #expect(
      try days("Snippet: board meeting", secondTuesday, from: localDate(2033, 1, 11, hour: 9))
        == ["2033-01-11", "2033-02-08", "2033-03-08"])
    #expect(
      try days("Snippet: payday", lastFriday, from: localDate(2033, 1, 28, hour: 9))
        == ["2033-01-28", "2033-02-25", "2033-03-25"])

    // The rules keep their parts through the database.
    let other = EKEventStore()
    let saved = other.events(
      matching: other.predicateForEvents(
        withStart: localDate(2033, 1, 1), end: localDate(2033, 2, 1), calendars: nil))
    let meter = try #require(saved.first { $0.title == "Snippet: meter reading" })
    #expect(meter.recurrenceRules?.first?.daysOfTheMonth == [1, -1])
    let inventory = try #require(saved.first { $0.title == "Snippet: inventory" })
    #expect(inventory.recurrenceRules?.first?.setPositions == [1, -1])
    #expect(inventory.recurrenceRules?.first?.daysOfTheWeek == weekdays)
    let payday = try #require(saved.first { $0.title == "Snippet: payday" })
    #expect(
      payday.recurrenceRules?.first?.daysOfTheWeek == [
        EKRecurrenceDayOfWeek(.friday, weekNumber: -1)
      ])
  }

  // MARK: Alarms

  @Test func addingAndRemovingRelativeAndAbsoluteAlarms() throws {
    let store = EKEventStore()
    let start = localDate(2034, 5, 10, hour: 7)
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Snippet: flight to Lisbon"
    event.startDate = start
    event.endDate = start.addingTimeInterval(3 * 3600)

    // Apple: "Setting an alarm", Add and Remove Alarms: an alarm has an absolute date or an
    // offset from the start (at or before it); addAlarm(_:) adds it, removeAlarm(_:) takes it
    // off. In macOS an alarm can also play a sound (soundName).
    let twoHoursBefore = EKAlarm(relativeOffset: -2 * 3600)
    let theEveningBefore = EKAlarm(absoluteDate: start.addingTimeInterval(-12 * 3600))
    theEveningBefore.soundName = "Basso"
    let atTheStart = EKAlarm(relativeOffset: 0)
    event.addAlarm(twoHoursBefore)
    event.addAlarm(theEveningBefore)
    event.addAlarm(atTheStart)
    event.removeAlarm(atTheStart)
    try store.save(event, span: .thisEvent)

    let other = EKEventStore()
    let copy = try #require(other.event(withIdentifier: event.eventIdentifier))
    let alarms = try #require(copy.alarms)
    #expect(alarms.count == 2)
    #expect(alarms[0].relativeOffset == -7200 && alarms[0].absoluteDate == nil)
    #expect(alarms[0].type == .display)
    #expect(alarms[1].absoluteDate == start.addingTimeInterval(-43_200))
    #expect(alarms[1].soundName == "Basso" && alarms[1].type == .audio)

    for alarm in alarms {
      copy.removeAlarm(alarm)
    }
    try other.save(copy, span: .thisEvent)
    let reread = try #require(store.event(withIdentifier: event.eventIdentifier))
    #expect(!reread.hasAlarms && reread.alarms == nil)
  }

  @Test func locationBasedRemindersWithAGeofence() async throws {
    let store = EKEventStore()
    let calendar = try #require(store.defaultCalendarForNewReminders())

    // Apple: "Setting an alarm", Configure Geofences: a structured location made with
    // init(title:), its coordinates as a CLLocation in geoLocation, and a radius.
    let structuredLocation = EKStructuredLocation(title: "Apple Park")
    structuredLocation.geoLocation = CLLocation(latitude: 37.3349, longitude: -122.009)
    structuredLocation.radius = 250

    // Apple sample EKReminderSuite, LocationReminderStore.m createLocationReminder:.
    let myReminder = EKReminder(eventStore: store)
    myReminder.title = "Snippet: pick up the badge"
    myReminder.calendar = calendar

    // Create an alarm (the sample's [[EKAlarm alloc] init])
    let alarm = EKAlarm()
    // Configure a geofence by setting up the structured location and proximity properties
    alarm.proximity = alarm.proximityMatchingName("Arriving")
    alarm.structuredLocation = structuredLocation

    // Add the above alarm to myReminder
    myReminder.addAlarm(alarm)

    // Attempt to save the reminder
    try store.save(myReminder, commit: true)

    let plain = EKReminder(eventStore: store)
    plain.title = "Snippet: no geofence"
    plain.calendar = calendar
    try store.save(plain, commit: true)

    // EKRSReminderStore.m fetchLocationReminders and predicateForLocationReminders: (an
    // NSPredicate block there): the list's incomplete reminders with a location alarm.
    func locationReminders() async -> [EKReminder] {
      let reminders = await fetch(store, store.predicateForReminders(in: [calendar]))
      return reminders.filter { reminder in
        var hasLocationAlarm = false
        for alarm in reminder.alarms ?? [] {
          if !reminder.isCompleted && alarm.structuredLocation != nil
            && (alarm.proximity == .leave || alarm.proximity == .enter)
          {
            hasLocationAlarm = true
            break
          }
        }
        return hasLocationAlarm
      }
    }

    let found = await locationReminders()
    let badge = try #require(
      found.first { $0.calendarItemIdentifier == myReminder.calendarItemIdentifier })
    #expect(!found.contains { $0.calendarItemIdentifier == plain.calendarItemIdentifier })
    let geofence = try #require(badge.alarms?.first)
    #expect(geofence.proximity == .enter)
    let place = try #require(geofence.structuredLocation)
    #expect(place.title == "Apple Park" && place.radius == 250)
    #expect(place.geoLocation?.coordinate.latitude == 37.3349)
    #expect(place.geoLocation?.coordinate.longitude == -122.009)

    // EKRSReminderStore.m complete:, then the filter leaves the reminder out.
    myReminder.isCompleted = true
    try store.save(myReminder, commit: true)
    let afterCompleting = await locationReminders()
    #expect(
      !afterCompleting.contains { $0.calendarItemIdentifier == myReminder.calendarItemIdentifier })
  }

  // MARK: Reminders

  @Test func timedRemindersWithDueDatesRepeatsAndCompletion() async throws {
    let store = EKEventStore()
    let calendar = try #require(store.defaultCalendarForNewReminders())
    let inTwoDays = try #require(
      Calendar.current.date(
        bySettingHour: 9, minute: 30, second: 0, of: Date().addingTimeInterval(2 * 86_400)))
    let plants = try createTimedReminder(
      TimedReminder(
        title: "Snippet: water the plants", startDate: inTwoDays, frequency: "Biweekly",
        priority: "High"),
      eventStore: store, calendar: calendar)
    let passport = try createTimedReminder(
      TimedReminder(
        title: "Snippet: renew the passport", startDate: inTwoDays.addingTimeInterval(3600),
        frequency: "Never", priority: "Low"),
      eventStore: store, calendar: calendar)

    // What the sample saved, as another store reads it.
    let copy = try #require(
      EKEventStore().calendarItem(withIdentifier: plants.calendarItemIdentifier) as? EKReminder)
    let expected = Calendar(identifier: .gregorian).dateComponents(
      [.year, .month, .day, .hour, .minute], from: inTwoDays)
    let due = try #require(copy.dueDateComponents)
    #expect(due.year == expected.year && due.month == expected.month && due.day == expected.day)
    #expect(due.hour == 9 && due.minute == 30)
    #expect(copy.startDateComponents?.day == expected.day)
    #expect(copy.priority == 4)
    let rule = try #require(copy.recurrenceRules?.first)
    #expect(rule.frequency == .weekly && rule.interval == 2 && rule.recurrenceEnd == nil)
    #expect(copy.alarms?.first?.absoluteDate == inTwoDays)
    #expect(passport.recurrenceRules == nil && passport.priority == 6)

    // Apple sample EKReminderSuite, EKRSReminderStore.m fetchUpcomingRemindersWithDueDate: and
    // fetchPastDueRemindersWithDateStarting:.
    func upcoming() async -> [String] {
      // Predicate to fetch all incomplete reminders starting now and ending on endDate
      let endDate = Date().addingTimeInterval(7 * 86_400)
      let predicate = store.predicateForIncompleteReminders(
        withDueDateStarting: Date(), ending: endDate, calendars: [calendar])
      return await fetch(store, predicate).compactMap(\.title)
    }
    // Predicate to fetch all incomplete reminders ending now in the calendar
    let pastDue = store.predicateForIncompleteReminders(
      withDueDateStarting: Date().addingTimeInterval(-7 * 86_400), ending: Date(),
      calendars: [calendar])
    let upcomingTitles = await upcoming()
    #expect(upcomingTitles.contains("Snippet: water the plants"))
    #expect(upcomingTitles.contains("Snippet: renew the passport"))
    let pastDueTitles = await fetch(store, pastDue).compactMap(\.title)
    #expect(!pastDueTitles.contains("Snippet: renew the passport"))

    // EKRSReminderStore.m complete:
    let beforeCompleting = Date().addingTimeInterval(-60)
    // Use the completed property to mark a reminder as completed
    passport.isCompleted = true
    // Update the reminder
    try store.save(passport, commit: true)

    let completionDate = try #require(passport.completionDate)
    #expect(completionDate >= beforeCompleting && completionDate <= Date().addingTimeInterval(1))
    // EKRSReminderStore.m fetchCompletedRemindersWithDueDateStarting:ending:
    // Predicate to fetch all completed reminders falling within startDate and endDate in calendar
    let completed = store.predicateForCompletedReminders(
      withCompletionDateStarting: beforeCompleting, ending: Date().addingTimeInterval(60),
      calendars: [calendar])
    let completedTitles = await fetch(store, completed).compactMap(\.title)
    #expect(completedTitles.contains("Snippet: renew the passport"))
    #expect(!completedTitles.contains("Snippet: water the plants"))
    let stillUpcoming = await upcoming()
    #expect(!stillUpcoming.contains("Snippet: renew the passport"))
    #expect(stillUpcoming.contains("Snippet: water the plants"))
  }

  // MARK: Saving and removing

  @Test func savingAndRemovingEventsAndFindingThemByIdentifier() throws {
    let store = EKEventStore()

    // Apple: "Creating events and reminders": a new event from init(eventStore:) with a title,
    // dates and a calendar, saved with save(_:span:commit:).
    let event = EKEvent(eventStore: store)
    event.title = "Snippet: team lunch"
    event.startDate = localDate(2035, 6, 12, hour: 12)
    event.endDate = event.startDate.addingTimeInterval(3600)
    event.calendar = store.defaultCalendarForNewEvents
    try store.save(event, span: .thisEvent, commit: true)
    let yoga = try saveEvent(
      store, "Snippet: yoga", start: localDate(2035, 6, 1, hour: 7),
      rule: EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 5)))

    // Apple: "Retrieving events and reminders", Search with Unique Identifiers:
    // event(withIdentifier:) returns the first occurrence of a recurring event;
    // calendarItem(withIdentifier:) finds events and reminders.
    let other = EKEventStore()
    let lunch = try #require(other.event(withIdentifier: event.eventIdentifier))
    #expect(lunch.title == "Snippet: team lunch" && lunch.startDate == event.startDate)
    #expect(other.calendarItem(withIdentifier: event.calendarItemIdentifier) is EKEvent)
    let firstYoga = try #require(other.event(withIdentifier: yoga.eventIdentifier))
    #expect(firstYoga.startDate == localDate(2035, 6, 1, hour: 7))

    // EKSpan.futureEvents: the change applies to all future occurrences.
    firstYoga.title = "Snippet: morning yoga"
    try other.save(firstYoga, span: .futureEvents, commit: true)
    let june = store.predicateForEvents(
      withStart: localDate(2035, 6, 1), end: localDate(2035, 7, 1), calendars: nil)
    #expect(
      store.events(matching: june).filter { $0.eventIdentifier == yoga.eventIdentifier }
        .compactMap(\.title) == Array(repeating: "Snippet: morning yoga", count: 5))

    // remove(_:span:commit:); with .futureEvents it removes all future occurrences.
    let lunchIdentifier: String = event.eventIdentifier
    let yogaIdentifier: String = yoga.eventIdentifier
    try store.remove(event, span: .thisEvent, commit: true)
    try other.remove(firstYoga, span: .futureEvents, commit: true)
    let after = EKEventStore()
    #expect(after.event(withIdentifier: lunchIdentifier) == nil)
    #expect(after.event(withIdentifier: yogaIdentifier) == nil)
    #expect(
      !after.events(matching: june).contains {
        $0.eventIdentifier == lunchIdentifier || $0.eventIdentifier == yogaIdentifier
      })

    // Reminders: save(_:commit:) and remove(_:commit:).
    let reminder = EKReminder(eventStore: store)
    reminder.title = "Snippet: book the restaurant"
    reminder.calendar = store.defaultCalendarForNewReminders()
    try store.save(reminder, commit: true)
    let found = after.calendarItem(withIdentifier: reminder.calendarItemIdentifier)
    #expect((found as? EKReminder)?.title == "Snippet: book the restaurant")
    try store.remove(reminder, commit: true)
    #expect(EKEventStore().calendarItem(withIdentifier: reminder.calendarItemIdentifier) == nil)
  }

  @Test func batchingWithCommitFalseThenCommit() async throws {
    let dataStore = EventDataStore()
    let store = dataStore.eventStore
    let now = Date()
    func titlesInAnotherStore() -> [String] {
      let other = EKEventStore()
      let predicate = other.predicateForEvents(
        withStart: now, end: now.addingTimeInterval(20 * 86_400), calendars: nil)
      return other.events(matching: predicate).compactMap(\.title).filter {
        $0.hasPrefix("Snippet: session")
      }
    }

    // Apple: "Creating events and reminders": with commit false, the change waits for
    // commit().
    for day in 2...4 {
      try saveEvent(
        store, "Snippet: session \(day)", start: now.addingTimeInterval(Double(day) * 86_400),
        commit: false)
    }
    #expect(titlesInAnotherStore().isEmpty)
    try store.commit()
    #expect(
      titlesInAnotherStore() == ["Snippet: session 2", "Snippet: session 3", "Snippet: session 4"])

    // Apple sample "Accessing Calendar using EventKit and EventKitUI", MonthlyEvents: fetch the
    // month's events sorted by start date, then remove the chosen ones in one batch.
    let chosen = await dataStore.fetchEvents().filter { $0.title.hasPrefix("Snippet: session") }
    #expect(
      chosen.compactMap(\.title) == [
        "Snippet: session 2", "Snippet: session 3", "Snippet: session 4",
      ])
    try await dataStore.removeEvents(chosen)
    #expect(titlesInAnotherStore().isEmpty)

    // A removal that fails mid-batch: the sample's reset() drops the removals staged before it.
    let kept = try saveEvent(
      store, "Snippet: session kept", start: now.addingTimeInterval(5 * 86_400))
    let foreign = try saveEvent(
      EKEventStore(), "Snippet: session of another store",
      start: now.addingTimeInterval(6 * 86_400))
    let error = await #expect(throws: EKError.self) {
      try await dataStore.removeEvents([kept, foreign])
    }
    #expect(error?.code == .objectBelongsToDifferentStore)
    #expect(store.event(withIdentifier: kept.eventIdentifier) != nil)
    #expect(
      titlesInAnotherStore() == ["Snippet: session kept", "Snippet: session of another store"])
  }

  // MARK: Notifications

  @Test func observingChangesToTheCalendarDatabase() async throws {
    let eventStore = EKEventStore()
    let event = try saveEvent(
      eventStore, "Snippet: book club", start: localDate(2037, 4, 10, hour: 19))
    let changes = ChangeCounter()
    let notices = StoreNotices(eventStore)

    // Apple: "Updating with notifications", Register for Notifications (the EKReminderSuite
    // sample's EKRSReminderStore registers the same way). A block stands in for the selector.
    let observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: nil
    ) { notification in
      changes.storeChanged(notification)
    }
    defer { NotificationCenter.default.removeObserver(observer) }

    // Let the notification of the save above pass (it comes before a later commit's), then
    // another app changes the event.
    let other = EKEventStore()
    let sentinel = try #require(
      try await notices.commitSentinel(from: other, readBy: EKEventStore()))
    let beforeRename = changes.count
    let theirs = try #require(other.event(withIdentifier: event.eventIdentifier))
    theirs.title = "Snippet: book club (moved)"
    try other.save(theirs, span: .thisEvent)
    #expect(try await Latency.eventually("the rename's notice") { changes.count > beforeRename })

    // Respond to Notifications: refetch the range on display; or, for an event being edited,
    // call refresh(), which returns true while the event can still be used.
    let april = eventStore.predicateForEvents(
      withStart: localDate(2037, 4, 1), end: localDate(2037, 5, 1), calendars: nil)
    #expect(
      eventStore.events(matching: april).contains { $0.title == "Snippet: book club (moved)" })
    #expect(event.refresh())
    #expect(event.title == "Snippet: book club (moved)")

    let beforeRemoval = changes.count
    try other.remove(theirs, span: .thisEvent)
    #expect(try await Latency.eventually("the removal's notice") { changes.count > beforeRemoval })
    #expect(!event.refresh())
    #expect(!eventStore.events(matching: april).contains { $0.title.hasPrefix("Snippet: book") })
    try other.remove(
      try #require(other.calendarItem(withIdentifier: sentinel.identifier) as? EKEvent),
      span: .thisEvent)
  }

  // MARK: Calendars

  @Test func creatingACalendarInTheLocalSource() throws {
    let store = EKEventStore()

    // Apple: EKCalendar init(for:eventStore:) makes a calendar for one entity type; it needs a
    // source and a title, and saveCalendar(_:commit:) saves it.
    let calendar = EKCalendar(for: .event, eventStore: store)
    calendar.title = "Snippet: band practice"
    calendar.source = store.sources.first { $0.sourceType == .local }
    calendar.cgColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    try store.saveCalendar(calendar, commit: true)

    let other = EKEventStore()
    let copy = try #require(other.calendar(withIdentifier: calendar.calendarIdentifier))
    #expect(copy.title == "Snippet: band practice")
    #expect(copy.type == .local && copy.source.sourceType == .local)
    #expect(copy.allowsContentModifications && copy.allowedEntityTypes == .event)
    #expect(other.calendars(for: .event).contains(copy))
    #expect(!other.calendars(for: .reminder).contains(copy))
    #expect(copy.source.calendars(for: .event).contains(copy))
    let components = try #require(copy.cgColor.components)
    #expect(zip(components, [0.2, 0.4, 0.8, 1]).allSatisfy { abs($0 - $1) < 0.01 })

    // An event in the new calendar, found by searching that calendar only.
    let rehearsal = EKEvent(eventStore: store)
    rehearsal.calendar = calendar
    rehearsal.title = "Snippet: rehearsal"
    rehearsal.startDate = localDate(2038, 1, 20, hour: 20)
    rehearsal.endDate = rehearsal.startDate.addingTimeInterval(7200)
    try store.save(rehearsal, span: .thisEvent)
    let january = other.predicateForEvents(
      withStart: localDate(2038, 1, 1), end: localDate(2038, 2, 1), calendars: [copy])
    #expect(other.events(matching: january).compactMap(\.title) == ["Snippet: rehearsal"])

    // removeCalendar(_:commit:) removes the calendar with its events.
    try store.removeCalendar(calendar, commit: true)
    let after = EKEventStore()
    #expect(after.calendar(withIdentifier: calendar.calendarIdentifier) == nil)
    #expect(after.event(withIdentifier: rehearsal.eventIdentifier) == nil)
  }

  // MARK: Errors

  @Test func handlingEventKitErrors() throws {
    let store = EKEventStore()

    // Apple: "Creating events and reminders": a reminder's title and calendar must be set
    // before it is saved.
    let reminder = EKReminder(eventStore: store)
    reminder.title = "Snippet: a reminder in no list"
    do {
      try store.save(reminder, commit: true)
      Issue.record("a reminder without a calendar was saved")
    } catch let error as EKError {
      #expect(error.code == .noCalendar)
    }
    #expect(store.calendarItem(withIdentifier: reminder.calendarItemIdentifier) == nil)

    // EKError.Code.datesInverted: the event's end date is before its start date.
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Snippet: backwards"
    event.startDate = localDate(2039, 5, 1, hour: 10)
    event.endDate = event.startDate.addingTimeInterval(-3600)
    var caught = false
    do {
      try store.save(event, span: .thisEvent)
    } catch EKError.datesInverted {
      caught = true
    }
    #expect(caught)

    // EKError.Code.calendarReadOnly: the calendar is read-only (the subscribed Holidays).
    event.endDate = event.startDate.addingTimeInterval(3600)
    event.calendar = store.calendars(for: .event).first { !$0.allowsContentModifications }
    #expect(event.calendar != nil)
    do {
      try store.save(event, span: .thisEvent)
      Issue.record("an event was saved in a read-only calendar")
    } catch let error as EKError where error.code == .calendarReadOnly {
      #expect(event.eventIdentifier == nil)
    }

    // Apple: EKEventStore, "don't fetch an event from one event store, modify the event, and
    // then pass it to save(_:span:) in a different store".
    event.calendar = store.defaultCalendarForNewEvents
    try store.save(event, span: .thisEvent)
    let fetched = try #require(store.event(withIdentifier: event.eventIdentifier))
    fetched.title = "Snippet: forwards"
    let otherStore = EKEventStore()
    let error = #expect(throws: EKError.self) {
      try otherStore.save(fetched, span: .thisEvent)
    }
    #expect(error?.code == .objectBelongsToDifferentStore)
    #expect(otherStore.event(withIdentifier: event.eventIdentifier)?.title == "Snippet: backwards")
  }
}

// MARK: - Apple sample code the tests call

// Apple sample "Accessing Calendar using EventKit and EventKitUI" (WWDC23 session 10052),
// MonthlyEvents target: EventDataStore.swift, without the parts no test uses.
private actor EventDataStore {
  let eventStore: EKEventStore

  init() {
    self.eventStore = EKEventStore()
  }

  var isFullAccessAuthorized: Bool {
    EKEventStore.authorizationStatus(for: .event) == .fullAccess
  }

  /// Prompts the user for full-access authorization to Calendar.
  private func requestFullAccess() async throws -> Bool {
    if #available(iOS 17.0, *) {
      return try await eventStore.requestFullAccessToEvents()
    } else {
      // Fall back on earlier versions.
      return try await eventStore.requestAccess(to: .event)
    }
  }

  /// Verifies the authorization status for the app.
  func verifyAuthorizationStatus() async throws -> Bool {
    let status = EKEventStore.authorizationStatus(for: .event)
    switch status {
    case .notDetermined:
      return try await requestFullAccess()
    case .restricted:
      throw EventStoreError.restricted
    case .denied:
      throw EventStoreError.denied
    case .fullAccess:
      return true
    case .writeOnly:
      throw EventStoreError.upgrade
    @unknown default:
      throw EventStoreError.unknown
    }
  }

  /// Fetches all events occuring within a month in all the user's calendars.
  func fetchEvents() -> [EKEvent] {
    guard isFullAccessAuthorized else { return [] }
    let start = Date.now
    let end = start.oneMonthOut
    let predicate = eventStore.predicateForEvents(withStart: start, end: end, calendars: nil)
    return eventStore.events(matching: predicate).sortedEventByAscendingDate()
  }

  /// Removes an event.
  private func removeEvent(_ event: EKEvent) throws {
    try self.eventStore.remove(event, span: .thisEvent, commit: false)
  }

  /// Batches all the remove operations.
  func removeEvents(_ events: [EKEvent]) throws {
    do {
      // swift-format-ignore: ReplaceForEachWithForLoop
      try events.forEach { event in
        try removeEvent(event)
      }
      try eventStore.commit()
    } catch {
      eventStore.reset()
      throw error
    }
  }
}

// The same sample, EventStoreError.swift.
private enum EventStoreError: Error {
  case denied
  case restricted
  case unknown
  case upgrade
}

// The same sample, Array+Extension.swift and Date+Extension.swift.
extension Array {
  /// An array of events sorted by start date in ascending order.
  fileprivate func sortedEventByAscendingDate() -> [EKEvent] {
    guard let self = self as? [EKEvent] else { return [] }

    return self.sorted(by: { (first: EKEvent, second: EKEvent) in
      return first.compareStartDate(with: second) == .orderedAscending
    })
  }
}

extension Date {
  /// Thirty minutes from the current time.
  fileprivate var thirtyMinutesLater: Date {
    Date(timeInterval: 1800, since: self)
  }

  /// A month from the current date.
  fileprivate var oneMonthOut: Date {
    Calendar.current.date(byAdding: .month, value: 1, to: Date.now) ?? Date()
  }
}

// The same sample, RepeatingLessons target. `Lesson` keeps the fields its EventKit code reads.
private struct Lesson {
  enum LessonType {
    case single
    case recurring
  }

  struct LessonDay {
    var dayOfWeek: EKRecurrenceDayOfWeek
  }

  var title: String
  var type: LessonType
  var days: [LessonDay]
  var repeats: LessonRecurrence?
  var interval: Int?
  var occurrenceCount: Int?
}

private enum LessonRecurrence: Int {
  case weekly = 1
  case monthly = 2

  var frequency: EKRecurrenceFrequency {
    switch self {
    case .weekly: return .weekly
    case .monthly: return .monthly
    }
  }
}

extension Lesson {
  /// The amount of occurences of a recurring lesson.
  var recurrenceEnd: EKRecurrenceEnd {
    guard let occurrenceCount = occurrenceCount else { fatalError() }
    return EKRecurrenceEnd(occurrenceCount: occurrenceCount)
  }

  /// Specifies when a recurring lesson ends.
  var recurenceRule: EKRecurrenceRule {
    let recurrenceDayOfWeek = days.map({ (item: LessonDay) in item.dayOfWeek })
    guard let repeats = repeats, let interval = interval else { fatalError() }

    return EKRecurrenceRule(
      recurrenceWith: repeats.frequency,
      interval: interval,
      daysOfTheWeek: recurrenceDayOfWeek,
      daysOfTheMonth: nil,
      monthsOfTheYear: nil,
      weeksOfTheYear: nil,
      daysOfTheYear: nil,
      setPositions: nil,
      end: recurrenceEnd)
  }

  /// Create an event with the lesson details. Use the user's default calendar if the specified
  /// calendar doesn't exist.
  func eventWithDate(_ date: Date, store: EKEventStore, calendar: EKCalendar? = nil) -> EKEvent {
    // The sample's buildStartDate(date:) moves to the lesson's next day; `date` is that day.
    let startDate = date
    let endDate = startDate.thirtyMinutesLater

    let newEvent = EKEvent(
      lesson: self,
      eventStore: store,
      calendar: calendar ?? store.defaultCalendarForNewEvents,
      startDate: startDate,
      endDate: endDate)

    return newEvent
  }
}

extension EKEvent {
  /// Creates a nonfloating event that uses the specified lesson, event store, calendar, start
  /// date, and end date.
  fileprivate convenience init(
    lesson: Lesson, eventStore store: EKEventStore, calendar: EKCalendar?, startDate: Date,
    endDate: Date
  ) {
    self.init(eventStore: store)
    self.title = lesson.title
    self.calendar = calendar
    self.startDate = startDate
    self.endDate = endDate

    // A floating event is one that isn't associated with a specific time zone. Set `timeZone`
    // to nil if you wish to have a floating event.
    self.timeZone = TimeZone.current

    if lesson.type == .recurring {
      self.addRecurrenceRule(lesson.recurenceRule)
    }
  }
}

// Apple sample EKReminderSuite (2015, Objective-C), EKTimedReminders: TimedReminder.h (the
// fields the store reads), TimedReminderStore.m createTimedReminder:, and the categories of
// EKRSReminderStoreUtilities.m it calls, in Swift.
private struct TimedReminder {
  var title: String
  var startDate: Date
  var frequency: String
  var priority: String
}

// Create a timed-based reminder
private func createTimedReminder(
  _ reminder: TimedReminder, eventStore: EKEventStore, calendar: EKCalendar
) throws -> EKReminder {
  let myReminder = EKReminder(eventStore: eventStore)
  myReminder.title = reminder.title
  myReminder.calendar = calendar
  myReminder.priority = priorityMatchingName(reminder.priority)

  // Create the date components of the reminder's start date components
  let gregorian = Calendar(identifier: .gregorian)
  let unitFlags: Set<Calendar.Component> = [.second, .minute, .hour, .day, .month, .year]
  var dateComponents = gregorian.dateComponents(unitFlags, from: reminder.startDate)
  dateComponents.timeZone = myReminder.timeZone

  // For iOS apps, EventKit requires a start date if a due date was set
  myReminder.startDateComponents = dateComponents
  myReminder.dueDateComponents = dateComponents

  // Create a recurrence rule if the reminder repeats itself over a given period of time
  if reminder.frequency != "Never" {
    // Fetch the recurrence rule matching the reminder's frequency, then apply it to myReminder
    myReminder.addRecurrenceRule(recurrenceRuleMatchingFrequency(reminder.frequency))
  }

  // Create an alarm that will fire at a specific date and time
  let alarm = EKAlarm(absoluteDate: reminder.startDate)
  // Attach an alarm to the reminder
  myReminder.addAlarm(alarm)

  // Attempt to save the reminder
  try eventStore.save(myReminder, commit: true)
  return myReminder
}

// Return the priority value matching a given name
private func priorityMatchingName(_ name: String) -> Int {
  switch name {
  case "High": return 4
  case "Medium": return 5
  case "Low": return 6
  default: return 0
  }
}

// Return the EKRecurrenceFrequency value matching a given name
private func frequencyMatchingName(_ name: String) -> EKRecurrenceFrequency {
  switch name {
  case "Weekly": return .weekly
  case "Monthly": return .monthly
  case "Yearly": return .yearly
  default: return .daily
  }
}

// Create a recurrence rule
private func recurrenceRuleMatchingFrequency(_ frequency: String) -> EKRecurrenceRule {
  // Create a recurrence interval matching the specified frequency
  let interval = frequency == "Biweekly" ? 2 : 1
  // Create a weekly recurrence frequency if the reminder repeats every two weeks. Fetch the
  // EKRecurrenceFrequency value matching frequency, otherwise.
  let recurrenceFrequency =
    frequency == "Biweekly" ? EKRecurrenceFrequency.weekly : frequencyMatchingName(frequency)

  // Create a recurrence rule using the above recurrenceFrequency and interval
  return EKRecurrenceRule(recurrenceWith: recurrenceFrequency, interval: interval, end: nil)
}

// The same sample's EKAlarm (AlarmAdditions) category.
extension EKAlarm {
  // Return the EKAlarmProximity value matching a given name
  fileprivate func proximityMatchingName(_ name: String) -> EKAlarmProximity {
    // Default value
    var alarmProximity = EKAlarmProximity.none

    if name == "Leaving" {
      alarmProximity = .leave
    } else if name == "Arriving" {
      alarmProximity = .enter
    }

    return alarmProximity
  }
}

// MARK: - Helpers (setup and checks, not from Apple)

/// Saves a one-hour event in the default calendar.
@discardableResult
private func saveEvent(
  _ store: EKEventStore, _ title: String, start: Date, rule: EKRecurrenceRule? = nil,
  commit: Bool = true
) throws -> EKEvent {
  let event = EKEvent(eventStore: store)
  event.calendar = store.defaultCalendarForNewEvents
  event.title = title
  event.startDate = start
  event.endDate = start.addingTimeInterval(3600)
  if let rule {
    event.addRecurrenceRule(rule)
  }
  try store.save(event, span: rule == nil ? .thisEvent : .futureEvents, commit: commit)
  return event
}

/// A date on the current calendar, in the current time zone.
private func localDate(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0) -> Date {
  Calendar.current.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
}

/// `yyyy-MM-dd` of a date on the current calendar.
private func dayText(_ date: Date) -> String {
  let components = Calendar.current.dateComponents([.year, .month, .day], from: date)
  return String(format: "%04d-%02d-%02d", components.year!, components.month!, components.day!)
}

/// The reminders `fetchReminders(matching:completion:)` delivers on its background queue.
private func fetch(_ store: EKEventStore, _ predicate: NSPredicate) async -> [EKReminder] {
  await withCheckedContinuation { continuation in
    store.fetchReminders(matching: predicate) { reminders in
      continuation.resume(returning: reminders ?? [])
    }
  }
}

/// Polls `condition` every 20 ms for up to five seconds; returns whether it came true.
/// Counts `EKEventStoreChanged` notifications; the observer block runs on the posting thread.
private final class ChangeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var received = 0

  func storeChanged(_ notification: Notification) {
    lock.withLock { received += 1 }
  }

  var count: Int { lock.withLock { received } }
}
