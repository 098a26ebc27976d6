import Foundation

@testable import OpenEventKit

/// Random choices from one seed (SplitMix64), so that a failing case is rebuilt from the seed
/// the test reports.
struct Choices: RandomNumberGenerator {
  private var state: UInt64

  /// How often, in a hundred, a value is drawn from the hostile ones rather than the ordinary.
  var wildness: Int

  /// Choices from `seed`, each case as wild as its seed decides: some all ordinary, some wild.
  init(seed: UInt64) {
    state = seed
    wildness = 0
    wildness = pick([0, 0, 5, 15, 40, 80])
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// Whether to draw this value from the hostile ones.
  mutating func wild() -> Bool { chance(wildness) }

  /// True `percent` times in a hundred.
  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[Int.random(in: 0..<elements.count, using: &self)]
  }

  /// A few of `make`'s values, none at all one time in `noneOutOf`.
  mutating func some<Element>(
    upTo most: Int, noneOutOf: Int = 2, _ make: (inout Choices) -> Element
  ) -> [Element] {
    guard int(1...noneOutOf) != 1 else { return [] }
    return (0..<int(1...most)).map { _ in make(&self) }
  }
}

/// The values a caller may put in an item, valid and not: ordinary ones most of the time, and
/// the edges of what the store accepts and beyond.
enum Hostile {
  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the first and last instants the store keeps.
  static let earliest = -62_135_596_800.0
  static let latest = 253_402_300_799.0

  static let longLatin = String(repeating: "x", count: 100_000)
  static let longAccented = String(repeating: "é", count: 50_000)

  static let texts: [String?] = [
    nil, "", "Lunch", "Réunion d'équipe 🧑‍🤝‍🧑", "a\u{0}b", "\u{0}", "trailing NUL\u{0}",
    "line\nbreak\r\nand tab\t", "'\"; DROP TABLE item; --", "\\u0000 is not a NUL", "\u{FEFF}BOM",
    "\u{202E}reversed", "e\u{301}\u{301}\u{301}", longLatin, longAccented,
  ]

  static func text(_ choices: inout Choices) -> String? {
    choices.wild() ? choices.pick(texts) : "Item \(choices.int(0...999))"
  }

  /// Seconds since 1970 that are worth a try as an instant.
  static let edgeSeconds: [Double] = [
    earliest, earliest - 1, earliest + 0.5, earliest + 86_399, latest, latest + 1, latest - 0.25,
    latest - 86_400, Date.distantPast.timeIntervalSince1970,
    Date.distantFuture.timeIntervalSince1970, 0, -0.5, 1e15, -1e15, .greatestFiniteMagnitude,
    -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
  ]

  /// The second 01:30 (or 01:45) of a night when clocks go back, where its reading alone would
  /// name the first: an hour (half an hour at Lord Howe) later than the first.
  static let repeatedReadings: [String: Double] = [
    "America/New_York": 1_793_514_600, "Europe/London": 1_792_891_800,
    "Australia/Lord_Howe": 1_775_315_700,
  ]

  /// An instant: mostly between 1990 and 2040, with or without a fraction of a second.
  static func date(_ choices: inout Choices) -> Date {
    if choices.wild() { return Date(timeIntervalSince1970: choices.pick(edgeSeconds)) }
    var seconds = Double(choices.int(631_152_000...2_208_988_800))
    if choices.chance(30) { seconds = (seconds / 3600).rounded(.down) * 3600 }
    if choices.chance(20) { seconds += Double(choices.int(1...999)) / 1000 }
    return Date(timeIntervalSince1970: seconds)
  }

  /// How long after its start an event ends: ordinary lengths, none, negative and absurd ones.
  static func length(_ choices: inout Choices) -> Double? {
    guard choices.wild() else { return choices.pick([0, 1800, 3600, 5400, 86_400, 3 * 86_400]) }
    return choices.pick([nil, 1, 0.5, 40 * 86_400, -1, -3600, 1e12, -1e12, .infinity, .nan])
  }

  static func zone(_ choices: inout Choices) -> TimeZone? {
    let ordinary: [TimeZone?] = [
      nil, TimeZone.current, TimeZone(identifier: "America/New_York"),
      TimeZone(identifier: "Europe/London"), TimeZone(identifier: "Australia/Lord_Howe"),
      TimeZone(identifier: "Asia/Kathmandu"),
    ]
    guard choices.wild() else { return choices.pick(ordinary) }
    let zones: [TimeZone?] = [
      nil, TimeZone.current, TimeZone(identifier: "UTC"), TimeZone(identifier: "GMT"),
      TimeZone(identifier: "America/New_York"), TimeZone(identifier: "Europe/London"),
      TimeZone(identifier: "Australia/Lord_Howe"), TimeZone(identifier: "Asia/Kathmandu"),
      TimeZone(identifier: "Pacific/Kiritimati"), TimeZone(identifier: "Pacific/Pago_Pago"),
      TimeZone(identifier: "Etc/GMT+12"), TimeZone(secondsFromGMT: 3600),
      TimeZone(secondsFromGMT: -14 * 3600), TimeZone(abbreviation: "PST"),
    ]
    return choices.pick(zones)
  }

  static let urls: [URL?] = [
    nil, URL(string: "https://example.com/path?q=1&r=%20#frag"), URL(string: "mailto:a@b.example"),
    URL(string: "file:///tmp/a%20b"), URL(string: "x-custom:"), URL(string: "http://[::1]:8080/"),
    URL(fileURLWithPath: "/tmp/with space"), URL(string: "https://example.com/" + longLatin),
  ]

  static let offsets: [Double] = [
    0, -900, 900, -7 * 86_400, 0.5, -1e9, 1e12, -1e300, 1e300, .nan, .infinity, -.infinity,
    .greatestFiniteMagnitude,
  ]

  static let coordinates: [Double] = [
    48.85, 2.35, 0, 90, -90, 180, -180, -91, 1000, .nan, .infinity,
  ]
  static let radii: [Double] = [0, 100, 0.5, -1, .nan, .infinity, 1e308]

  static func place(_ choices: inout Choices) -> EKStructuredLocation? {
    guard choices.chance(40) else { return nil }
    let place = EKStructuredLocation()
    place.title = text(&choices)
    if choices.chance(60) {
      place.geoLocation =
        choices.wild()
        ? CLLocation(latitude: choices.pick(coordinates), longitude: choices.pick(coordinates))
        : CLLocation(latitude: 48.8566, longitude: 2.3522)
    }
    if choices.chance(50) { place.radius = choices.wild() ? choices.pick(radii) : 150 }
    return place
  }

  static func alarm(_ choices: inout Choices) -> EKAlarm {
    let offset = choices.wild() ? choices.pick(offsets) : choices.pick([0, -300, -900, -3600])
    let alarm =
      choices.chance(70) ? EKAlarm(relativeOffset: offset) : EKAlarm(absoluteDate: date(&choices))
    if choices.chance(15) {
      alarm.structuredLocation = place(&choices) ?? EKStructuredLocation(title: "Home")
      if choices.wild() { alarm.structuredLocation = nil }
      alarm.proximity = choices.pick([.enter, .leave])
    }
    switch choices.int(0...5) {
    case 0 where choices.wild(): alarm.emailAddress = choices.pick(["", "a\u{0}b", longLatin])
    case 0: alarm.emailAddress = "a@b.example"
    case 1: alarm.soundName = choices.wild() ? choices.pick(["", longLatin, "\u{0}"]) : "Basso"
    default: break
    }
    return alarm
  }

  static let intervals = [1, 1, 2, 7, 0, -1, 1000, Int.max, Int.min]
  static let weekNumbers = [0, 0, 1, -1, 5, 53, -53, 54, Int(Int32.max), Int.min]
  static let monthDays = [1, 15, 31, -1, -31, 0, 32, 400, Int.max]
  static let months = [1, 6, 12, 0, 13, -1]
  static let weeks = [1, 20, 53, -53, 0, 54]
  static let yearDays = [1, 100, 366, -366, 0, 367]
  static let positions = [1, 2, -1, 366, -366, 0, 400]
  static let counts = [1, 2, 10, 0, -1, 2_147_483_647, 2_147_483_648, Int.max]

  static func rule(_ choices: inout Choices) -> EKRecurrenceRule {
    let frequency = choices.pick([EKRecurrenceFrequency.daily, .weekly, .monthly, .yearly])
    let interval = choices.wild() ? choices.pick(intervals) : choices.int(1...3)
    let end: EKRecurrenceEnd? =
      switch choices.int(0...3) {
      case 0: nil
      case 1 where choices.wild(): EKRecurrenceEnd(occurrenceCount: choices.pick(counts))
      case 1, 2: EKRecurrenceEnd(occurrenceCount: choices.int(1...40))
      default: EKRecurrenceEnd(end: date(&choices))
      }
    guard choices.wild() else {
      let days = choices.some(upTo: 2, noneOutOf: 2) { choices in
        EKRecurrenceDayOfWeek(EKWeekday(rawValue: choices.int(1...7))!)
      }
      return EKRecurrenceRule(
        recurrenceWith: frequency, interval: interval, daysOfTheWeek: days.isEmpty ? nil : days,
        daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
        setPositions: nil, end: end)
    }
    func numbers(_ pool: [Int], _ choices: inout Choices) -> [NSNumber]? {
      let values = choices.some(upTo: 3, noneOutOf: 3) { NSNumber(value: $0.pick(pool)) }
      return values.isEmpty ? nil : values
    }
    let days = choices.some(upTo: 3, noneOutOf: 2) { choices in
      EKRecurrenceDayOfWeek(
        dayOfTheWeek: EKWeekday(rawValue: choices.int(1...7))!,
        weekNumber: choices.chance(70) ? 0 : choices.pick(weekNumbers))
    }
    return EKRecurrenceRule(
      recurrenceWith: frequency, interval: interval, daysOfTheWeek: days.isEmpty ? nil : days,
      daysOfTheMonth: numbers(monthDays, &choices), monthsOfTheYear: numbers(months, &choices),
      weeksOfTheYear: numbers(weeks, &choices), daysOfTheYear: numbers(yearDays, &choices),
      setPositions: numbers(positions, &choices), end: end)
  }

  /// Date components as a reminder's due or start date: ordinary dates, with and without a
  /// time and a zone, and absurd or missing fields.
  static func components(_ choices: inout Choices) -> DateComponents? {
    switch choices.wild() ? choices.int(0...9) : choices.int(0...5) {
    case 0: return nil
    case 1...3:
      return DateComponents(
        year: choices.int(1990...2040), month: choices.int(1...12), day: choices.int(1...28))
    case 4...5:
      return DateComponents(
        timeZone: choices.chance(50) ? zone(&choices) : nil, year: choices.int(1990...2040),
        month: choices.int(1...12), day: choices.int(1...28), hour: choices.int(0...23),
        minute: choices.pick([0, 30, 59]))
    default:
      let fields = [
        1, 12, 0, -1, 13, 25, 31, 32, 60, 61, 9999, 10_000, Int(Int32.max), Int.max, Int.min,
      ]
      var odd = DateComponents(
        year: choices.chance(80) ? choices.pick([1, 2026, 9999, 0, -5, 10_000, Int.max]) : nil,
        month: choices.chance(80) ? choices.pick(fields) : nil,
        day: choices.chance(80) ? choices.pick(fields) : nil)
      if choices.chance(50) { odd.hour = choices.pick(fields) }
      if choices.chance(30) { odd.minute = choices.pick(fields) }
      if choices.chance(30) { odd.second = choices.pick(fields) }
      if choices.chance(20) { odd.nanosecond = choices.pick(fields) }
      if choices.chance(20) { odd.weekday = choices.pick(fields) }
      if choices.chance(30) { odd.timeZone = zone(&choices) }
      return odd
    }
  }
}

/// A fingerprint of an item: each property a caller can set, as short comparable text. Long
/// texts are a length and a hash, so that a failure message stays short.
typealias Fingerprint = [String: String]

enum Fingerprints {
  /// Text as itself when short, else its length and an FNV-1a hash of its bytes.
  static func short(_ text: String?) -> String {
    guard let text else { return "nil" }
    let bytes = Array(text.utf8)
    if bytes.count <= 60 && !text.contains("\u{0}") { return text.debugDescription }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return "\(bytes.count) bytes #\(String(hash, radix: 16))"
  }

  static func seconds(_ date: Date?) -> String {
    date.map { "\($0.timeIntervalSince1970)" } ?? "nil"
  }

  static func place(_ place: EKStructuredLocation?) -> String {
    guard let place else { return "nil" }
    let geo = place.geoLocation.map { "\($0.coordinate.latitude),\($0.coordinate.longitude)" }
    return "\(short(place.title)) at \(geo ?? "nil") r \(place.radius)"
  }

  /// An alarm; `absolute` turns its absolute date into the text the test expects back.
  static func alarm(_ alarm: EKAlarm, absolute: (Date) -> String) -> String {
    [
      alarm.absoluteDate.map(absolute) ?? "offset \(alarm.relativeOffset)",
      "proximity \(alarm.proximity.rawValue)", "place \(place(alarm.structuredLocation))",
      "email \(short(alarm.emailAddress))", "sound \(short(alarm.soundName))",
    ].joined(separator: " ")
  }

  /// A rule; `until` turns its end date into the text the test expects back.
  static func rule(_ rule: EKRecurrenceRule, until: (Date) -> String) -> String {
    func list(_ numbers: [NSNumber]?) -> String {
      numbers.map { $0.map(\.stringValue).joined(separator: ",") } ?? "-"
    }
    let end =
      rule.recurrenceEnd.map { end in
        end.endDate.map { "until \(until($0))" } ?? "count \(end.occurrenceCount)"
      } ?? "forever"
    return [
      "freq \(rule.frequency.rawValue)", "interval \(rule.interval)",
      "days \(rule.daysOfTheWeek?.map(\.description).joined(separator: ",") ?? "-")",
      "monthdays \(list(rule.daysOfTheMonth))", "months \(list(rule.monthsOfTheYear))",
      "weeks \(list(rule.weeksOfTheYear))", "yeardays \(list(rule.daysOfTheYear))",
      "setpos \(list(rule.setPositions))", end,
    ].joined(separator: " ")
  }

  /// What every item has: calendar, texts, alarms and rules.
  static func item(
    _ item: EKCalendarItem, absolute: (Date) -> String, until: (Date) -> String
  ) -> Fingerprint {
    [
      "calendar": item.calendar?.calendarIdentifier ?? "nil",
      "title": short(item.title), "location": short(item.location), "notes": short(item.notes),
      "url": short(item.url?.absoluteString),
      "alarms": (item.alarms ?? []).map { alarm($0, absolute: absolute) }.joined(separator: "; "),
      "rules": (item.recurrenceRules ?? []).map { rule($0, until: until) }.joined(
        separator: "; "),
    ]
  }

  /// The keys whose values differ, each with both values, for a failure message.
  static func differences(expected: Fingerprint, read: Fingerprint) -> String {
    Set(expected.keys).union(read.keys).sorted().compactMap { key in
      expected[key] == read[key]
        ? nil : "\(key): expected \(expected[key] ?? "-"), read \(read[key] ?? "-")"
    }.joined(separator: "\n")
  }
}
