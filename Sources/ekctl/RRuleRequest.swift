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

  /// Validates everything, then returns the expansion: a request with an error fails here,
  /// before anything is printed.
  func instances() throws(Failure) -> Expansion {
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
    let occurrences: Occurrences
    do {
      occurrences = try set.occurrences(
        from: try bound(from, name: "from", in: set), to: try bound(to, name: "to", in: set))
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(message: error.message)
    }
    return Expansion(occurrences: occurrences, isDate: start.isDate, limit: limit)
  }

  /// The instances' printed forms, produced as they are read.
  struct Expansion: Sequence {
    let occurrences: Occurrences
    let isDate: Bool
    let limit: Int

    func makeIterator() -> AnyIterator<String> {
      var iterator = occurrences.makeIterator()
      var printed = 0
      return AnyIterator {
        guard printed < limit, let occurrence = iterator.next() else { return nil }
        printed += 1
        return isDate
          ? ICalendarFormat.date(occurrence.local.date)
          : ICalendarFormat.dateTime(occurrence.local)
      }
    }
  }

  /// A `--from` or `--to` bound as an instant: with a trailing `Z` it is UTC, otherwise a
  /// reading on DTSTART's wall clock, like DTSTART itself.
  private func bound(_ text: String?, name: String, in set: RecurrenceSet) throws -> Int? {
    guard let text, !text.isEmpty else { return nil }
    let value: DateTimeValue
    do {
      value = try DateTimeValue(parsing: text)
    } catch {
      throw Failure(message: "--\(name): \(error.description)")
    }
    return try set.instant(of: value)
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
    if let error = self as? RecurrenceSetError { return error.description }
    return String(describing: self)
  }
}
