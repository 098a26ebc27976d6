import Foundation
import GRDB
import ICalendar

/// A VEVENT or VTODO read into a row of the store, not yet placed in a calendar.
struct ImportedItem {
  var record: ItemRecord
  var uid: String
  /// For an override (a VEVENT with RECURRENCE-ID): the instance it replaces, on the series'
  /// clock once the series is known.
  var recurrenceId: DateTimeValue?
  var line: Int
  /// Whether it replaces an item already in the calendar (the same UID).
  var replaces = false
  /// Instances an RDATE gives as a PERIOD of another length than the event's: EventKit has
  /// one length per series, so each becomes a detached occurrence with its own end.
  var periodOccurrences: [ImportedItem] = []
  /// Whether this is one of those: an instance of its series with its own end, not an
  /// override in the file.
  var isPeriod = false
  /// For an override with `RECURRENCE-ID;RANGE=THISANDFUTURE`: that line, written back on
  /// export when the override can only replace its own instance.
  var range: String?
  /// For an override moved into a series that a THISANDFUTURE split made: the key its
  /// detached row had under the original series (series id and RECURRENCE-ID), so that a row
  /// an earlier import made is updated, not doubled.
  var formerKey: String?
  /// For a to-do with RECURRENCE-ID: that line, kept as written, by which the reminder it
  /// becomes is found again (EKReminder has no detached occurrences).
  var reminderOverrideLine: String?

  /// Which instance of its UID the item is, for telling versions of one item apart: the
  /// RECURRENCE-ID of an override, empty for a series or single item.
  var instanceKey: String { recurrenceId?.description ?? reminderOverrideLine ?? "" }

  /// Writes the row: an update of the item it replaces, or a new row.
  func write(to rows: inout RowWriter) throws {
    if replaces { try rows.save(record) } else { try rows.insert(record) }
  }
}

/// Reads the components of one VCALENDAR into store rows (<doc:ICalendarFiles> has the mapping).
///
/// What the store models goes into its columns; every other property and sub-component is
/// kept (``KeptContent``) and written back on export.
struct ICalendarItemReader {
  private var zones: TimeZoneResolver
  private let now: Double

  init(calendar: ICalendarComponent, now: Date = Date()) {
    zones = TimeZoneResolver(calendar: calendar)
    self.now = now.wholeSeconds.timeIntervalSince1970
  }

  /// Properties an event's columns hold; any other is kept as written.
  private static let eventColumns = ItemProperties.Names([
    .uid, .summary, .description, .location, .geo, .url, .dtstart, .dtend, .duration, .rrule,
    .rdate, .exdate, .recurrenceId, .status, .transp, .created, .lastModified, .sequence,
    .attendee, .organizer,
  ])

  /// The properties that name an event's participants.
  private static let participants = ItemProperties.Names([.attendee, .organizer])

  /// The properties that make a series, which an override keeps as written.
  private static let seriesProperties = ItemProperties.Names([.rrule, .rdate, .exdate])

  private static let reminderColumns = ItemProperties.Names([
    .uid, .summary, .description, .location, .url, .dtstart, .due, .duration, .rrule, .exdate,
    .completed, .status, .priority, .created, .lastModified, .sequence,
  ])

  // MARK: Events

  mutating func event(_ component: ICalendarComponent) throws(ICalendarParseError) -> ImportedItem {
    var record = Self.emptyRecord(kind: .event)
    var kept: [ICalendarProperty] = []
    let properties = ItemProperties(component)
    try readCommon(properties, into: &record)

    guard let startProperty = properties[.dtstart] else {
      throw ICalendarParseError(line: component.line, reason: "VEVENT has no DTSTART")
    }
    let start = try eventTime(startProperty)
    let clock = try self.clock(for: start, property: startProperty)
    var startReading = try reading(of: start, on: clock, property: startProperty)
    var endReading: Int
    // The property the end comes from, for an error about it.
    var endSource = startProperty
    if let endProperty = properties[.dtend] {
      endSource = endProperty
      let end = try eventTime(endProperty)
      endReading = try reading(of: end, on: clock, property: endProperty)
      if case .allDay = clock, endReading <= startReading {
        // Leniency: a DTEND equal to DTSTART on a DATE event (some exporters) means one day.
        endReading = max(endReading, startReading + 86_400)
      }
      // Leniency: a DTEND before DTSTART (seen from real producers) has the two swapped, as
      // recurring-ical-events reads it.
      if endReading < startReading { (startReading, endReading) = (endReading, startReading) }
    } else if let durationProperty = properties[.duration] {
      endSource = durationProperty
      let duration = try durationProperty.durationValue()
      guard duration.nominalDays >= 0, duration.exactSeconds >= 0 else {
        throw durationProperty.error("a negative DURATION: the event would end before it starts")
      }
      endReading = clock.reading(startReading, plus: duration)
      // The same leniency as for DTEND: an all-day event of no length (DURATION:P0D) lasts
      // its day, so that an export of it (DTEND equal to DTSTART) reads back the same.
      if case .allDay = clock, endReading <= startReading { endReading = startReading + 86_400 }
    } else {
      // §3.6.1: a DATE start lasts the day; a DATE-TIME start ends where it starts.
      endReading = startReading + (start.isDate ? 86_400 : 0)
    }
    record.isAllDay = start.isDate
    record.timeZone = clock.timeZone
    record.startReading = startReading
    record.endReading = endReading
    record.startKey = clock.key(startReading)
    record.endKey = clock.key(endReading)
    try Self.checkStoreKeeps(startReading, on: clock, property: startProperty)
    try Self.checkStoreKeeps(endReading, on: clock, property: endSource, isEnd: true)

    var rules: [String] = []
    for property in properties.every(.rrule) {
      if let rule = try Self.rule(property) { rules.append(rule.text) }
    }
    if !rules.isEmpty { record.recurrenceRules = rules.joined(separator: "\n") }
    var dates: [DateTimeValue] = []
    var hasPeriods = false
    var periods: [(start: Int, end: Int)] = []
    for property in properties.every(.rdate) {
      let values = try property.recurrenceDates(zones: &zones)
      for value in values {
        let start = try reading(of: eventValue(value.start), on: clock, property: property)
        try Self.checkStoreKeeps(start, on: clock, property: property)
        dates.append(clock.value(start))
        let end: Int
        switch value {
        case .dateTime: continue
        case .period(_, let value):
          end = try reading(of: eventValue(value), on: clock, property: property)
        case .periodWithDuration(_, let duration):
          end = clock.reading(start, plus: duration)
        }
        try Self.checkStoreKeeps(end, on: clock, property: property, isEnd: true)
        periods.append((start, end))
        hasPeriods = true
      }
    }
    // A PERIOD's end has no column: the RDATEs are then kept whole, and written back instead.
    if hasPeriods { kept += properties.every(.rdate) }
    record.recurrenceDates = DateTimeLines.text(dates)
    var exceptions: [DateTimeValue] = []
    for property in properties.every(.exdate) {
      for value in try property.dateTimeValues(zones: &zones) {
        exceptions.append(
          clock.value(try reading(of: eventValue(value), on: clock, property: property)))
      }
    }
    record.exceptionDates = DateTimeLines.text(exceptions)
    if record.recurrenceRules != nil || record.recurrenceDates != nil {
      if record.recurrenceRules == nil { record.recurrenceRules = "" }
      record.seriesEndKey = record.lastPossibleEnd()
    }

    if let status = properties[.status]?.value {
      record.status = (ICalendarValueTables.eventStatus.value(for: status) ?? .none).rawValue
    }
    var availability =
      ICalendarValueTables.transparency.value(for: properties[.transp]?.value) ?? .busy
    // Outlook's own finer status, where it gives one.
    if let busy = ICalendarValueTables.busyStatus.value(for: properties[.busyStatus]?.value) {
      availability = busy
    }
    record.availability = availability.rawValue
    if let geo = properties[.geo] {
      let parts = geo.value.split(separator: ";")
      guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
        abs(latitude) <= 90, abs(longitude) <= 180
      else {
        throw geo.error(
          "'\(ICalendarText.excerpt(geo.value))' is not latitude;longitude in degrees")
      }
      record.structuredLocation = JSONColumn.text(
        LocationValues(title: record.location, latitude: latitude, longitude: longitude))
    }
    var participants: [ParticipantValues] = []
    for property in properties.every(of: Self.participants) {
      if let participant = Self.participant(property) {
        participants.append(participant)
      } else {
        kept.append(property)
      }
    }
    record.participants = JSONColumn.text(list: participants)
    let eventLength = (record.endKey ?? 0) - (record.startKey ?? 0)
    record.alarms = JSONColumn.text(
      list: try component.components.filter(Self.isAlarm).map { alarm throws(ICalendarParseError) in
        try self.alarm(alarm, length: eventLength)
      })

    var recurrenceId: DateTimeValue?
    var range: String?
    if let property = properties[.recurrenceId] {
      recurrenceId = try eventTime(property)
      // An override is one occurrence: rules some producers repeat on it are kept as written,
      // not expanded (the series' rules govern).
      if record.isSeries {
        (record.recurrenceRules, record.recurrenceDates) = (nil, nil)
        (record.exceptionDates, record.seriesEndKey) = (nil, nil)
        kept.removeAll { $0.name == "RDATE" }  // kept already when they hold periods
        kept += properties.every(of: Self.seriesProperties)
        periods = []
      }
      // RANGE=THISANDFUTURE (§3.2.13): the override changes this instance and every later one,
      // which the import stores as a split of the series (``ImportWriter/splitSeries``).
      // THISANDPRIOR, which RFC 5545 deprecates, is kept as written and changes nothing.
      if property.parameter("RANGE")?.uppercased() == "THISANDFUTURE" {
        range = property.contentLine
      } else if property.parameter("RANGE") != nil {
        kept.append(property)
      }
    }
    kept += properties.others(than: Self.eventColumns)
    record.extra =
      KeptContent(
        properties: kept, components: component.components.filter { !Self.isAlarm($0) }
      ).columnText
    var item = ImportedItem(
      record: record, uid: record.uid ?? "", recurrenceId: recurrenceId, line: component.line)
    item.range = range
    for period in periods where period.end - period.start != endReading - startReading {
      guard period.end >= period.start else {
        throw ICalendarParseError(
          line: component.line, property: "RDATE", reason: "a PERIOD that ends before it starts")
      }
      var occurrence = record
      occurrence.startReading = period.start
      occurrence.endReading = period.end
      occurrence.startKey = clock.key(period.start)
      occurrence.endKey = clock.key(period.end)
      (occurrence.recurrenceRules, occurrence.recurrenceDates) = (nil, nil)
      (occurrence.exceptionDates, occurrence.seriesEndKey) = (nil, nil)
      occurrence.extra = nil
      var detached = ImportedItem(
        record: occurrence, uid: item.uid, recurrenceId: clock.value(period.start),
        line: component.line)
      detached.isPeriod = true
      item.periodOccurrences.append(detached)
    }
    return item
  }

  /// A time of an event, with the calendar's X-WR-TIMEZONE applied.
  private mutating func eventTime(_ property: ICalendarProperty) throws(ICalendarParseError)
    -> DateTimeValue
  {
    eventValue(try property.dateTimeValue(zones: &zones))
  }

  /// Google and Apple write an event's times in UTC, or floating, and name the zone they
  /// meant in X-WR-TIMEZONE; a repeating event then repeats on that zone's clock. The times
  /// are read in that zone, as the `x-wr-timezone` convention (and recurring-ical-events)
  /// reads them.
  private func eventValue(_ value: DateTimeValue) -> DateTimeValue {
    guard case .named(let identifier) = zones.calendarZone,
      let rules = try? ZoneRules.named(identifier)
    else { return value }
    switch value {
    case .utc(let instant):
      return .zoned(
        CivilDateTime(localSeconds: rules.local(forUTC: instant.localSeconds)), tzid: identifier)
    case .floating(let reading):
      return .zoned(reading, tzid: identifier)
    default:
      return value
    }
  }

  private func clock(for start: DateTimeValue, property: ICalendarProperty)
    throws(ICalendarParseError)
    -> ItemClock
  {
    do {
      return try ItemClock(start)
    } catch {
      throw property.error(error.description)
    }
  }

  /// Refuses a start or end the store could not find again: its queries cover the years 1 to
  /// 9999 (``WallClock``), the range EventKit's own validation holds a saved event to. A
  /// DTSTART in year 0000, which RFC 5545's four digits allow and no Gregorian year is, would
  /// otherwise be stored where no query returns it.
  private static func checkStoreKeeps(
    _ reading: Int, on clock: ItemClock, property: ICalendarProperty, isEnd: Bool = false
  ) throws(ICalendarParseError) {
    let key = clock.key(reading)
    // An end is exclusive: an event may end at the first moment after 9999-12-31.
    let latest = WallClock.maximumSeconds + (isEnd ? 1 : 0)
    guard key < WallClock.minimumSeconds || key > latest else { return }
    throw property.error(
      "\(isEnd ? "an end" : "a start") of \(clock.value(reading).text) lies outside the years"
        + " 1 to 9999, the dates the store keeps and its queries find")
  }

  /// Refuses a reminder's date outside the years 1 to 9999, as ``checkStoreKeeps(_:on:property:isEnd:)``
  /// does an event's.
  private static func checkStoreKeeps(_ value: DateTimeValue, property: ICalendarProperty)
    throws(ICalendarParseError)
  {
    guard !(1...9999).contains(value.local.date.year) else { return }
    throw property.error(
      "\(value.text) lies outside the years 1 to 9999, the dates the store keeps and its queries"
        + " find")
  }

  private func reading(of value: DateTimeValue, on clock: ItemClock, property: ICalendarProperty)
    throws(ICalendarParseError) -> Int
  {
    do {
      return try clock.reading(of: value)
    } catch {
      throw property.error(error.description)
    }
  }

  // MARK: Reminders

  mutating func reminder(_ component: ICalendarComponent) throws(ICalendarParseError)
    -> ImportedItem
  {
    var values = ItemValues(calendarId: nil)
    var scratch = Self.emptyRecord(kind: .reminder)
    let properties = ItemProperties(component)
    try readCommon(properties, into: &scratch)
    values.title = scratch.title
    values.location = scratch.location
    values.notes = scratch.notes
    values.url = scratch.url.flatMap(URL.init(string:))
    let start = try properties[.dtstart].map { property throws(ICalendarParseError) in
      (property, try property.dateTimeValue(zones: &zones))
    }
    if let (property, value) = start { try Self.checkStoreKeeps(value, property: property) }
    values.startComponents = start.map { Self.components($0.1) }
    if let due = properties[.due] {
      let value = try due.dateTimeValue(zones: &zones)
      try Self.checkStoreKeeps(value, property: due)
      values.dueComponents = Self.components(value)
    } else if let (property, value) = start, let durationProperty = properties[.duration] {
      let clock = try clock(for: value, property: property)
      let end = clock.value(
        clock.reading(
          try reading(of: value, on: clock, property: property),
          plus: try durationProperty.durationValue()))
      try Self.checkStoreKeeps(end, property: durationProperty)
      values.dueComponents = Self.components(end)
    }
    if let completed = properties[.completed] {
      let value = try completed.dateTimeValue(zones: &zones)
      values.completionDate = WallClock.date(of: value)
    }
    values.isCompleted =
      values.completionDate != nil
      || properties[.status]?.value.uppercased() == "COMPLETED"
    if values.isCompleted, values.completionDate == nil {
      values.completionDate = Date(timeIntervalSince1970: scratch.modifiedAt)
    }
    if let priority = properties[.priority] {
      values.priority = try priority.integerValue(in: 0...9)
    }
    // A to-do with RECURRENCE-ID overrides one instance of a repeating to-do (§3.8.4.4).
    // EKReminder has no detached occurrences: it becomes a reminder of its own, its line kept
    // as written (the key an import of the file again finds it by), so its value must read.
    let overrideLine = try properties[.recurrenceId].map {
      property throws(ICalendarParseError) in
      _ = try property.dateTimeValue(zones: &zones)
      return property.contentLine
    }
    var kept = properties.others(than: Self.reminderColumns)
    if values.dueComponents != nil {
      for property in properties.every(.rrule) {
        guard let rule = try Self.rule(property) else { continue }
        var bare = rule
        bare.end = nil
        let end: RuleValues.End? =
          switch rule.end {
          case .count(let count): .count(count)
          case .until(let until): .date(WallClock.date(of: until))
          case nil: nil
          }
        values.rules.append(RuleValues(rule: bare, end: end))
      }
    } else {
      // EventKit repeats a reminder from its due date; without one the rule is kept as written.
      kept += properties.every(.rrule)
    }
    let eventLength = 0
    values.alarms = try component.components.filter(Self.isAlarm).map {
      alarm throws(ICalendarParseError) in
      try self.alarm(alarm, length: eventLength)
    }
    let identity = ItemIdentity(
      id: "", uid: scratch.uid ?? "", createdAt: Date(timeIntervalSince1970: scratch.createdAt),
      modifiedAt: Date(timeIntervalSince1970: scratch.modifiedAt))
    var record = ItemRecord(kind: .reminder, identity: identity, values: values, previous: nil)
    record.uid = scratch.uid
    record.sequence = scratch.sequence
    if record.recurrenceRules != nil {
      var exceptions: [DateTimeValue] = []
      for property in properties.every(.exdate) {
        exceptions += try property.dateTimeValues(zones: &zones)
      }
      record.exceptionDates = DateTimeLines.text(exceptions)
    } else {
      kept += properties.every(.exdate)
    }
    record.extra =
      KeptContent(
        properties: kept, components: component.components.filter { !Self.isAlarm($0) }
      ).columnText
    var item = ImportedItem(
      record: record, uid: record.uid ?? "", recurrenceId: nil, line: component.line)
    item.reminderOverrideLine = overrideLine
    return item
  }

  /// DateComponents of a due or start date, as EventKit gives them: a date alone for a DATE,
  /// with the time and (unless floating) the zone for a DATE-TIME.
  private static func components(_ value: DateTimeValue) -> DateComponents {
    let local = value.local
    var components = DateComponents(
      year: local.date.year, month: local.date.month, day: local.date.day)
    guard !value.isDate else { return components }
    components.hour = local.hour
    components.minute = local.minute
    components.second = local.second
    switch value {
    case .utc: components.timeZone = TimeZone(identifier: "UTC")
    case .zoned(_, let tzid): components.timeZone = TimeZone(identifier: tzid)
    default: break
    }
    return components
  }

  // MARK: Shared

  /// A RRULE, read with two leniencies for producers known to write them: an empty RRULE
  /// (calendarlabs.com) is no rule, and a COUNT below 1 beside an UNTIL (seen in the wild as
  /// `COUNT=-1`) is dropped, as dateutil and recurring-ical-events read them.
  static func rule(_ property: ICalendarProperty) throws(ICalendarParseError) -> RecurrenceRule? {
    let text = String(property.value.trimmingWhitespace())
    guard !text.isEmpty else { return nil }
    do {
      return try RecurrenceRule(parsing: text)
    } catch {
      let parts = text.split(separator: ";")
      let kept = parts.filter { part in
        guard part.uppercased().hasPrefix("COUNT="), let count = Int(part.dropFirst(6)) else {
          return true
        }
        return count > 0
      }
      guard kept.count < parts.count, kept.contains(where: { $0.uppercased().hasPrefix("UNTIL=") }),
        let rule = try? RecurrenceRule(parsing: kept.joined(separator: ";"))
      else { throw property.error(error.description) }
      return rule
    }
  }

  private static func emptyRecord(kind: EKEntityType) -> ItemRecord {
    ItemRecord(
      kind: kind, identity: ItemIdentity(id: "", uid: "", createdAt: Date(), modifiedAt: Date()),
      values: ItemValues(calendarId: nil), previous: nil)
  }

  /// What events and reminders share: identity, texts, dates of record, SEQUENCE.
  private mutating func readCommon(_ properties: ItemProperties, into record: inout ItemRecord)
    throws(ICalendarParseError)
  {
    // Leniency: a component without UID (which §3.6.1 requires) gets a new one; importing
    // the file again then adds it again, as nothing can tell it is the same.
    record.uid = Self.uid(properties[.uid]) ?? Identifier.make()
    record.title = properties[.summary]?.textValue
    record.notes = properties[.description]?.textValue
    record.location = properties[.location]?.textValue
    record.url = properties[.url].map { String($0.value.trimmingWhitespace()) }
    record.createdAt = try instant(properties[.created]) ?? now
    let lastModified = try instant(properties[.lastModified])
    let stamp = try instant(properties[.dtstamp])
    record.modifiedAt = lastModified ?? stamp ?? record.createdAt
    if let sequence = properties[.sequence] {
      record.sequence = try sequence.integerValue(in: 0...Int(Int32.max))
    }
  }

  /// The component's UID as its item keeps it (unescaped, without surrounding whitespace);
  /// nil when it has none or an empty one.
  static func uid(of component: ICalendarComponent) -> String? {
    uid(component.property("UID"))
  }

  private static func uid(_ property: ICalendarProperty?) -> String? {
    guard let property else { return nil }
    let uid = String(property.textValue.trimmingWhitespace())
    return uid.isEmpty ? nil : uid
  }

  private mutating func instant(_ property: ICalendarProperty?) throws(ICalendarParseError)
    -> Double?
  {
    guard let property else { return nil }
    let value = try property.dateTimeValue(zones: &zones)
    return WallClock.date(of: value).timeIntervalSince1970
  }

  /// Whether a sub-component is an alarm EventKit can hold: a VALARM with a TRIGGER it can
  /// read. One without (which §3.6.6 forbids, and some producers write) is kept as it is.
  static func isAlarm(_ component: ICalendarComponent) -> Bool {
    guard component.name == "VALARM", let trigger = component.property("TRIGGER") else {
      return false
    }
    // A TRIGGER that is neither a duration nor a date-time (`TRIGGER:230000`, seen in the
    // wild) is no alarm either.
    if (try? trigger.durationValue()) != nil { return true }
    return (try? DateTimeValue(parsing: trigger.value)) != nil
  }

  /// A VALARM (§3.6.6). A trigger related to the end becomes an offset from the start, as
  /// EventKit's alarms are; the other lines (ACTION, DESCRIPTION, ATTACH…) are kept.
  private mutating func alarm(_ component: ICalendarComponent, length: Int)
    throws(ICalendarParseError)
    -> AlarmValues
  {
    guard let trigger = component.property("TRIGGER") else {
      throw ICalendarParseError(line: component.line, reason: "VALARM has no TRIGGER")
    }
    var alarm = AlarmValues()
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || !trigger.value.contains("P") {
      let value = try trigger.dateTimeValue(zones: &zones)
      alarm.absoluteDate = WallClock.date(of: value)
    } else {
      let duration = try trigger.durationValue()
      var offset = duration.nominalDays * 86_400 + duration.exactSeconds
      if trigger.parameter("RELATED")?.uppercased() == "END" { offset += length }
      alarm.relativeOffset = TimeInterval(offset)
    }
    if component.property("ACTION")?.value.uppercased() == "EMAIL",
      let address = component.property("ATTENDEE")?.value
    {
      alarm.emailAddress =
        address.lowercased().hasPrefix("mailto:") ? String(address.dropFirst(7)) : address
    }
    alarm.kept = component.properties.filter { $0.name != "TRIGGER" }.map(\.contentLine)
    return alarm
  }

  /// An ATTENDEE or ORGANIZER (§3.8.4.1, §3.8.4.3); nil when its address is not a URL.
  static func participant(_ property: ICalendarProperty) -> ParticipantValues? {
    guard let url = URL(string: String(property.value.trimmingWhitespace())) else {
      return nil
    }
    var participant = ParticipantValues(url: url)
    participant.name = property.parameter("CN")
    participant.isOrganizer = property.name == "ORGANIZER"
    let tables = ICalendarValueTables.self
    if let role = property.parameter("ROLE") {
      participant.role = tables.role.value(for: role) ?? .unknown
    } else {
      participant.role = participant.isOrganizer ? .chair : .required
    }
    if let status = property.parameter("PARTSTAT") {
      participant.status = tables.participationStatus.value(for: status) ?? .unknown
    } else {
      participant.status = participant.isOrganizer ? .accepted : .pending
    }
    participant.type =
      tables.userType.value(for: property.parameter("CUTYPE") ?? "INDIVIDUAL")
      ?? .unknown
    participant.contentLine = property.contentLine
    return participant
  }
}
