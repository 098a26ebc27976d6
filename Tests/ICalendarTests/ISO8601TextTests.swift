import Testing

@testable import ICalendar

/// The ISO 8601 forms typed on command lines, read into RFC 5545 values and written back.
@Suite struct ISO8601TextTests {
  @Test(arguments: [
    ("2025-03-01", "20250301"),
    ("2025-03-01T09:00", "20250301T090000"),
    ("2025-03-01 09:00:30", "20250301T090030"),
    ("2025-03-01T09:00:00Z", "20250301T090000Z"),
    ("2025-03-01T09:00:00.250Z", "20250301T090000Z"),
    ("2025-03-01T10:00+01:00", "20250301T090000Z"),
    ("2025-03-01T04:00-0500", "20250301T090000Z"),
    ("2025-03-01T00:30+01", "20250228T233000Z"),
    ("20250301T090000Z", "20250301T090000Z"),
  ])
  func reads(text: String, expected: String) throws {
    #expect(try ISO8601Text.parse(text).text == expected)
  }

  @Test(arguments: [
    "", "2025", "2025-3-1", "2025-02-30", "2025-03-01T24:00", "2025-03-01T09:60",
    "2025-03-01T09:00+25:00", "2025-03-01T09:00+01:60", "2025-03-01T09:00Zjunk", "tomorrow",
    "2025-03-01T09",
  ])
  func refuses(text: String) {
    #expect(throws: ISO8601TextError.self) { try ISO8601Text.parse(text) }
  }

  @Test func writesTheFormsJSONUses() throws {
    #expect(ISO8601Text.string(try DateTimeValue(parsing: "20250301")) == "2025-03-01")
    #expect(
      ISO8601Text.string(try DateTimeValue(parsing: "20250301T090000Z")) == "2025-03-01T09:00:00Z")
    #expect(
      ISO8601Text.string(try DateTimeValue(parsing: "20250301T090000", tzid: "Europe/Paris"))
        == "2025-03-01T09:00:00")
  }
}
