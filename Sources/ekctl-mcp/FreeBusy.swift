import Foundation
import MCP
import OpenEventKit

/// free_busy: the busy stretches between two times over some calendars, merged, and the
/// free slots between them.
///
/// What blocks is what the person marked so: an event whose availability is free does not,
/// nor a cancelled one; a tentative one does, and its stretch says so. An all-day event
/// blocks its whole days, midnight to midnight on the call's clock (`timeZone`, else the
/// server's), since its days are floating ones: a holiday is a day wherever one is.
extension CalendarTools {
  struct Stretch {
    var start: Date
    var end: Date
    var tentative: Bool
    var titles: [String]
  }

  func freeBusy(_ arguments: ToolArguments) throws -> Value {
    let zone = try arguments.zone()
    let start = try arguments.requiredInstant("start", zone: zone)
    let end = try arguments.requiredInstant("end", zone: zone)
    let minimum = try arguments.int("minimumMinutes", in: 1...100_000)
    let names = try arguments.strings("calendars")
    guard start < end else { throw MCPError.invalidParams("free_busy: end must come after start") }
    let chosen = try calendars(names, for: .event)
    let clock = zone ?? .current
    let predicate = store.predicateForEvents(withStart: start, end: end, calendars: chosen)
    var blocks: [Stretch] = []
    store.enumerateEvents(matching: predicate) { event, _ in
      guard event.availability != .free, event.status != .canceled else { return }
      var from = event.startDate!
      var to = event.endDate!
      if event.isAllDay {
        let days = Times.gregorian(clock)
        let first = Times.gregorian(.current).dateComponents([.year, .month, .day], from: from)
        let last = Times.gregorian(.current).dateComponents([.year, .month, .day], from: to)
        from = days.date(from: first) ?? from
        to = days.date(from: last).flatMap { days.date(byAdding: .day, value: 1, to: $0) } ?? to
      }
      from = max(from, start)
      to = min(to, end)
      guard from < to else { return }
      blocks.append(
        Stretch(
          start: from, end: to, tentative: event.availability == .tentative,
          titles: [event.title ?? ""]))
    }
    blocks.sort { $0.start < $1.start }
    // Overlapping or touching stretches become one; tentative only if all of it is.
    var busy: [Stretch] = []
    for block in blocks {
      if var last = busy.last, block.start <= last.end {
        last.end = max(last.end, block.end)
        last.tentative = last.tentative && block.tentative
        last.titles.append(contentsOf: block.titles)
        busy[busy.count - 1] = last
      } else {
        busy.append(block)
      }
    }
    var free: [(Date, Date)] = []
    var cursor = start
    for stretch in busy {
      if stretch.start > cursor { free.append((cursor, stretch.start)) }
      cursor = max(cursor, stretch.end)
    }
    if cursor < end { free.append((cursor, end)) }
    let slots = free.filter {
      minimum == nil || $0.1.timeIntervalSince($0.0) >= Double(minimum! * 60)
    }
    return [
      "busy": .array(
        busy.map { stretch in
          [
            "start": .string(Times.text(stretch.start, in: clock)),
            "end": .string(Times.text(stretch.end, in: clock)),
            "tentative": .bool(stretch.tentative),
            "events": .array(stretch.titles.map { .string($0) }),
          ]
        }),
      "free": .array(
        slots.map { slot in
          [
            "start": .string(Times.text(slot.0, in: clock)),
            "end": .string(Times.text(slot.1, in: clock)),
            "minutes": .int(Int(slot.1.timeIntervalSince(slot.0) / 60)),
          ]
        }),
    ]
  }
}
