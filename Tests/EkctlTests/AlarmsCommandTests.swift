import Foundation
import OpenEventKit
import TestSupport
import Testing

/// `ekctl alarms`: the alarms that fire in a window, as a person and a script read them.
@Suite struct AlarmsCommandTests {
  let temporary: TemporaryFolder
  let database: String

  /// A daily 09:00 Berlin stand-up of three with an alarm ten minutes before, a lunch with an
  /// alarm at 10:00 UTC, and a reminder due at 17:00 UTC with one half an hour before; the
  /// second stand-up is moved to 11:00 and the third removed (EXDATE).
  static let file = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//tests//EN\r
    X-WR-CALNAME:Home\r
    BEGIN:VEVENT\r
    UID:stand-up\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;TZID=Europe/Berlin:20260302T090000\r
    DTEND;TZID=Europe/Berlin:20260302T091500\r
    RRULE:FREQ=DAILY;COUNT=4\r
    EXDATE;TZID=Europe/Berlin:20260304T090000\r
    SUMMARY:Stand-up\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Stand-up\r
    TRIGGER:-PT10M\r
    END:VALARM\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:stand-up\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID;TZID=Europe/Berlin:20260303T090000\r
    DTSTART;TZID=Europe/Berlin:20260303T110000\r
    DTEND;TZID=Europe/Berlin:20260303T111500\r
    SUMMARY:Stand-up\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Stand-up\r
    TRIGGER:-PT10M\r
    END:VALARM\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:lunch\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260303T120000Z\r
    DTEND:20260303T130000Z\r
    SUMMARY:Lunch\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Lunch\r
    TRIGGER;VALUE=DATE-TIME:20260303T100000Z\r
    END:VALARM\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:rent\r
    DTSTAMP:20260101T000000Z\r
    DUE:20260305T170000Z\r
    SUMMARY:Pay rent\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Pay rent\r
    TRIGGER:-PT30M\r
    END:VALARM\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  init() throws {
    temporary = try TemporaryFolder(prefix: "EkctlAlarms")
    database = temporary.url.appendingPathComponent("Calendar.sqlite").path
    let file = temporary.url.appendingPathComponent("home.ics")
    try Data(Self.file.utf8).write(to: file)
    let imported = try ekctl(["import", file.path])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  func ekctl(_ arguments: [String], zone: String = "Europe/Berlin") throws -> ProcessResult {
    try runEkctl(arguments + ["--db", database], environment: ["TZ": zone])
  }

  @Test func eachFiringIsOneLineOnTheViewersClock() throws {
    let result = try ekctl(["alarms", "--from", "2026-03-01", "--to", "2026-03-08"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map { line in
      line.components(separatedBy: "  ")
    }
    #expect(
      lines.map { $0.prefix(4).joined(separator: "|") } == [
        "2026-03-02T08:50:00|Stand-up|[Home]|10 minutes before (starts 2026-03-02T09:00:00)",
        "2026-03-03T10:50:00|Stand-up|[Home]|10 minutes before (starts 2026-03-03T11:00:00)",
        "2026-03-03T11:00:00|Lunch|[Home]|at its own time (starts 2026-03-03T13:00:00)",
        "2026-03-05T08:50:00|Stand-up|[Home]|10 minutes before (starts 2026-03-05T09:00:00)",
        "2026-03-05T17:30:00|Pay rent|[Home]|30 minutes before (due 2026-03-05T18:00:00)",
      ])
    // Each ends with the firing's identifier, sixteen hexadecimal digits, each different.
    let ids = lines.compactMap(\.last)
    #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
    #expect(Set(ids).count == 5)
  }

  /// Imports `events` (VEVENT lines without BEGIN and END, an alarm at the start added to
  /// each) into the suite's store.
  func importEvents(_ events: [[String]]) throws {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "X-WR-CALNAME:Home"]
    for event in events {
      lines += ["BEGIN:VEVENT", "DTSTAMP:20260101T000000Z"] + event
      lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:-", "TRIGGER:PT0S", "END:VALARM"]
      lines.append("END:VEVENT")
    }
    let file = temporary.url.appendingPathComponent("more-\(UUID().uuidString).ics")
    try Data((lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8).write(to: file)
    let imported = try ekctl(["import", file.path])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  /// An alarm every minute for three hours: 100 lines, then one with the other 80; `--all`
  /// and `--json` list all 180.
  @Test func anAlarmsFiringsPastAHundredAreCountedInOneLine() throws {
    try importEvents([
      [
        "UID:ping", "DTSTART:20260310T090000Z", "DURATION:PT1M", "SUMMARY:Ping",
        "RRULE:FREQ=MINUTELY;COUNT=180",
      ]
    ])
    let window = ["alarms", "--from", "2026-03-10T00:00:00Z", "--to", "2026-03-11T00:00:00Z"]
    let listed = try ekctl(window, zone: "UTC")
    #expect(listed.status == 0, "\(listed.stderr)")
    let lines = listed.stdout.split(separator: "\n")
    #expect(lines.count == 101)
    #expect(lines.filter { $0.contains("  Ping  ") }.count == 100)
    let summary =
      "… 80 more firings of Ping  [Home]  At the start, every minute, from 2026-03-10T10:40:00 "
      + "to 2026-03-10T11:59:00"
    #expect(lines.last.map(String.init) == summary)
    let all = try ekctl(window + ["--all"], zone: "UTC")
    #expect(all.stdout.split(separator: "\n").count == 180)
    let json = try ekctl(window + ["--json"], zone: "UTC")
    #expect(json.stdout.split(separator: "\n").count == 180)
    let refused = try ekctl(window + ["--all", "--json"])
    #expect(refused.status != 0 && refused.stderr.contains("--all goes with a listing in text"))
  }

  /// A floating series every 15 minutes through the night Berlin moves to summer time: the
  /// readings 02:00–02:45 do not exist, and move an hour on, onto 03:00–03:45's instants. The
  /// firings come in time order, those two readings share once, as the occurrences do.
  @Test func wallClockFiringsAcrossADaylightSavingGapComeInOrder() throws {
    try importEvents([
      [
        "UID:quarter", "DTSTART:20260329T000000", "DURATION:PT1M", "SUMMARY:Quarter",
        "RRULE:FREQ=MINUTELY;INTERVAL=15",
      ]
    ])
    let result = try ekctl([
      "alarms", "--from", "2026-03-29T00:00:00", "--to", "2026-03-29T05:00:00", "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let dates = result.stdout.split(separator: "\n").compactMap { line in
      line.components(separatedBy: #""fireDate":""#).dropFirst().first?.prefix(20)
    }
    // 00:00–01:45 CET, then 03:00–04:45 CEST (02:00–02:45 fall on 03:00–03:45).
    let expected = (0..<16).map { quarter in
      let date = Date(timeIntervalSince1970: 1_774_738_800 + Double(quarter * 900))
      return ISO8601DateFormatter().string(from: date)
    }
    #expect(dates.map(String.init) == expected)
  }

  @Test func jsonLinesCarryTheTimesInUTCAndTheIdentifiers() throws {
    let result = try ekctl(
      ["alarms", "--from", "2026-03-03T00:00:00Z", "--to", "2026-03-04T00:00:00Z", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let objects = try result.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(
      objects.map { $0["fireDate"] as? String } == ["2026-03-03T09:50:00Z", "2026-03-03T10:00:00Z"])
    #expect(objects.first?["trigger"] as? String == "relative")
    #expect(objects.first?["offset"] as? Int == -600)
    #expect(objects.first?["occurrenceDate"] as? String == "2026-03-03T08:00:00Z")
    #expect(objects.first?["start"] as? String == "2026-03-03T10:00:00Z")
    #expect(objects.last?["trigger"] as? String == "absolute")
    #expect(objects.last?["title"] as? String == "Lunch")
    #expect(objects.allSatisfy { ($0["id"] as? String)?.count == 16 })
    // The same firing has the same identifier in both forms.
    let text = try ekctl(
      ["alarms", "--from", "2026-03-03T00:00:00Z", "--to", "2026-03-04T00:00:00Z"])
    #expect(text.stdout.contains(try #require(objects.first?["id"] as? String)))
  }

  /// `--now` moves the window's default start: a week from that moment.
  @Test func nowSetsWhereTheDefaultWindowStarts() throws {
    let result = try ekctl(["alarms", "--now", "2026-03-03T10:00:00Z"])
    #expect(result.status == 0, "\(result.stderr)")
    let titles = result.stdout.split(separator: "\n").map { $0.components(separatedBy: "  ")[1] }
    // From 11:00 Berlin on 3 March: the moved stand-up (10:50) has fired, lunch's has not.
    #expect(titles == ["Lunch", "Stand-up", "Pay rent"], "\(result.stdout)")
  }

  /// Reminders due on the day summer time begins (29 March 2026 in Berlin), one repeating:
  /// their "on the day at 09:00" fires at 09:00 on the wall clock, not nine elapsed hours
  /// after midnight (10:00).
  @Test func aDateOnlyReminderFiresAtItsTimeOfDayOnTheDayTheClocksChange() throws {
    let todo = { (uid: String, title: String, rule: String, trigger: String) in
      "BEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDUE;VALUE=DATE:20260329\r\n"
        + rule + "SUMMARY:\(title)\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:\(title)\r\n"
        + "TRIGGER\(trigger)\r\nEND:VALARM\r\nEND:VTODO\r\n"
    }
    let file = temporary.url.appendingPathComponent("chores.ics")
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nX-WR-CALNAME:Chores\r\n"
      + todo("clocks", "Change the clocks", "", ";RELATED=END:PT9H")
      + todo("plants", "Water the plants", "RRULE:FREQ=WEEKLY\r\n", ":PT8H") + "END:VCALENDAR\r\n"
    try Data(text.utf8).write(to: file)
    #expect(try ekctl(["import", file.path]).status == 0)
    let result = try ekctl([
      "alarms", "--from", "2026-03-28", "--to", "2026-04-06", "--calendar", "Chores", "--json",
    ])
    let objects = try result.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    // 08:00 and 09:00 CEST (UTC+2) are 06:00Z and 07:00Z; the repeating one fires for its
    // current due date only.
    #expect(
      objects.map { "\($0["title"] ?? "") \($0["fireDate"] ?? "")" } == [
        "Water the plants 2026-03-29T06:00:00Z", "Change the clocks 2026-03-29T07:00:00Z",
      ])
  }

  @Test func aCompletedReminderNoLongerFires() throws {
    let before = try ekctl(["alarms", "--from", "2026-03-05", "--to", "2026-03-06"])
    #expect(before.stdout.contains("Pay rent"))
    let file = temporary.url.appendingPathComponent("done.ics")
    try Data(
      Self.file.replacingOccurrences(
        of: "SUMMARY:Pay rent\r\n", with: "SUMMARY:Pay rent\r\nSTATUS:COMPLETED\r\n"
      ).utf8
    ).write(to: file)
    #expect(try ekctl(["import", file.path]).status == 0)
    let after = try ekctl(["alarms", "--from", "2026-03-05", "--to", "2026-03-06"])
    #expect(!after.stdout.contains("Pay rent"))
  }

  /// A location alarm needs a position: listed after the timed firings as one that never
  /// fires, and never among them, even when it also has a date.
  @Test func locationAlarmsAreListedAsNeverFiring() throws {
    let store = try EKEventStore(ownerOf: URL(fileURLWithPath: database))
    let event = EKEvent(eventStore: store)
    event.title = "Pick up the cake"
    let home = try #require(store.calendars(for: .event).first { $0.title == "Home" })
    let start = try #require(ISO8601DateFormatter().date(from: "2026-03-03T15:00:00Z"))
    event.calendar = home
    event.startDate = start
    event.endDate = start.addingTimeInterval(1800)
    let arriving = EKAlarm(absoluteDate: start.addingTimeInterval(-600))
    arriving.structuredLocation = EKStructuredLocation(title: "Bakery")
    arriving.proximity = .enter
    event.addAlarm(arriving)
    try store.save(event, span: .thisEvent)

    let text = try ekctl(["alarms", "--from", "2026-03-03", "--to", "2026-03-04"])
    #expect(text.status == 0, "\(text.stderr)")
    let parts = text.stdout.components(separatedBy: "\n\n")
    #expect(parts.count == 2, "\(text.stdout)")
    #expect(!parts[0].contains("Pick up the cake"))
    #expect(parts[1].hasPrefix("Location alarms, which fire on arriving or leaving"))
    #expect(parts[1].contains("never fire"))
    #expect(parts[1].contains("Pick up the cake  [Home]  "))
    #expect(parts[1].contains("Bakery"))
    #expect(parts[1].contains(event.calendarItemIdentifier))

    let json = try ekctl(["alarms", "--from", "2026-03-03", "--to", "2026-03-04", "--json"])
    let objects = try json.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let located = objects.filter { $0["trigger"] as? String == "location" }
    #expect(located.count == 1)
    #expect(located.first?["title"] as? String == "Pick up the cake")
    #expect(located.first?["proximity"] as? String == "enter")
    #expect(located.first?["place"] as? String == "Bakery")
    #expect(located.first?["fireDate"] is NSNull)
    #expect(!objects.contains { $0["title"] as? String == "Pick up the cake" && $0["id"] != nil })
  }

  @Test func anEmptyWindowAndBadOptionsAreSaidPlainly() throws {
    let empty = try ekctl(["alarms", "--from", "2027-01-01", "--to", "2027-01-02"])
    #expect(empty.status == 0 && empty.stdout == "No alarm fires in that window.\n")
    let backwards = try ekctl(["alarms", "--from", "2026-03-02", "--to", "2026-03-01"])
    #expect(backwards.status != 0 && backwards.stderr.contains("--to must come after --from"))
    let unknown = try ekctl(["alarms", "--calendar", "Hom"])
    #expect(unknown.status != 0 && unknown.stderr.contains("did you mean \"Home\""))
  }

  @Test func optionsThatGoTogetherAreSaidSo() throws {
    let exec = try ekctl(["alarms", "--exec", "true"])
    #expect(
      exec.status != 0 && exec.stderr.contains("--exec, --no-notify and --clock go with --watch"))
    let window = try ekctl(["alarms", "--watch", "--from", "2026-03-01"])
    #expect(window.status != 0 && window.stderr.contains("--from and --to list a window"))
    let grace = try ekctl(["alarms", "--watch", "--grace=-1"])
    #expect(grace.status != 0 && grace.stderr.contains("--grace must be 0 or more"))
    let clock = try ekctl([
      "alarms", "--watch", "--clock", temporary.url.appendingPathComponent("none").path,
    ])
    #expect(clock.status != 0 && clock.stderr.contains("not a file holding an ISO 8601 date"))
    let twice = try ekctl(["alarms", "--now", "2026-03-01", "--clock", "/dev/null"])
    #expect(twice.status != 0 && twice.stderr.contains("--now and --clock each set the time"))
    let jobsAlone = try ekctl(["alarms", "--watch", "--exec-jobs", "2"])
    #expect(jobsAlone.status != 0 && jobsAlone.stderr.contains("--exec-jobs goes with --exec"))
    for jobs in ["0", "65"] {
      let bad = try ekctl(["alarms", "--watch", "--exec", "true", "--exec-jobs", jobs])
      #expect(bad.status != 0 && bad.stderr.contains("--exec-jobs must be from 1 to 64"), "\(jobs)")
    }
    let snooze = try ekctl(["alarms", "snooze", "0123456789abcdef", "0"])
    #expect(snooze.status != 0 && snooze.stderr.contains("MINUTES must be 1 or more"))
  }
}
