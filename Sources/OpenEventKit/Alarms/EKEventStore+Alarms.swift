import Foundation

extension EKEventStore {
  /// The alarms that fire in `[start, end)`, in the order they fire: an OpenEventKit addition,
  /// since on Apple's systems the system fires alarms and EventKit has no such query.
  ///
  /// - Events: a relative alarm fires at each occurrence's start plus its offset (a repeating
  ///   event's every occurrence, a detached occurrence with its own alarms, a removed one not
  ///   at all); an all-day event starts at midnight on the current clock, so an offset of
  ///   9 hours fires at 09:00 that day, also on a day the clocks change (an all-day or
  ///   floating time's offset moves it on the wall clock; a zoned time's is elapsed time).
  ///   An absolute alarm fires once, at its date.
  /// - Reminders: only those not completed. A relative alarm fires at the due date plus its
  ///   offset (a due date without a time is midnight, and one without a zone is read on the
  ///   wall clock as an all-day event's), and not at all without a due date; an
  ///   absolute alarm fires at its date. A repeating reminder's alarms fire for its current
  ///   due date, which completing it moves on.
  /// - Location alarms (with a `proximity`) fire on arriving or leaving, which needs a
  ///   position this store does not have: they are not here; ``locationAlarmItems(calendars:)``
  ///   lists them.
  ///
  /// Two alarms of one occurrence at the same moment are one firing. Only what the app may
  /// read is searched (nothing without full access). See <doc:Alarms>.
  ///
  /// - Parameters:
  ///   - start: The first moment of the window.
  ///   - end: The end of the window, excluded; a window that does not end after `start` has
  ///     no firing.
  ///   - calendars: The calendars and reminder lists to search; nil for all of them.
  /// - Returns: The firings, by ``AlarmFiring/fireDate``, then title.
  ///
  /// ```swift
  /// let now = Date()
  /// if let next = store.alarmFirings(from: now, to: now.addingTimeInterval(7 * 86_400)).first {
  ///   print("next alarm:", next.title, "at", next.fireDate)
  /// }
  /// ```
  public func alarmFirings(from start: Date, to end: Date, calendars: [EKCalendar]? = nil)
    -> [AlarmFiring]
  {
    Array(alarmFiringSequence(from: start, to: end, calendars: calendars))
  }

  /// The alarms that fire in `[start, end)`, in the order they fire, as
  /// ``alarmFirings(from:to:calendars:)`` gives them, but found one at a time as they are
  /// read: memory holds the next firing of each alarm, never the window's whole list, however
  /// long the window and however often an alarm fires (an event repeating every second has
  /// 604,800 firings a week). An OpenEventKit addition. See <doc:Alarms>.
  ///
  /// The store is read a month of the window at a time, as the sequence is iterated: what
  /// another app commits meanwhile is seen from the next month on.
  ///
  /// - Parameters:
  ///   - start: The first moment of the window.
  ///   - end: The end of the window, excluded.
  ///   - calendars: The calendars and reminder lists to search; nil for all of them.
  /// - Returns: The firings, by ``AlarmFiring/fireDate``, then title, found as they are read.
  ///
  /// ```swift
  /// let now = Date()
  /// // The next alarm of the year, without finding the others.
  /// let year = store.alarmFiringSequence(from: now, to: now.addingTimeInterval(365 * 86_400))
  /// if let next = year.first(where: { _ in true }) { print("next:", next.title, next.fireDate) }
  /// // How many fire this week, one at a time.
  /// var count = 0
  /// for _ in store.alarmFiringSequence(from: now, to: now.addingTimeInterval(7 * 86_400)) {
  ///   count += 1
  /// }
  /// print(count, "firings this week")
  /// ```
  public func alarmFiringSequence(
    from start: Date, to end: Date, calendars: [EKCalendar]? = nil
  ) -> AlarmFiringSequence {
    AlarmFiringSequence(
      store: self, start: start, end: end, calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// The firings of one stretch of a window, from each alarm in firing order, merged.
  func firingMerge(in window: Range<Double>, calendarIds ids: [String]?) -> FiringMerge {
    let calendarIds = searchedCalendars(ids)
    let titles = CalendarTitles(self)
    var sources: [AnyIterator<AlarmFiring>] = []
    if canRead(.event) {
      sources += relativeEventFirings(in: window, calendarIds: calendarIds, titles: titles)
      sources.append(
        Self.inOrder(absoluteEventFirings(in: window, calendarIds: calendarIds, titles: titles)))
    }
    if canRead(.reminder) {
      sources.append(
        Self.inOrder(reminderFirings(in: window, calendarIds: calendarIds, titles: titles)))
    }
    return FiringMerge(sources)
  }

  /// A few firings found at once (absolute alarms, reminders'), sorted: one source.
  private static func inOrder(_ firings: [AlarmFiring]) -> AnyIterator<AlarmFiring> {
    AnyIterator(firings.sorted(by: FiringHeap<Void>.precedes).makeIterator())
  }

  /// The events and reminders with a location alarm (one with a `proximity`), which no time
  /// fires: they need the person's position, which OpenEventKit does not have. An OpenEventKit
  /// addition, for telling the person so (`ekctl alarms` lists them). See <doc:Alarms>.
  ///
  /// - Parameter calendars: The calendars and reminder lists to search; nil for all of them.
  /// - Returns: Each item once (a repeating event as its first occurrence), by title.
  ///
  /// ```swift
  /// for item in store.locationAlarmItems() {
  ///   let places = (item.alarms ?? []).compactMap { $0.structuredLocation?.title }
  ///   print(item.title ?? "", "needs a position:", places.joined(separator: ", "))
  /// }
  /// ```
  public func locationAlarmItems(calendars: [EKCalendar]? = nil) -> [EKCalendarItem] {
    let calendarIds = searchedCalendars(calendars?.map(\.calendarIdentifier)).map(Set.init)
    var items: [EKCalendarItem] = []
    for kind in [EKEntityType.event, .reminder] where canRead(kind) {
      let records = itemRecords { db in
        try AlarmRows.itemsWithLocationAlarms(db, kind: kind)
      } staged: {
        $0.kind == kind && Self.alarms(of: $0).contains { $0.proximity != .none }
      }
      items += records.filter { calendarIds?.contains($0.calendarId) ?? true }
        .compactMap(makeFirstItem)
    }
    return items.sorted {
      ($0.title ?? "", $0.calendarItemIdentifier) < ($1.title ?? "", $1.calendarItemIdentifier)
    }
  }

  // MARK: Events

  /// Relative alarms: the occurrences that start early or late enough for one of their
  /// alarms to fire in the window, expanded as a fetch expands them, each alarm of each row a
  /// source of its own whose firings come in order as its occurrences are read.
  private func relativeEventFirings(
    in window: Range<Double>, calendarIds: [String]?, titles: CalendarTitles
  ) -> [AnyIterator<AlarmFiring>] {
    var bounds = read { db in try AlarmRows.eventOffsetBounds(db) } ?? nil
    for row in state.withLock({ $0.staged.presentItems }) where row.kind == .event {
      for offset in AlarmOffsets.relative(row.record.alarms) {
        bounds = (min(bounds?.lowest ?? offset, offset), max(bounds?.highest ?? offset, offset))
      }
    }
    guard let bounds else { return [] }
    // An occurrence starting at s fires at s + offset: those in the window start in
    // [start - highest, end - lowest), widened by the most a change of the clock's offset can
    // move a firing reckoned on the wall clock (below).
    let slack = Double(Self.wallClockSlack)
    let earliest = Int((window.lowerBound - bounds.highest - slack).rounded(.down))
    let latest = Int((window.upperBound - bounds.lowest + slack).rounded(.up)) + 1
    let query = EventQuery(
      start: earliest, end: latest, startAtLeast: earliest, calendarIds: calendarIds)
    let clock = WallClock.current
    var sources: [AnyIterator<AlarmFiring>] = []
    for row in eventRows(for: query) where row.record.alarms != nil {
      let offsets = AlarmOffsets.relative(row.record.alarms)
      guard !offsets.isEmpty else { continue }
      let onWallClock = row.record.isAllDay || row.record.timeZone == nil
      let base = LazyBase(row: row, clock: clock)
      for offset in offsets {
        var occurrences = query.lazyOccurrences(of: row, clock: clock)
        let firings = AnyIterator<AlarmFiring> { [self] in
          while let times = occurrences.next() {
            let fire =
              onWallClock
              ? Self.wallClockFiring(reading: times.startReading, offset: offset, clock: clock)
              : Double(times.start) + offset
            guard window.contains(fire) else {
              // A zoned time's firings come in order: none after this one is in the window.
              if !onWallClock, fire >= window.upperBound { return nil }
              continue
            }
            let event = event(row, base: base.values, times: times)
            return Self.firing(of: event, at: fire, trigger: .relative(offset), titles: titles)
          }
          return nil
        }
        // A zoned time's firings come in the order of its occurrences; a wall-clock time's
        // can stray by a change of the clock's offset.
        sources.append(
          onWallClock ? AnyIterator(SlackOrdered(firings, slack: slack)) : firings)
      }
    }
    return sources
  }

  /// Absolute alarms of events: once each, with the event's first occurrence (or the
  /// detached occurrence whose alarm it is).
  private func absoluteEventFirings(
    in window: Range<Double>, calendarIds: [String]?, titles: CalendarTitles
  ) -> [AlarmFiring] {
    let records = itemRecords { db in
      try AlarmRows.eventsWithAbsoluteAlarms(db, from: window.lowerBound, to: window.upperBound)
    } staged: {
      $0.kind == .event
    }
    var firings: [AlarmFiring] = []
    for record in records where calendarIds.map({ $0.contains(record.calendarId) }) ?? true {
      // A location alarm fires on arriving or leaving, never by its date.
      let dates = Self.alarms(of: record).filter { $0.proximity == .none }
        .compactMap(\.absoluteDate).filter { window.contains($0.timeIntervalSince1970) }
      guard !dates.isEmpty, let event = makeFirstItem(record) as? EKEvent else { continue }
      for date in dates {
        firings.append(
          Self.firing(
            of: event, at: date.timeIntervalSince1970, trigger: .absolute(date), titles: titles))
      }
    }
    return firings
  }

  // MARK: Reminders

  private func reminderFirings(
    in window: Range<Double>, calendarIds: [String]?, titles: CalendarTitles
  ) -> [AlarmFiring] {
    let records = itemRecords { db in
      try AlarmRows.incompleteRemindersWithAlarms(db)
    } staged: {
      $0.kind == .reminder && !$0.isCompleted && $0.alarms != nil
    }
    var firings: [AlarmFiring] = []
    for record in records where calendarIds.map({ $0.contains(record.calendarId) }) ?? true {
      let due = record.values().dueComponents.flatMap(ReminderDue.init)
      var reminder: EKReminder?
      for alarm in Self.alarms(of: record) where alarm.proximity == .none {
        let fire: Double
        let trigger: AlarmFiring.Trigger
        if let date = alarm.absoluteDate {
          (fire, trigger) = (date.timeIntervalSince1970, .absolute(date))
        } else if let due {
          let offset = alarm.relativeOffset
          fire =
            due.timeZone == nil
            ? Self.wallClockFiring(reading: due.reading, offset: offset, clock: .current)
            : due.date.timeIntervalSince1970 + offset
          trigger = .relative(offset)
        } else {
          continue  // relative to a due date it does not have
        }
        guard window.contains(fire) else { continue }
        if reminder == nil {
          reminder = EKReminder(
            eventStore: self, record: StoredRecord(record), values: record.values())
        }
        firings.append(
          Self.firing(
            of: reminder.unsafelyUnwrapped, due: due, at: fire, trigger: trigger, titles: titles))
      }
    }
    return firings
  }

  // MARK: Values

  /// When a relative alarm of an all-day or floating time fires: its offset moves the time's
  /// reading on the current clock, not its instant. Such a time is a reading (RFC 5545
  /// §3.3.5: floating; a DATE has no zone at all), so "on the day at 09:00" (`PT9H`) fires at
  /// 09:00 also on the day daylight saving time begins or ends — as python-icalendar's alarm
  /// times reckon it (a floating time plus a duration) — where adding nine hours to the
  /// instant of midnight would fire at 10:00 or 08:00. A zoned time's alarm fires its offset
  /// away in elapsed time.
  private static func wallClockFiring(reading: Int, offset: Double, clock: WallClock) -> Double {
    Double(clock.instant(reading + AlarmWords.seconds(offset)))
  }

  /// The most a wall-clock firing can be from its instant plus its offset: a change of a
  /// zone's offset between the time and the firing (an hour in most zones; two at most).
  private static let wallClockSlack = 3 * 3600

  private static func alarms(of record: ItemRecord) -> [AlarmValues] {
    JSONColumn.value([AlarmValues].self, from: record.alarms) ?? []
  }

  private static func firing(
    of event: EKEvent, at seconds: Double, trigger: AlarmFiring.Trigger, titles: CalendarTitles
  ) -> AlarmFiring {
    let calendarId = event.values.calendarId ?? ""
    return AlarmFiring(
      fireDate: Date(timeIntervalSince1970: seconds), trigger: trigger, entityType: .event,
      calendarItemIdentifier: event.calendarItemIdentifier,
      occurrenceDate: event.occurrenceDate, title: event.title ?? "",
      location: event.location, startDate: event.startDate, endDate: event.endDate,
      isAllDay: event.isAllDay, calendarIdentifier: calendarId,
      calendarTitle: titles.title(of: calendarId))
  }

  private static func firing(
    of reminder: EKReminder, due: ReminderDue?, at seconds: Double,
    trigger: AlarmFiring.Trigger, titles: CalendarTitles
  ) -> AlarmFiring {
    let calendarId = reminder.values.calendarId ?? ""
    return AlarmFiring(
      fireDate: Date(timeIntervalSince1970: seconds), trigger: trigger, entityType: .reminder,
      calendarItemIdentifier: reminder.calendarItemIdentifier, occurrenceDate: nil,
      title: reminder.title ?? "", location: reminder.location, startDate: due?.date,
      endDate: nil, isAllDay: due?.isDateOnly ?? false,
      calendarIdentifier: calendarId, calendarTitle: titles.title(of: calendarId))
  }
}

/// A row's values, made once for all the firings of its alarms, when the first is found.
private final class LazyBase {
  private let row: StoredRecord
  private let clock: WallClock
  private var made: ItemValues?

  init(row: StoredRecord, clock: WallClock) {
    self.row = row
    self.clock = clock
  }

  var values: ItemValues {
    if let made { return made }
    let values = row.values(current: clock)
    made = values
    return values
  }
}

/// The titles of the calendars of one search's firings, each looked up once.
private final class CalendarTitles {
  private let store: EKEventStore
  private var titles: [String: String] = [:]

  init(_ store: EKEventStore) { self.store = store }

  func title(of id: String) -> String {
    if let title = titles[id] { return title }
    let title = store.calendar(withIdentifier: id)?.title ?? ""
    titles[id] = title
    return title
  }
}
