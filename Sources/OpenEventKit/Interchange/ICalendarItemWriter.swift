import Foundation
import ICalendar

/// Writes store rows as VEVENT and VTODO components: the mirror of ``ICalendarItemReader``,
/// with the kept content written back where it was.
enum ICalendarItemWriter {
  static func component(_ record: ItemRecord) -> ICalendarComponent {
    record.kind == .event ? event(record) : reminder(record)
  }

  static func event(_ record: ItemRecord) -> ICalendarComponent {
    let kept = KeptContent.from(column: record.extra)
    var keptProperties = kept.keptProperties
    // A detached row's RECURRENCE-ID line kept from its file (for its RANGE) says the
    // instance the row replaces only while its value is the row's: an override moved into a
    // series that a split made replaces that series' instance, and is written as such, or an
    // import of the export would not find the row again.
    if let recurrenceId = DateTimeLines.values(record.recurrenceId).first,
      let line = keptProperties.first(where: { $0.name == "RECURRENCE-ID" }),
      line.value != time("RECURRENCE-ID", recurrenceId).value
    {
      keptProperties.removeAll { $0.name == "RECURRENCE-ID" }
    }
    let keptNames = Set(keptProperties.map(\.name))
    var component = ICalendarComponent(name: "VEVENT")
    component.append(ICalendarProperty(name: "UID", text: record.uid ?? record.id))
    component.append(stamp(record, kept: keptProperties))
    if let startReading = record.startReading {
      component.append(time("DTSTART", record.dtstart(reading: startReading)))
      if let endReading = record.endReading, endReading > WallClock.maximumSeconds {
        // An all-day event on 9999-12-31 ends at 10000-01-01, which no DATE can say.
        let length = duration(endReading - startReading)
        component.append(ICalendarProperty(name: "DURATION", value: length.text))
      } else if let endReading = record.endReading {
        component.append(time("DTEND", record.dtstart(reading: endReading)))
      }
    }
    if let recurrenceId = DateTimeLines.values(record.recurrenceId).first,
      !keptNames.contains("RECURRENCE-ID")
    {
      component.append(time("RECURRENCE-ID", recurrenceId))
    }
    if let rules = record.recurrenceRules {
      for rule in rules.split(separator: "\n") {
        component.append(ICalendarProperty(name: "RRULE", value: String(rule)))
      }
    }
    if !keptNames.contains("RDATE") {
      for value in DateTimeLines.values(record.recurrenceDates) {
        component.append(time("RDATE", value))
      }
    }
    for value in DateTimeLines.values(record.exceptionDates) {
      component.append(time("EXDATE", value))
    }
    appendTexts(record, to: &component)
    if let location = JSONColumn.value(LocationValues.self, from: record.structuredLocation),
      let latitude = location.latitude, let longitude = location.longitude,
      (-90...90).contains(latitude), (-180...180).contains(longitude)
    {
      component.append(ICalendarProperty(name: "GEO", value: "\(latitude);\(longitude)"))
    }
    let tables = ICalendarValueTables.self
    if let status = EKEventStatus(rawValue: record.status).flatMap(tables.eventStatus.text) {
      component.append(ICalendarProperty(name: "STATUS", value: status))
    }
    let availability = EKEventAvailability(rawValue: record.availability) ?? .busy
    component.append(
      ICalendarProperty(
        name: "TRANSP", value: tables.transparency.text(for: availability) ?? "OPAQUE"))
    // iCalendar has no tentative or away: Outlook's property says them. It is written from
    // the availability, which may have changed since the import, never as it was kept.
    let busyStatus = "X-MICROSOFT-CDO-BUSYSTATUS"
    if keptNames.contains(busyStatus) || availability == .tentative || availability == .unavailable,
      let value = tables.busyStatus.text(for: availability)
    {
      component.append(ICalendarProperty(name: busyStatus, value: value))
    }
    appendRecordKeeping(record, to: &component)
    for participant in JSONColumn.value([ParticipantValues].self, from: record.participants) ?? [] {
      component.append(self.participant(participant))
    }
    component.properties += keptProperties.filter { $0.name != busyStatus && $0.name != "DTSTAMP" }
    appendAlarms(record, to: &component)
    component.components += kept.keptComponents
    return component
  }

  static func reminder(_ record: ItemRecord) -> ICalendarComponent {
    let kept = KeptContent.from(column: record.extra)
    let keptProperties = kept.keptProperties
    var component = ICalendarComponent(name: "VTODO")
    component.append(ICalendarProperty(name: "UID", text: record.uid ?? record.id))
    component.append(stamp(record, kept: keptProperties))
    if let start = JSONColumn.value(DateComponents.self, from: record.startComponents),
      let value = dateTime(start)
    {
      component.append(time("DTSTART", value))
    }
    if let due = JSONColumn.value(DateComponents.self, from: record.dueComponents),
      let value = dateTime(due)
    {
      component.append(time("DUE", value))
    }
    if let rules = record.recurrenceRules {
      for rule in rules.split(separator: "\n") {
        component.append(ICalendarProperty(name: "RRULE", value: String(rule)))
      }
    }
    for value in DateTimeLines.values(record.exceptionDates) {
      component.append(time("EXDATE", value))
    }
    appendTexts(record, to: &component)
    if record.isCompleted {
      component.append(ICalendarProperty(name: "STATUS", value: "COMPLETED"))
      if let completedAt = record.completedAt { component.append(utc("COMPLETED", completedAt)) }
    } else if !keptProperties.contains(where: { $0.name == "STATUS" }) {
      component.append(ICalendarProperty(name: "STATUS", value: "NEEDS-ACTION"))
    }
    if record.priority != 0 {
      component.append(ICalendarProperty(name: "PRIORITY", value: String(record.priority)))
    }
    appendRecordKeeping(record, to: &component)
    component.properties += keptProperties.filter {
      $0.name != "DTSTAMP" && !(record.isCompleted && $0.name == "STATUS")
    }
    appendAlarms(record, to: &component)
    component.components += kept.keptComponents
    return component
  }

  // MARK: Pieces

  /// DTSTAMP, which §3.6.1 requires: as imported, else when the item last changed. Always
  /// second, so that an export reads the same however the item came to be.
  private static func stamp(_ record: ItemRecord, kept: [ICalendarProperty]) -> ICalendarProperty {
    kept.first { $0.name == "DTSTAMP" } ?? utc("DTSTAMP", record.modifiedAt)
  }

  private static func appendTexts(_ record: ItemRecord, to component: inout ICalendarComponent) {
    if let title = record.title {
      component.append(ICalendarProperty(name: "SUMMARY", text: title))
    }
    if let notes = record.notes {
      component.append(ICalendarProperty(name: "DESCRIPTION", text: notes))
    }
    if let location = record.location {
      component.append(ICalendarProperty(name: "LOCATION", text: location))
    }
    if let url = record.url { component.append(ICalendarProperty(name: "URL", value: url)) }
  }

  private static func appendRecordKeeping(
    _ record: ItemRecord, to component: inout ICalendarComponent
  ) {
    component.append(utc("CREATED", record.createdAt))
    component.append(utc("LAST-MODIFIED", record.modifiedAt))
    component.append(ICalendarProperty(name: "SEQUENCE", value: String(record.sequence)))
  }

  private static func appendAlarms(_ record: ItemRecord, to component: inout ICalendarComponent) {
    for alarm in JSONColumn.value([AlarmValues].self, from: record.alarms) ?? [] {
      component.components.append(self.alarm(alarm, title: record.title))
    }
  }

  /// A VALARM: its TRIGGER from the alarm, its other lines as imported, or DISPLAY (EMAIL for
  /// an alarm with an address) with a DESCRIPTION, which §3.6.6 requires.
  static func alarm(_ alarm: AlarmValues, title: String?) -> ICalendarComponent {
    var component = ICalendarComponent(name: "VALARM")
    if let date = alarm.absoluteDate {
      component.append(
        ICalendarProperty(
          name: "TRIGGER", parameters: [ICalendarParameter(name: "VALUE", value: "DATE-TIME")],
          value: utc("TRIGGER", date.timeIntervalSince1970).value))
    } else {
      component.append(
        ICalendarProperty(
          name: "TRIGGER", value: duration(offset(alarm.relativeOffset)).text))
    }
    let kept = alarm.kept.compactMap { try? ICalendarProperty(contentLine: $0) }
    if !kept.isEmpty {
      component.properties += kept
    } else if let address = alarm.emailAddress {
      component.append(ICalendarProperty(name: "ACTION", value: "EMAIL"))
      component.append(ICalendarProperty(name: "SUMMARY", text: title ?? "Reminder"))
      component.append(ICalendarProperty(name: "DESCRIPTION", text: title ?? "Reminder"))
      component.append(ICalendarProperty(name: "ATTENDEE", value: "mailto:\(address)"))
    } else {
      component.append(ICalendarProperty(name: "ACTION", value: "DISPLAY"))
      component.append(ICalendarProperty(name: "DESCRIPTION", text: title ?? "Reminder"))
    }
    return component
  }

  static func participant(_ participant: ParticipantValues) -> ICalendarProperty {
    if let line = participant.contentLine, let property = try? ICalendarProperty(contentLine: line)
    {
      return property
    }
    var parameters: [ICalendarParameter] = []
    if let name = participant.name {
      parameters.append(ICalendarParameter(name: "CN", value: name))
    }
    let tables = ICalendarValueTables.self
    // An organizer's role and answer go without saying (the defaults a reader gives them).
    if !participant.isOrganizer, let role = tables.role.text(for: participant.role) {
      parameters.append(ICalendarParameter(name: "ROLE", value: role))
    }
    if !participant.isOrganizer,
      let status = tables.participationStatus.text(for: participant.status)
    {
      parameters.append(ICalendarParameter(name: "PARTSTAT", value: status))
    }
    // A person is the default (§3.2.3): written only for a group, resource or room.
    if participant.type != .person, let type = tables.userType.text(for: participant.type) {
      parameters.append(ICalendarParameter(name: "CUTYPE", value: type))
    }
    return ICalendarProperty(
      name: participant.isOrganizer ? "ORGANIZER" : "ATTENDEE", parameters: parameters,
      value: participant.url.absoluteString)
  }

  /// A date-time property: `VALUE=DATE` for a date, `TZID=` for a zoned reading (UTC is
  /// written with `Z`, as §3.3.5 prefers to a TZID of UTC).
  static func time(_ name: String, _ value: DateTimeValue) -> ICalendarProperty {
    switch value {
    case .date:
      return ICalendarProperty(
        name: name, parameters: [ICalendarParameter(name: "VALUE", value: "DATE")],
        value: value.text)
    case .zoned(let reading, let tzid) where tzid == "UTC" || tzid == "Etc/UTC" || tzid == "GMT":
      return ICalendarProperty(name: name, value: DateTimeValue.utc(reading).text)
    case .zoned(_, let tzid):
      return ICalendarProperty(
        name: name, parameters: [ICalendarParameter(name: "TZID", value: tzid)], value: value.text)
    case .floating, .utc:
      return ICalendarProperty(name: name, value: value.text)
    }
  }

  private static func utc(_ name: String, _ seconds: Double) -> ICalendarProperty {
    let reading = CivilDateTime(
      localSeconds: WallClock.seconds(Date(timeIntervalSince1970: seconds)))
    return ICalendarProperty(name: name, value: DateTimeValue.utc(reading).text)
  }

  /// An alarm's offset in whole seconds, within what a save accepts (a row from elsewhere may
  /// hold more, or NaN).
  private static func offset(_ seconds: Double) -> Int {
    let longest = ItemValidation.longestOffset
    return seconds.isNaN ? 0 : Int(min(max(seconds.rounded(), -longest), longest))
  }

  /// An offset in seconds as a DURATION: whole days as days, the rest exact.
  static func duration(_ seconds: Int) -> DurationValue {
    let magnitude = abs(seconds)
    let days = magnitude % 86_400 == 0 ? magnitude / 86_400 : 0
    let rest = days > 0 ? 0 : magnitude
    return DurationValue(
      isNegative: seconds < 0, days: days, hours: rest / 3600, minutes: rest / 60 % 60,
      seconds: rest % 60)
  }

  /// A reminder's date components as a DATE or DATE-TIME; nil when they name no moment of the
  /// years 1 to 9999 (a save refuses those; a row from elsewhere may hold them).
  private static func dateTime(_ components: DateComponents) -> DateTimeValue? {
    guard let moment = ReminderDue(components) else { return nil }
    let reading = CivilDateTime(localSeconds: moment.reading)
    if moment.isDateOnly { return .date(reading.date) }
    guard let zone = components.timeZone else { return .floating(reading) }
    return .zoned(reading, tzid: zone.identifier)
  }
}
