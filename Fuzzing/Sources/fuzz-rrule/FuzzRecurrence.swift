import ICalendar

/// One input: a recurrence set written as lines of text.
///
///     DTSTART;TZID=America/New_York:19970902T090000
///     RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13
///     RDATE:19971225T090000,19980101/P1D
///     EXDATE:19980213T090000
///
/// `DTSTART`, `RDATE` and `EXDATE` lines take an optional `;TZID=` and their values after the
/// colon; every other line is an RRULE, with or without its `RRULE:` name, and the first three
/// are kept. Without a DTSTART line the set starts at 19970902T090000 in America/New_York, the
/// start of most of RFC 5545's examples.
///
/// Each rule that parses must write canonical text that parses back to the same rule. A set
/// that can be expanded is expanded within bounds, since most rules never end: the first
/// `walkLimit` instances from DTSTART must come in increasing order, windows that start and end
/// on instances of that walk must return exactly the instances between, and a window far on
/// (40 years, or a day past the walk for a sub-daily rule with a COUNT over `walkedCount`)
/// gives its first few instances. Rules are otherwise taken as they come, so an input that
/// takes more than a second is a hang in the expander itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  var start = DateTimeValue.zoned(defaultStart, tzid: "America/New_York")
  var rules: [RecurrenceRule] = []
  var dates: [RecurrenceDate] = []
  var exceptions: [DateTimeValue] = []
  for line in text.split(whereSeparator: \.isNewline) {
    if let (tzid, value) = valueLine(line, named: "DTSTART") {
      guard let value = try? DateTimeValue(parsing: value, tzid: tzid) else { return 0 }
      start = value
    } else if let (tzid, values) = valueLine(line, named: "RDATE") {
      for value in values.split(separator: ",") {
        guard let date = try? RecurrenceDate(parsing: value, tzid: tzid) else { return 0 }
        dates.append(date)
      }
    } else if let (tzid, values) = valueLine(line, named: "EXDATE") {
      for value in values.split(separator: ",") {
        guard let date = try? DateTimeValue(parsing: value, tzid: tzid) else { return 0 }
        exceptions.append(date)
      }
    } else if rules.count < 3 {
      guard let rule = try? RecurrenceRule(parsing: line) else { continue }
      checkCanonicalText(of: rule)
      _ = rule.inWords()
      rules.append(rule)
    }
  }
  let set = RecurrenceSet(start: start, rules: rules, dates: dates, exceptionDates: exceptions)
  guard let everything = try? set.occurrences() else { return 0 }
  let walk = Array(everything.prefix(walkLimit))
  checkIncreasing(walk)
  checkWindows(of: set, against: walk)
  return 0
}

/// 1997-09-02 09:00.
let defaultStart = CivilDateTime(localSeconds: 873_190_800)

/// How many instances are walked from DTSTART.
let walkLimit = 256

/// The largest COUNT of a sub-daily rule whose far window is 40 years on (see
/// `checkWindows`).
let walkedCount = 1_000

/// `NAME[;TZID=zone]:value` → the zone and the value, nil for a line of another name.
func valueLine(_ line: Substring, named name: String) -> (tzid: String?, value: Substring)? {
  guard let colon = line.firstIndex(of: ":") else { return nil }
  let head = line[..<colon].uppercased()
  let value = line[line.index(after: colon)...]
  if head == name { return (nil, value) }
  guard head.hasPrefix(name + ";TZID=") else { return nil }
  return (String(line[..<colon].dropFirst(name.count + 6)), value)
}

func checkCanonicalText(of rule: RecurrenceRule) {
  let text = rule.text
  let reparsed: RecurrenceRule
  do {
    reparsed = try RecurrenceRule(parsing: text)
  } catch {
    fatalError("the canonical text \(text) of a rule is refused: \(error)")
  }
  guard reparsed == rule else { fatalError("the canonical text \(text) reads as another rule") }
}

func checkIncreasing(_ occurrences: [Occurrence]) {
  for (earlier, later) in zip(occurrences, occurrences.dropFirst())
  where earlier.secondsSinceEpoch >= later.secondsSinceEpoch {
    fatalError("instances out of order: \(earlier.local) then \(later.local)")
  }
}

/// Windows over the instances of `walk`, which are the first instances of `set` in order:
/// each must give exactly the instances of the walk it covers, however the expander jumps
/// to the window's start.
func checkWindows(of set: RecurrenceSet, against walk: [Occurrence]) {
  guard let last = walk.last else { return }
  let middle = walk.count / 3
  // From an instance to the last instance walked.
  expect(
    set, from: walk[middle].secondsSinceEpoch, to: last.secondsSinceEpoch,
    gives: walk[middle..<(walk.count - 1)])
  // From just after an instance, with no end.
  if middle + 1 < walk.count {
    expect(
      set, from: walk[middle].secondsSinceEpoch + 1, to: nil,
      gives: walk[(middle + 1)...].prefix(8))
  }
  // From the last instance walked, with no end.
  expect(set, from: last.secondsSinceEpoch, to: nil, gives: [last])
  // Far on: only that the instances are in order and in the window. Forty years, except
  // where ICalendar.docc/RecurrenceEngine.md says the skip walks: a sub-daily rule with a large COUNT is
  // walked from DTSTART when its periods yield unequal numbers of instances, which takes
  // seconds for decades of hours or minutes. A day past the walk still tests the skip there.
  let walked = set.rules.contains {
    [.hourly, .minutely, .secondly].contains($0.frequency) && ($0.count ?? 0) > walkedCount
  }
  let from =
    walked ? last.secondsSinceEpoch + 86_400 : walk[0].secondsSinceEpoch + 40 * 365 * 86_400
  guard let later = try? set.occurrences(from: from, to: nil) else {
    fatalError("a window far on is refused where the whole expansion is not")
  }
  let laterWalk = Array(later.prefix(8))
  checkIncreasing(laterWalk)
  if let early = laterWalk.first, early.secondsSinceEpoch < from {
    fatalError("an instance \(early.local) before its window")
  }
}

func expect(
  _ set: RecurrenceSet, from: Int, to: Int?, gives expected: some Collection<Occurrence>
) {
  guard let window = try? set.occurrences(from: from, to: to) else {
    fatalError("a window is refused where the whole expansion is not")
  }
  let found = Array(window.prefix(expected.count + 1))
  let wanted = Array(expected)
  // An open-ended window may go on past what was walked; compare what was walked.
  let compared = to == nil ? Array(found.prefix(wanted.count)) : found
  guard compared == wanted else {
    fatalError(
      "the window from \(from) to \(to.map(String.init) ?? "the end") gives \(found.count)"
        + " instances starting \(found.first.map { "\($0.local)" } ?? "nowhere"), the walk"
        + " \(wanted.count) starting \(wanted.first.map { "\($0.local)" } ?? "nowhere")")
  }
}
