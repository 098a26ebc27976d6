import ICalendar

/// One expansion asked of `ekctl rrule`, from the command line or a JSON line: texts in, the
/// printed instances out, or an error naming what is wrong.
struct RRuleRequest {
  var dtstart: String
  var tzid: String?
  var rules: [String]
  var limit: Int
  var from: String?
  var to: String?
  var rdates: String?
  var exdates: String?

  struct Failure: Error {
    let message: String
  }

  /// Validates everything, then expands: nothing is produced for a request with an error.
  func instances() throws(Failure) -> [String] {
    guard !dtstart.isEmpty else { throw Failure(message: "--dtstart is required") }
    guard limit >= 0 else { throw Failure(message: "limit must not be negative") }
    let zone = tzid.flatMap { $0.isEmpty ? nil : $0 }
    let start: DateTimeValue
    do {
      start = try DateTimeValue(parsing: dtstart, tzid: zone)
    } catch {
      throw Failure(message: "DTSTART: \(error.description)")
    }
    var set = RecurrenceSet(start: start)
    for text in rules {
      do {
        set.rules.append(try RecurrenceRule(parsing: text))
      } catch {
        throw Failure(message: error.description)
      }
    }
    for text in RRuleRequest.list(rdates) {
      do {
        set.dates.append(try RecurrenceDate(parsing: text, tzid: zone))
      } catch {
        throw Failure(message: "RDATE: \(error.description)")
      }
    }
    for text in RRuleRequest.list(exdates) {
      do {
        set.exceptionDates.append(try DateTimeValue(parsing: text, tzid: zone))
      } catch {
        throw Failure(message: "EXDATE: \(error.description)")
      }
    }
    let window = (from: try bound(from, name: "from"), to: try bound(to, name: "to"))
    let occurrences: Occurrences
    do {
      occurrences = try set.occurrences(fromLocal: window.from, toLocal: window.to)
    } catch {
      throw Failure(message: error.description)
    }
    var lines: [String] = []
    guard limit > 0 else { return lines }
    for occurrence in occurrences {
      lines.append(
        start.isDate
          ? ICalendarFormat.date(occurrence.local.date)
          : ICalendarFormat.dateTime(occurrence.local))
      if lines.count == limit { break }
    }
    return lines
  }

  private func bound(_ text: String?, name: String) throws(Failure) -> CivilDateTime? {
    guard let text, !text.isEmpty else { return nil }
    do {
      return try DateTimeValue(parsing: text).local
    } catch {
      throw Failure(message: "--\(name): \(error.description)")
    }
  }

  private static func list(_ text: String?) -> [String] {
    guard let text else { return [] }
    return text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
  }
}

extension Error {
  /// The one-line message of an error for a person.
  var message: String {
    if let failure = self as? RRuleRequest.Failure { return failure.message }
    return String(describing: self)
  }
}
