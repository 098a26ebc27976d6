/// A TZID as an iCalendar file names it, resolved to a zone this library can compute with.
///
/// ```swift
/// var zones = TimeZoneResolver(calendar: ICalendarComponent(name: "VCALENDAR"))
/// switch try zones.resolve("Pacific Standard Time", line: 1, property: "DTSTART") {
/// case .named(let identifier): print(identifier)  // America/Los_Angeles
/// case .defined(let rules): print("only the file defines", rules.identifier)
/// }
/// ```
public enum ResolvedTimeZone: Sendable {
  /// A zone of the tz database, by its identifier (`Europe/Berlin`).
  case named(String)
  /// A zone only the file's VTIMEZONE defines, with rules matching no tz database zone.
  case defined(ZoneRules)

  /// The rules of the zone: loaded from the tz database for a named zone (once per
  /// process), or those the VTIMEZONE defines.
  ///
  /// - Throws: ``TimeZoneError`` when a named zone's file cannot be loaded.
  public var rules: ZoneRules {
    get throws(TimeZoneError) {
      switch self {
      case .named(let identifier): try ZoneRules.named(identifier)
      case .defined(let rules): rules
      }
    }
  }
}

/// Resolves the TZIDs of one VCALENDAR the way real files need
/// (OpenEventKit.docc/ICalendarFiles.md):
///
/// 1. a tz database identifier is used as it is, even when a VTIMEZONE comes with it: the
///    database knows the zone's whole history, where producers write a few years of rules;
/// 2. a Windows zone name (`W. Europe Standard Time`) or an Outlook display name
///    (`(UTC+01:00) Amsterdam, Berlin, …`) maps to its IANA zone, as CLDR maps it;
/// 3. a vendor-prefixed TZID (`/mozilla.org/20050126_1/Europe/Paris`) is read by its end;
/// 4. any other TZID is read from the calendar's VTIMEZONE of that name: matched to a tz
///    database zone that gives the same offsets at the same instants (X-LIC-LOCATION first),
///    or used with its own rules when none does.
///
/// A TZID that none of these resolves is an error naming the line.
///
/// Make one per VCALENDAR and pass it to the typed readings of ``ICalendarProperty``; it
/// remembers each TZID it has resolved.
///
/// ```swift
/// let text = try String(contentsOfFile: "calendar.ics", encoding: .utf8)
/// let document = try ICalendarDocument(parsing: text)
/// for calendar in document.calendars {
///   var zones = TimeZoneResolver(calendar: calendar)
///   for event in calendar.components(named: "VEVENT") {
///     guard let start = event.property("DTSTART") else { continue }
///     print(try start.dateTimeValue(zones: &zones))
///   }
/// }
/// ```
public struct TimeZoneResolver: Sendable {
  private var definitions: [String: ICalendarComponent] = [:]
  private var resolved: [String: ResolvedTimeZone] = [:]
  /// The TZID last resolved, as written, and its zone: an item's times, and a file's items,
  /// mostly name one zone again and again, and comparing the name costs less than cleaning
  /// and hashing it.
  private var last: (tzid: String, zone: ResolvedTimeZone)?
  /// The calendar's X-WR-TIMEZONE (Google and Apple), resolved: the zone its producer meant
  /// for floating times. Nil when the calendar has none, or names a zone that cannot be
  /// resolved.
  public private(set) var calendarZone: ResolvedTimeZone?

  /// A resolver for the TZIDs of one calendar, which knows its VTIMEZONEs and resolves its
  /// X-WR-TIMEZONE into ``calendarZone``.
  ///
  /// VTIMEZONEs are read only when a TZID needs one, so a broken one that no value uses is
  /// no error.
  ///
  /// ```swift
  /// let calendar = ICalendarComponent(
  ///   name: "VCALENDAR",
  ///   properties: [ICalendarProperty(name: "X-WR-TIMEZONE", value: "Europe/Madrid")])
  /// let zones = TimeZoneResolver(calendar: calendar)
  /// if case .named(let identifier) = zones.calendarZone { print(identifier) }  // Europe/Madrid
  /// ```
  ///
  /// - Parameter calendar: The VCALENDAR component whose values will be read.
  public init(calendar: ICalendarComponent) {
    for component in calendar.components where component.name == "VTIMEZONE" {
      if let tzid = component.property("TZID")?.value {
        definitions[Self.clean(tzid)] = component
      }
    }
    if let zone = calendar.property("X-WR-TIMEZONE") {
      calendarZone = try? resolve(zone.value, line: zone.line, property: zone.name)
    }
  }

  /// The zone a TZID parameter names; `line` and `property` name it in the error.
  ///
  /// Quotes and whitespace around the TZID are ignored. The answer is remembered, so each
  /// TZID is resolved once.
  ///
  /// ```swift
  /// var zones = TimeZoneResolver(calendar: ICalendarComponent(name: "VCALENDAR"))
  /// let zone = try zones.resolve(
  ///   "/mozilla.org/20050126_1/Europe/Paris", line: 9, property: "DTSTART")
  /// if case .named(let identifier) = zone { print(identifier) }  // Europe/Paris
  /// do {
  ///   _ = try zones.resolve("Atlantis/Capital", line: 12, property: "DTEND")
  /// } catch {
  ///   print(error.line, error.property ?? "")  // 12 DTEND
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - tzid: The TZID parameter's value.
  ///   - line: The line of the property that gives it, for the error.
  ///   - property: The name of that property, for the error.
  /// - Returns: The tz database zone the TZID stands for, or the rules of its VTIMEZONE when
  ///   they match no zone of the database.
  /// - Throws: ``ICalendarParseError`` at `line` when the TZID is neither a zone the
  ///   database or CLDR knows nor the TZID of a VTIMEZONE of the calendar, or when that
  ///   VTIMEZONE cannot be read (``ZoneRules/init(timeZone:)``).
  public mutating func resolve(_ tzid: String, line: Int, property: String)
    throws(ICalendarParseError) -> ResolvedTimeZone
  {
    if let last, last.tzid == tzid { return last.zone }
    let cleaned = Self.clean(tzid)
    let zone: ResolvedTimeZone
    if let known = resolved[cleaned] {
      zone = known
    } else {
      zone = try lookUp(cleaned, line: line, property: property)
      resolved[cleaned] = zone
    }
    last = (tzid, zone)
    return zone
  }

  private func lookUp(_ tzid: String, line: Int, property: String) throws(ICalendarParseError)
    -> ResolvedTimeZone
  {
    if let identifier = Self.databaseIdentifier(for: tzid) { return .named(identifier) }
    guard let definition = definitions[tzid] else {
      throw ICalendarParseError(
        line: line, property: property,
        reason:
          "unknown time zone '\(ICalendarText.excerpt(tzid))': not in the tz database, not a Windows zone name,"
          + " and no VTIMEZONE in the file defines it")
    }
    let rules = try ZoneRules(timeZone: definition)
    let hint = definition.property("X-LIC-LOCATION").map { Self.clean($0.value) }
    if let identifier = Self.matchingIdentifier(for: rules, preferring: hint) {
      return .named(identifier)
    }
    return .defined(rules)
  }

  /// The tz database identifier a TZID stands for by its name alone, nil when it needs its
  /// VTIMEZONE.
  ///
  /// ```swift
  /// let paris = TimeZoneResolver.databaseIdentifier(for: "/mozilla.org/20050126_1/Europe/Paris")
  /// print(paris ?? "none")  // Europe/Paris
  /// let custom = TimeZoneResolver.databaseIdentifier(for: "Customized Time Zone")  // nil
  /// ```
  ///
  /// - Parameter tzid: A TZID, as a file writes it.
  /// - Returns: The identifier, when the TZID is one of the tz database, a Windows or Outlook
  ///   zone name that CLDR maps, or ends in one after a vendor prefix; nil otherwise.
  public static func databaseIdentifier(for tzid: String) -> String? {
    let tzid = clean(tzid)
    if (try? ZoneRules.named(tzid)) != nil { return tzid }
    if let identifier = WindowsZoneNames.ianaIdentifier(forWindowsOrDisplayName: tzid) {
      return identifier
    }
    // Vendor prefixes: /mozilla.org/20050126_1/Europe/Paris,
    // /softwarestudio.org/Olson_20011030_5/America/New_York, /citadel.org/20190914_1/Asia/Tokyo.
    let parts = tzid.split(separator: "/")
    if parts.count > 1 {
      for length in stride(from: min(3, parts.count - 1), through: 1, by: -1) {
        let candidate = parts.suffix(length).joined(separator: "/")
        if (try? ZoneRules.named(candidate)) != nil { return candidate }
      }
    }
    return nil
  }

  /// The first tz database zone whose offsets agree with `rules` from 2010 to 2037: `hint`
  /// first, then the zones CLDR names for each Windows zone, in alphabetical order.
  static func matchingIdentifier(for rules: ZoneRules, preferring hint: String?) -> String? {
    var candidates = Array(Set(WindowsZoneNames.ianaByWindowsName.values)).sorted()
    if let hint, let identifier = databaseIdentifier(for: hint) {
      candidates.insert(identifier, at: 0)
    }
    for candidate in candidates {
      guard let zone = try? ZoneRules.named(candidate) else { continue }
      if rules.agrees(with: zone, years: 2010...2037) { return candidate }
    }
    return nil
  }

  /// A TZID without the quotes and spaces some producers leave around it.
  private static func clean(_ tzid: some StringProtocol) -> String {
    var text = tzid.trimmingWhitespace()
    if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
      text = text.dropFirst().dropLast()
    }
    return String(text)
  }
}
