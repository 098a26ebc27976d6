import ICalendar

/// Store rows as one VCALENDAR: what `exportICalendar` writes for whole calendars and what
/// CalDAV sync sends for one resource (a series with its detached occurrences).
enum ICalendarExport {
  /// The VCALENDAR of `records` (series before their detached occurrences), with a VTIMEZONE
  /// for every zone they use, named `name` (X-WR-CALNAME) when given.
  static func calendar(
    _ records: [ItemRecord], name: String? = nil,
    progress: ((ICalendarTransferProgress) -> Void)? = nil
  ) -> ICalendarComponent {
    var calendar = ICalendarComponent(name: "VCALENDAR")
    calendar.append(ICalendarProperty(name: "VERSION", value: "2.0"))
    calendar.append(ICalendarProperty(name: "PRODID", text: "-//OpenEventKit//OpenEventKit//EN"))
    calendar.append(ICalendarProperty(name: "CALSCALE", value: "GREGORIAN"))
    if let name {
      calendar.append(ICalendarProperty(name: "X-WR-CALNAME", text: name))
    }
    // Each zone from the start of the earliest item using it.
    var zones: [String: Int] = [:]
    for record in records {
      guard let zone = record.timeZone, !["UTC", "Etc/UTC", "GMT"].contains(zone) else { continue }
      let start = record.startKey ?? 0
      zones[zone] = min(zones[zone] ?? start, start)
    }
    for (identifier, start) in zones.sorted(by: { $0.key < $1.key }) {
      if let rules = try? ZoneRules.named(identifier) {
        calendar.components.append(rules.timeZoneComponent(from: start))
      }
    }
    for (index, record) in records.enumerated() {
      calendar.components.append(ICalendarItemWriter.component(record))
      if index & 0x3FF == 0 {
        progress?(ICalendarTransferProgress(phase: .writing, done: index, total: records.count))
      }
    }
    return calendar
  }
}
