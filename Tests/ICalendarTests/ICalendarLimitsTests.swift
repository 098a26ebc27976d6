import Dispatch
import Foundation
import ICalendar
import Testing

/// Files built to crash, hang or flood the reader: components nested without end, lines of
/// megabytes, NUL bytes, lines ending in CR alone, and long values quoted back in errors. Each
/// is read or refused with an ``ICalendarParseError`` in bounded time, memory and stack, and
/// no message quotes more than a short excerpt (OpenEventKit.docc/ICalendarFiles.md, "Limits").
@Suite struct ICalendarLimitsTests {
  /// What a body run on another thread gave back; the semaphore orders the two threads.
  private final class Outcome<Value>: @unchecked Sendable {
    var value: Value?
  }

  /// Runs `body` on a thread with a 512 KiB stack, where a recursion one frame per level of
  /// a tree 100,000 deep overflows, and returns its result.
  static func onSmallStack<Value>(_ body: @escaping @Sendable () -> Value) -> Value {
    let outcome = Outcome<Value>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      outcome.value = body()
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return outcome.value!
  }

  static func nested(_ depth: Int) -> String {
    "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X-A\r\n", count: depth)
      + String(repeating: "END:X-A\r\n", count: depth) + "END:VCALENDAR\r\n"
  }

  @Test func deepNestingIsRefusedWithItsLine() {
    let text = Self.nested(100_000)
    let clock = ContinuousClock()
    let began = clock.now
    let error = Self.onSmallStack { () -> ICalendarParseError? in
      do throws(ICalendarParseError) {
        _ = try ICalendarDocument(parsing: text)
        return nil
      } catch {
        return error
      }
    }
    // VCALENDAR is level 1 and the BEGIN on line k opens level k: line 101 is one too many.
    #expect(
      error?.description
        == "line 101: BEGIN:X-A nests components deeper than 100 levels, the most a file may have")
    #expect(clock.now - began < .seconds(10))
    // 100 levels are read.
    let document = try? ICalendarDocument(parsing: Self.nested(ICalendarDocument.maximumDepth - 1))
    var depth = 0
    var component = document?.calendars.first
    while let current = component {
      depth += 1
      component = current.components.first
    }
    #expect(depth == 100)
  }

  @Test func aTreeOfAnyDepthIsReleasedWithoutRecursion() {
    // Built in code, where no parser limits the depth, and dropped on a small stack.
    let depth = Self.onSmallStack { () -> Int in
      var tree = ICalendarComponent(name: "X-A")
      for _ in 1..<100_000 { tree = ICalendarComponent(name: "X-A", components: [tree]) }
      var depth = 0
      var component: ICalendarComponent? = tree
      while let current = component {
        depth += 1
        component = current.components.first
      }
      return depth
    }
    #expect(depth == 100_000)
  }

  @Test func componentsAreValuesCopiedOnWrite() throws {
    let original = ICalendarComponent(
      name: "vevent", properties: [ICalendarProperty(name: "SUMMARY", value: "Lunch")],
      components: [ICalendarComponent(name: "VALARM")], line: 3)
    var copy = original
    copy.name = "VTODO"
    copy.properties[0].value = "Dinner"
    copy.components[0].append(ICalendarProperty(name: "ACTION", value: "DISPLAY"))
    copy.line = 4
    #expect(original.name == "VEVENT")
    #expect(original.property("SUMMARY")?.value == "Lunch")
    #expect(original.components[0].properties.isEmpty)
    #expect(original.line == 3)
    #expect(copy.property("SUMMARY")?.value == "Dinner")
    #expect(copy.components[0].property("ACTION")?.value == "DISPLAY")
    #expect(copy != original)
    copy = original
    #expect(copy == original)
  }

  @Test func aContentLineLongerThanTheLimitIsRefused() {
    let limit = ICalendarDocument.maximumLineLength
    // Folded, as a producer writes it: the limit counts the unfolded line.
    var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:"
    text += String(repeating: String(repeating: "x", count: 74) + "\r\n ", count: limit / 74 + 1)
    text += "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    #expect {
      _ = try ICalendarDocument(parsing: text)
    } throws: { error in
      (error as? ICalendarParseError)?.description
        == "line 3: DESCRIPTION: the content line is longer than 8 MiB (8388608 bytes) once"
        + " unfolded, the most this reader accepts"
    }
    // One line of exactly the limit is read.
    let value = String(repeating: "y", count: limit - "DESCRIPTION:".utf8.count)
    let longest = try? ICalendarDocument(
      parsing: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:\(value)\r\nEND:VEVENT\r\n"
        + "END:VCALENDAR\r\n")
    #expect(
      longest?.calendars[0].components[0].property("DESCRIPTION")?.value.utf8.count
        == value.utf8.count)
  }

  @Test func aNulIsRefusedNamingItsPropertyAndLine() {
    let text =
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Lunch\u{0} with Ann\r\nEND:VEVENT\r\n"
      + "END:VCALENDAR\r\n"
    #expect {
      _ = try ICalendarDocument(parsing: text)
    } throws: { error in
      (error as? ICalendarParseError)?.description
        == "line 3: SUMMARY: the line holds a NUL character (U+0000): iCalendar allows no"
        + " control characters there, and the text after it would be lost"
    }
    // A UTF-16 file is all NULs between ASCII letters: the error says what it is.
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in "BEGIN:VCALENDAR\r\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect {
      _ = try ICalendarDocument(parsing: utf16)
    } throws: { error in
      (error as? ICalendarParseError)?.description.contains("save it as UTF-8") == true
    }
  }

  @Test func linesEndingInCarriageReturnAloneAreRead() throws {
    // Classic Mac OS: a file with no LF at all, 20,000 events, about 2.5 MB.
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
    for index in 0..<20_000 {
      lines += [
        "BEGIN:VEVENT", "UID:e\(index)@example.org", "DTSTART:20250301T090000",
        "SUMMARY:Event \(index) with a title", " folded in two", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    let document = try ICalendarDocument(parsing: lines.joined(separator: "\r") + "\r")
    let events = document.calendars[0].components
    #expect(events.count == 20_000)
    #expect(events[19_999].property("SUMMARY")?.value == "Event 19999 with a titlefolded in two")
    #expect(events[19_999].property("SUMMARY")?.line == 2 + 19_999 * 6 + 4)
    // Errors count the lines as the CRs end them.
    #expect {
      _ = try ICalendarDocument(parsing: "BEGIN:VCALENDAR\rVERSION:2.0\rEND:VEVENT\r")
    } throws: { error in
      (error as? ICalendarParseError)?.line == 3
    }
  }

  /// Every way a value can be wrong, with a value of 100,000 characters: the message quotes
  /// 80 at most.
  @Test(arguments: [
    "DTSTART:#", "DTSTART;VALUE=DATE:20250301T#", "DURATION:P#", "SEQUENCE:#",
    "DTSTART;TZID=#:20250301T090000", "RRULE:FREQ=#", "RRULE:FREQ=DAILY;COUNT=9#",
    "RRULE:FREQ=DAILY;#", "RRULE:FREQ=DAILY;X-#=1", "RRULE:FREQ=DAILY;UNTIL=#",
    "RRULE:FREQ=DAILY;WKST=#", "RRULE:FREQ=DAILY;BYDAY=#", "RRULE:FREQ=DAILY;BYMONTH=1,#",
    "RRULE:FREQ=DAILY;BYMONTH=,#", "RDATE;VALUE=PERIOD:20250301T090000/#",
  ])
  func aLongBadValueIsQuotedShort(line: String) throws {
    let long = String(repeating: "9", count: 100_000)
    let text = line.replacingOccurrences(of: "#", with: long)
    let document = try ICalendarDocument(
      parsing: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n\(text)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    let property = try #require(document.calendars.first?.components.first?.properties.first)
    var zones = TimeZoneResolver(calendar: ICalendarComponent(name: "VCALENDAR"))
    do {
      switch property.name {
      case "DURATION": _ = try property.durationValue()
      case "SEQUENCE": _ = try property.integerValue(in: 0...10)
      case "RRULE": _ = try property.recurrenceRuleValue()
      case "RDATE": _ = try property.recurrenceDates(zones: &zones)
      default: _ = try property.dateTimeValue(zones: &zones)
      }
      Issue.record("no error")
    } catch {
      #expect(error.line == 3)
      #expect(error.description.count < 300, "\(error.description.prefix(300))")
      #expect(error.description.contains("9999…"), "\(error.description.prefix(300))")
    }
  }

  /// The same for the file's structure: names and lines of 100,000 characters.
  @Test(arguments: [
    "BEGIN:#\r\n", "BEGIN:VCALENDAR\r\nEND:#\r\n", "X-#:value\r\n", "BEGIN:VCALENDAR\r\nX-#\r\n",
    "BEGIN:VCALENDAR\r\n;#\r\n", "BEGIN:VCALENDAR\r\nX-A;#\r\n", "BEGIN:VCALENDAR\r\nBEGIN:#\r\n",
  ])
  func aLongBadNameIsQuotedShort(text: String) {
    let long = String(repeating: "Z", count: 100_000)
    do {
      _ = try ICalendarDocument(parsing: text.replacingOccurrences(of: "#", with: long))
      Issue.record("no error")
    } catch {
      #expect(error.description.count < 300, "\(error.description.prefix(300))")
      #expect(error.description.contains("ZZZZ…"), "\(error.description.prefix(300))")
    }
  }

  @Test func anExcerptIsShortAndOnOneLine() {
    #expect(ICalendarText.excerpt("short") == "short")
    #expect(
      ICalendarText.excerpt(String(repeating: "é", count: 81)) == String(repeating: "é", count: 80)
        + "…")
    #expect(ICalendarText.excerpt("a\rb\nc\td\u{0}e\u{1B}") == #"a\rb\nc\td\u{0}e\u{1B}"#)
  }
}
