import Foundation
import ICalendar
import Testing

/// Content lines in and out (RFC 5545 §3.1): unfolding, parameters, escaping, folding at 75
/// octets, and the errors a broken file gets, each with its line.
@Suite struct ICalendarDocumentTests {
  func parse(_ lines: [String], separator: String = "\r\n") throws -> ICalendarDocument {
    try ICalendarDocument(parsing: lines.joined(separator: separator) + separator)
  }

  func event(_ lines: [String]) throws -> ICalendarComponent {
    let document = try parse(
      ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT"] + lines + ["END:VEVENT", "END:VCALENDAR"])
    return try #require(document.calendars.first?.components.first)
  }

  @Test func unfoldsAndReadsParameters() throws {
    let event = try event([
      "SUMMARY:A long",
      "  title folded",
      "\tin three",
      #"ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT;MEMBER="mailto:a@x.org","mailto:b@x.org":"#,
      " mailto:jane@example.com",
      "dtstart;tzid=Europe/Paris:20250301T090000",
    ])
    #expect(event.property("SUMMARY")?.value == "A long title foldedin three")
    let attendee = try #require(event.property("ATTENDEE"))
    #expect(attendee.value == "mailto:jane@example.com")
    #expect(attendee.parameter("CN") == "Doe, Jane")
    #expect(attendee.parameter("ROLE") == "REQ-PARTICIPANT")
    #expect(
      attendee.parameters.first { $0.name == "MEMBER" }?.values == [
        "mailto:a@x.org", "mailto:b@x.org",
      ])
    let start = try #require(event.property("DTSTART"))
    #expect(start.parameter("TZID") == "Europe/Paris")
    #expect(start.line == 9)
  }

  @Test func foldsInsideAMultiByteCharacterComeBackWhole() throws {
    // "é" is C3 A9; a producer folded between the two bytes.
    var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Caf".utf8)
    bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xA9]
    bytes += Array(" au lait\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    let document = try ICalendarDocument(parsing: bytes)
    #expect(document.calendars[0].components[0].property("SUMMARY")?.value == "Café au lait")
  }

  @Test func textEscapesRoundTrip() throws {
    let text = "Line one\nsemi; comma, back\\slash"
    let property = ICalendarProperty(name: "DESCRIPTION", text: text)
    #expect(property.value == #"Line one\nsemi\; comma\, back\\slash"#)
    #expect(property.textValue == text)
    #expect(ICalendarText.unescape(#"A\NB\:C"#) == "A\nB:C")
    // Escapes among multi-byte characters, and one before a multi-byte character.
    #expect(ICalendarText.unescape(#"Café\, naïve\\ 日本\N\é"#) == "Café, naïve\\ 日本\né")
    // Found by fuzz-ics and fuzz-import: a raw CR, which escaping writes as \n, was kept as a
    // CR when read.
    #expect(ICalendarText.unescape("a\rb\r\nc\\\rd") == "a\nb\nc\nd")
    #expect(ICalendarText.unescape(ICalendarText.escape("a\rb")) == ICalendarText.unescape("a\rb"))
    // A backslash that ends the text escapes nothing and stays; a part of a longer text reads
    // as the same text alone.
    #expect(ICalendarText.unescape("end\\") == "end\\")
    #expect(ICalendarText.unescape("x\\,y\\".dropFirst()) == ",y\\")
    let categories = ICalendarProperty(name: "CATEGORIES", value: #"Work,Home\, garden,Travel"#)
    #expect(categories.textValues == ["Work", "Home, garden", "Travel"])
  }

  @Test func parameterValuesAreQuotedAndCaretEscapedWhenWritten() throws {
    let property = ICalendarProperty(
      name: "X-TEST",
      parameters: [
        ICalendarParameter(name: "X-NOTE", value: "a: \"quoted\"\nline"),
        ICalendarParameter(name: "x-plain", values: ["one", "two"]),
      ], value: "v")
    var writer = ICalendarWriter()
    writer.write(property)
    let text = String(decoding: writer.bytes, as: UTF8.self)
    #expect(text == "X-TEST;X-NOTE=\"a: ^'quoted^'^nline\";X-PLAIN=one,two:v\r\n")
    // "\r\n" is one Character.
    let back = try event([String(text.dropLast())]).property("X-TEST")
    #expect(back == property)
  }

  // Found by fuzz-ics: a raw CR in a parameter value was written as ^n and read back as a
  // line break, so a document's own text read as another document; and a quote or colon
  // followed by a combining mark, one Character with it, was written unescaped or unquoted.
  @Test func parameterValuesComeBackFromTheirOwnText() throws {
    let acute = "\u{301}"
    let document = try parse([
      "BEGIN:VCALENDAR", "X-A;P=one\rtwo;Q=\"a^'\(acute):b\";R=\":\(acute)\";S=^\(acute):v",
      "END:VCALENDAR",
    ])
    let property = try #require(document.calendars.first?.property("X-A"))
    #expect(
      property.parameters.map(\.value) == [
        "one\ntwo", "a\"\(acute):b", ":\(acute)", "^\(acute)",
      ])
    #expect(try ICalendarDocument(parsing: document.text) == document)
  }

  @Test func writesFoldedLinesOfAtMost75OctetsWithoutSplittingCharacters() throws {
    let summary = String(repeating: "日本語のテキスト", count: 12) + String(repeating: "x", count: 100)
    let component = ICalendarComponent(
      name: "VCALENDAR",
      components: [
        ICalendarComponent(
          name: "VEVENT", properties: [ICalendarProperty(name: "SUMMARY", text: summary)])
      ])
    let bytes = ICalendarDocument(calendars: [component]).serialized()
    var lines: [[UInt8]] = [[]]
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x0D {
        #expect(bytes[index + 1] == 0x0A)
        lines.append([])
        index += 2
      } else {
        lines[lines.count - 1].append(bytes[index])
        index += 1
      }
    }
    #expect(lines.removeLast().isEmpty)
    #expect(lines.allSatisfy { $0.count <= 75 })
    #expect(lines.filter { $0.first == 0x20 }.count > 3)
    // Each physical line is valid UTF-8 on its own: no character was cut.
    #expect(lines.allSatisfy { String(validating: $0, as: UTF8.self) != nil })
    let back = try ICalendarDocument(parsing: bytes)
    #expect(back.calendars[0].components[0].property("SUMMARY")?.textValue == summary)
    #expect(back == ICalendarDocument(calendars: [component]))
  }

  @Test func writingIsDeterministicAndRoundTripsUnknownContent() throws {
    let source = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "X-WR-CALNAME:Team",
      "BEGIN:VEVENT", "UID:1@x", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC",
      "X-MICROSOFT-CDO-BUSYSTATUS;X-FOO=bar:OOF", "BEGIN:X-CUSTOM", "X-A:1", "END:X-CUSTOM",
      "END:VEVENT", "END:VCALENDAR",
    ]
    let document = try parse(source)
    #expect(document.text == source.joined(separator: "\r\n") + "\r\n")
    #expect(try ICalendarDocument(parsing: document.text) == document)
  }

  @Test func lenientWithBareLineFeedsLowerCaseNamesBlankLinesAndAByteOrderMark() throws {
    let text =
      "\u{FEFF}begin:vcalendar\n\nbegin:vevent\nsummary:Lunch\nEnd:VEvent\nend:VCALENDAR\n"
    let document = try ICalendarDocument(parsing: text)
    let event = try #require(document.calendars.first?.components.first)
    #expect(event.name == "VEVENT")
    #expect(event.property("SUMMARY")?.value == "Lunch")
  }

  // Found by fuzz-ics: a name longer than a folded line is folded inside the name, and the
  // reader took the first part for a word wrapped without its leading space, joining it to
  // the property before.
  @Test func aNameLongerThanAFoldedLineComesBack() throws {
    let name = "X-" + String(repeating: "LONG", count: 30)
    let document = try parse(["BEGIN:VCALENDAR", "SEQUENCE:0", "\(name):1", "END:VCALENDAR"])
    let written = document.text
    #expect(!written.contains(name))  // folded inside the name
    let reread = try ICalendarDocument(parsing: written)
    #expect(reread == document)
    #expect(reread.calendars[0].property(name)?.value == "1")
    #expect(reread.calendars[0].property("SEQUENCE")?.value == "0")
  }

  // Found by fuzz-ics: a CR inside a value, which the reader keeps where it ends no line, cut
  // the value short when read back from the one-line form the store keeps alarms' and
  // attendees' lines in.
  @Test func aCarriageReturnInAValueSurvivesTheOneLineForm() throws {
    let document = try ICalendarDocument(
      parsing: "BEGIN:VCALENDAR\r\nX-A:one\rtwo\r\nX-B:end\r\r\nEND:VCALENDAR\r\n")
    let properties = document.calendars[0].properties
    #expect(properties.map(\.value) == ["one\rtwo", "end\r"])
    for property in properties {
      #expect(try ICalendarProperty(contentLine: property.contentLine) == property)
    }
  }

  @Test func readsLatin1LinesOfOlderExports() throws {
    var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nLOCATION:M".utf8)
    bytes += [0xFC]  // ü in ISO 8859-1
    bytes += Array("nchen\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    let document = try ICalendarDocument(parsing: bytes)
    #expect(document.calendars[0].components[0].property("LOCATION")?.value == "München")
  }

  @Test(arguments: [
    (["BEGIN:VEVENT", "END:VEVENT"], 1, "expected BEGIN:VCALENDAR"),
    (["SUMMARY:x"], 1, "outside a calendar"),
    (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "END:VCALENDAR"], 3, "closes BEGIN:VEVENT of line 2"),
    (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:x"], 3, "ends inside BEGIN:VEVENT of line 2"),
    (["BEGIN:VCALENDAR", "SUMMARY x", "END:VCALENDAR"], 2, "no ':' separates"),
    (["BEGIN:VCALENDAR", ":value", "END:VCALENDAR"], 2, "expected a property name"),
    (["BEGIN:VCALENDAR", "X-A;CN=\"open:v", "END:VCALENDAR"], 2, "never closes"),
    (["BEGIN:VCALENDAR", "X-A;CN:v", "END:VCALENDAR"], 2, "NAME=value"),
    (["END:VCALENDAR"], 1, "with no component open"),
    (["BEGIN:VCALENDAR", "BEGIN:", "END:VCALENDAR"], 2, "BEGIN names no component"),
    ([""], 1, "no VCALENDAR"),
  ])
  func badFilesNameTheLine(lines: [String], line: Int, reason: String) {
    #expect {
      _ = try parse(lines)
    } throws: { error in
      guard let error = error as? ICalendarParseError else { return false }
      return error.line == line && error.description.contains(reason)
    }
  }

  @Test func typedValuesNameTheirProperty() throws {
    let event = try event([
      "DTSTART;VALUE=DATE:20250301T090000", "DURATION:PT1X", "SEQUENCE:two",
      "DTEND;TZID=Nowhere/Atlantis:20250301T100000",
    ])
    var zones = TimeZoneResolver(calendar: ICalendarComponent(name: "VCALENDAR"))
    #expect(throws: ICalendarParseError.self) {
      _ = try event.property("DTSTART")!.dateTimeValue(zones: &zones)
    }
    do {
      _ = try event.property("DURATION")!.durationValue()
      Issue.record("no error")
    } catch {
      #expect("\(error)".hasPrefix("line 5: DURATION: 'PT1X'"))
    }
    #expect(throws: ICalendarParseError.self) {
      _ = try event.property("SEQUENCE")!.integerValue()
    }
    do {
      _ = try event.property("DTEND")!.dateTimeValue(zones: &zones)
      Issue.record("no error")
    } catch {
      #expect("\(error)".contains("unknown time zone 'Nowhere/Atlantis'"))
    }
  }
}
