import ICalendar

/// One input: the bytes of an .ics file, read as `ICalendarDocument` reads a file.
///
/// A document that reads must write text that reads back as the same document, and that text
/// must write the same bytes again; each property must survive the one-line form a store keeps
/// it in. Then every value the importer would read is read as its type — dates with their
/// TZIDs resolved (through the file's VTIMEZONEs too), durations, integers, rules, text — and
/// the first instances of each recurring component are expanded (at most `instanceLimit`, since
/// most rules never end). Refusals are expected; crashes, hangs and failed checks are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard
    let document = try? ICalendarDocument(
      parsing: Array(UnsafeBufferPointer(start: bytes, count: count)))
  else { return 0 }
  checkWrittenForm(of: document)
  for calendar in document.calendars {
    var zones = TimeZoneResolver(calendar: calendar)
    // Depth first without recursion: nesting is only limited to 100 levels.
    var pending = [calendar]
    while let component = pending.popLast() {
      pending += component.components
      for property in component.properties {
        checkContentLine(of: property)
        readValue(of: property, zones: &zones)
      }
      expandFirstInstances(of: component, zones: &zones)
    }
  }
  return 0
}

/// How many instances of a recurring component are expanded.
let instanceLimit = 16

func checkWrittenForm(of document: ICalendarDocument) {
  let written = document.serialized()
  let reread: ICalendarDocument
  do {
    reread = try ICalendarDocument(parsing: written)
  } catch {
    fatalError("a document's own text is refused: \(error)")
  }
  guard reread == document else {
    let difference = zip(document.calendars, reread.calendars).lazy
      .compactMap { firstDifference($0, $1) }.first
    fatalError(
      "a document's own text reads as another document: "
        + (difference ?? "\(document.calendars.count) calendars, then \(reread.calendars.count)"))
  }
  guard reread.serialized() == written else { fatalError("a document writes two different texts") }
}

/// Where two components first differ, in a line short enough for a report.
func firstDifference(_ one: ICalendarComponent, _ other: ICalendarComponent) -> String? {
  func shown(_ property: ICalendarProperty?) -> String {
    property.map { ICalendarText.excerpt($0.contentLine) } ?? "nothing"
  }
  if one.name != other.name { return "\(one.name) read as \(other.name)" }
  for index in 0..<max(one.properties.count, other.properties.count) {
    let a = index < one.properties.count ? one.properties[index] : nil
    let b = index < other.properties.count ? other.properties[index] : nil
    if a != b { return "in \(one.name), \(shown(a)) read as \(shown(b))" }
  }
  for (a, b) in zip(one.components, other.components) {
    if let difference = firstDifference(a, b) { return difference }
  }
  if one.components.count != other.components.count {
    return "in \(one.name), \(one.components.count) components read as \(other.components.count)"
  }
  return nil
}

func checkContentLine(of property: ICalendarProperty) {
  let line = property.contentLine
  let reread: ICalendarProperty
  do {
    reread = try ICalendarProperty(contentLine: line)
  } catch {
    fatalError("the content line of a \(property.name) property is refused: \(error)")
  }
  guard reread == property else {
    fatalError("the content line of a \(property.name) property reads as another property")
  }
}

/// Reads a property's value as the importer reads it; only refusals may come of it.
func readValue(of property: ICalendarProperty, zones: inout TimeZoneResolver) {
  switch property.name {
  case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "DTSTAMP", "CREATED", "LAST-MODIFIED",
    "COMPLETED":
    _ = try? property.dateTimeValue(zones: &zones)
  case "EXDATE":
    _ = try? property.dateTimeValues(zones: &zones)
  case "RDATE":
    _ = try? property.recurrenceDates(zones: &zones)
  case "DURATION", "TRIGGER":
    if let duration = try? property.durationValue() {
      guard (try? DurationValue(parsing: duration.text)) == duration else {
        fatalError("the canonical text \(duration.text) of a duration reads as another")
      }
    } else {
      _ = try? property.dateTimeValue(zones: &zones)
    }
  case "RRULE", "EXRULE":
    if let rule = try? property.recurrenceRuleValue() {
      guard (try? RecurrenceRule(parsing: rule.text)) == rule else {
        fatalError("the canonical text \(rule.text) of a rule reads as another")
      }
    }
  case "SEQUENCE", "PRIORITY", "PERCENT-COMPLETE", "REPEAT":
    _ = try? property.integerValue()
  default:
    // Text read from a file must come back the same from the file written of it.
    let text = property.textValue
    guard ICalendarText.unescape(ICalendarText.escape(text)) == text else {
      fatalError("escaping and unescaping the text of a \(property.name) property changes it")
    }
    _ = property.textValues
  }
}

/// The first instances of a component with a DTSTART and recurrence properties.
func expandFirstInstances(of component: ICalendarComponent, zones: inout TimeZoneResolver) {
  guard let start = try? component.property("DTSTART")?.dateTimeValue(zones: &zones) else {
    return
  }
  let rules = component.properties(named: "RRULE").compactMap { try? $0.recurrenceRuleValue() }
  let dates = component.properties(named: "RDATE").flatMap {
    (try? $0.recurrenceDates(zones: &zones)) ?? []
  }
  guard !rules.isEmpty || !dates.isEmpty else { return }
  let exceptions = component.properties(named: "EXDATE").flatMap {
    (try? $0.dateTimeValues(zones: &zones)) ?? []
  }
  let set = RecurrenceSet(start: start, rules: rules, dates: dates, exceptionDates: exceptions)
  guard let occurrences = try? set.occurrences() else { return }
  var previous: Occurrence?
  for occurrence in occurrences.prefix(instanceLimit) {
    if let previous, previous >= occurrence {
      fatalError("instances out of order: \(previous.local) then \(occurrence.local)")
    }
    previous = occurrence
  }
}
