import Foundation
import ICalendar
import Testing

/// TZIDs as files in the wild write them, resolved to zones (OpenEventKit.docc/ICalendarFiles.md).
@Suite struct TimeZoneResolverTests {
  func calendar(_ lines: [String]) throws -> ICalendarComponent {
    let text = (["BEGIN:VCALENDAR"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n")
    return try ICalendarDocument(parsing: text).calendars[0]
  }

  func resolve(_ tzid: String, in lines: [String] = []) throws -> ResolvedTimeZone {
    var resolver = TimeZoneResolver(calendar: try calendar(lines))
    return try resolver.resolve(tzid, line: 1, property: "DTSTART")
  }

  func name(_ zone: ResolvedTimeZone) -> String? {
    if case .named(let identifier) = zone { return identifier }
    return nil
  }

  @Test(arguments: [
    ("Europe/Paris", "Europe/Paris"),
    ("W. Europe Standard Time", "Europe/Berlin"),
    ("Pacific Standard Time", "America/Los_Angeles"),
    ("Romance Standard Time", "Europe/Paris"),
    ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ("(UTC-08:00) Pacific Time (US & Canada)", "America/Los_Angeles"),
    // Older wordings, other spacing and case, and a display name known by its places only.
    ("(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ("(UTC+01:00)  brussels, copenhagen, madrid, paris", "Europe/Paris"),
    ("(UTC+00:00) Dublin, Edinburgh, Lisbon, London", "Europe/London"),
    ("(UTC+03:00) Moscow, St. Petersburg, Volgograd (RTZ 2)", "Europe/Moscow"),
    ("(UTC+05:00) Sarajevo, Skopje, Warsaw, Zagreb", "Europe/Warsaw"),
    ("Mexico Standard Time 2", "America/Mazatlan"),
    ("/mozilla.org/20050126_1/Europe/Paris", "Europe/Paris"),
    ("/softwarestudio.org/Olson_20011030_5/America/New_York", "America/New_York"),
    ("\"Europe/London\"", "Europe/London"),
  ])
  func namesResolveWithoutADefinition(tzid: String, identifier: String) throws {
    #expect(name(try resolve(tzid)) == identifier)
  }

  /// A place that names more than one Windows zone, with an offset of neither, is not guessed.
  @Test func anAmbiguousPlaceIsNotGuessed() throws {
    // Minsk has been in the names of both "E. Europe" and "Belarus Standard Time".
    #expect(throws: ICalendarParseError.self) { try resolve("(UTC+09:00) Minsk") }
  }

  /// Outlook's "Customized Time Zone": a definition with Central European rules.
  static let customCET = [
    "BEGIN:VTIMEZONE", "TZID:Customized Time Zone",
    "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
    "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
    "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
    "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
    "END:VTIMEZONE",
  ]

  @Test func aDefinitionWithDatabaseRulesBecomesThatZone() throws {
    let zone = try resolve("Customized Time Zone", in: Self.customCET)
    let identifier = try #require(name(zone))
    let rules = try ZoneRules.named(identifier)
    let summer = try DateTimeValue(parsing: "20250701T120000Z").local.localSeconds
    #expect(rules.offset(atUTC: summer) == 7200)
    // X-LIC-LOCATION is preferred when it agrees.
    let hinted = try resolve(
      "Customized Time Zone",
      in: Self.customCET.dropLast() + ["X-LIC-LOCATION:Europe/Rome", "END:VTIMEZONE"])
    #expect(name(hinted) == "Europe/Rome")
  }

  @Test func aDefinitionNoDatabaseZoneHasIsUsedWithItsOwnRules() throws {
    // +01:33 in winter, +02:33 from the first Sunday of May to the first Sunday of September.
    let lines = [
      "BEGIN:VTIMEZONE", "TZID:Odd Zone",
      "BEGIN:STANDARD", "DTSTART:20000903T020000", "TZOFFSETFROM:+0233", "TZOFFSETTO:+0133",
      "RRULE:FREQ=YEARLY;BYMONTH=9;BYDAY=1SU", "END:STANDARD",
      "BEGIN:DAYLIGHT", "DTSTART:20000507T020000", "TZOFFSETFROM:+0133", "TZOFFSETTO:+0233",
      "RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=1SU", "END:DAYLIGHT",
      "END:VTIMEZONE",
    ]
    guard case .defined(let rules) = try resolve("Odd Zone", in: lines) else {
      Issue.record("matched a database zone")
      return
    }
    // 2025-05-04 is the first Sunday of May: 02:00 local at +01:33 is 00:27 UTC.
    let change = try DateTimeValue(parsing: "20250504T002700Z").local.localSeconds
    #expect(rules.offset(atUTC: change - 1) == 5580)
    #expect(rules.offset(atUTC: change) == 9180)
    let reading = try DateTimeValue(parsing: "20250101T120000").local.localSeconds
    #expect(rules.instant(forLocal: reading).seconds == reading - 5580)
  }

  @Test func unknownNamesAndBrokenDefinitionsAreErrors() throws {
    #expect(throws: ICalendarParseError.self) { _ = try resolve("Nowhere/Atlantis") }
    let broken = [
      "BEGIN:VTIMEZONE", "TZID:Broken", "BEGIN:STANDARD", "DTSTART:20000101T000000",
      "TZOFFSETFROM:+0100", "TZOFFSETTO:one", "END:STANDARD", "END:VTIMEZONE",
    ]
    do {
      _ = try resolve("Broken", in: broken)
      Issue.record("no error")
    } catch {
      #expect("\(error)" == "line 7: TZOFFSETTO: 'one' is not a UTC offset such as +0100 or -0500")
    }
  }

  @Test func calendarZoneComesFromXWRTimezone() throws {
    let resolver = TimeZoneResolver(calendar: try calendar(["X-WR-TIMEZONE:Europe/Amsterdam"]))
    #expect(resolver.calendarZone.flatMap(name) == "Europe/Amsterdam")
  }

  @Test func utcOffsets() {
    #expect(UTCOffset.seconds(parsing: "+0100") == 3600)
    #expect(UTCOffset.seconds(parsing: "-0530") == -19800)
    #expect(UTCOffset.seconds(parsing: "+053015") == 19815)
    #expect(UTCOffset.seconds(parsing: "-0000") == nil)
    #expect(UTCOffset.seconds(parsing: "+2500") == nil)
    #expect(UTCOffset.seconds(parsing: "0100") == nil)
    #expect(UTCOffset.text(-19800) == "-0530")
    #expect(UTCOffset.text(19815) == "+053015")
  }
}

/// The VTIMEZONE an export writes gives back the zone's offsets when read with its own rules.
@Suite struct VTimeZoneWritingTests {
  @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Tokyo"])
  func writtenRulesAgreeWithTheDatabase(identifier: String) throws {
    let zone = try ZoneRules.named(identifier)
    let from = try DateTimeValue(parsing: "20200615T000000Z").local.localSeconds
    var component = zone.timeZoneComponent(from: from)
    component.properties[0].value = "Written"  // read as a definition, not by its name
    let text = (["BEGIN:VCALENDAR"] + component.contentLines + ["END:VCALENDAR"])
      .joined(separator: "\r\n")
    let definition = try ICalendarDocument(parsing: text).calendars[0].components[0]
    let rules = try ZoneRules(timeZone: definition)
    // Every hour from the start of 2020 to 2045: the same offset.
    let start = try DateTimeValue(parsing: "20200101T000000Z").local.localSeconds
    let end = try DateTimeValue(parsing: "20450101T000000Z").local.localSeconds
    var instant = start
    while instant < end {
      #expect(rules.offset(atUTC: instant) == zone.offset(atUTC: instant), "\(instant)")
      if rules.offset(atUTC: instant) != zone.offset(atUTC: instant) { return }
      instant += 3600
    }
  }
}
