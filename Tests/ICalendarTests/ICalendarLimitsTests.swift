import Dispatch
import Foundation
import ICalendar
import Testing

/// Files built to crash the reader: components nested without end, refused with an
/// ``ICalendarParseError`` in bounded time and stack (docs/ICalendar.md, "Limits").
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
}
