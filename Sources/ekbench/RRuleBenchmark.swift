import ArgumentParser
import Foundation
import ICalendar

/// `ekbench rrule`: instances per second of the recurrence engine on the reference rules,
/// beside Foundation's `Calendar.RecurrenceRule` doing the same expansion in this process, and
/// the time of a one-week window query far from DTSTART.
struct RRuleBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rrule",
    abstract: "Time recurrence expansion on the reference rules (best of five runs).")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Instances Foundation expands per rule (it is slow; keep the run short).")
  var foundationInstances = 20_000

  struct Reference {
    var rule: String
    var instances: Int
  }

  static let references = [
    Reference(rule: "FREQ=DAILY", instances: 1_000_000),
    Reference(rule: "FREQ=WEEKLY;BYDAY=MO,WE,FR", instances: 1_000_000),
    Reference(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", instances: 100_000),
    Reference(rule: "FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU", instances: 100_000),
    Reference(rule: "FREQ=MONTHLY;BYMONTHDAY=-1", instances: 100_000),
  ]

  static let tzid = "America/New_York"

  func run() throws {
    let start = DateTimeValue.zoned(
      CivilDateTime(year: 2000, month: 1, day: 3, hour: 9)!, tzid: Self.tzid)
    if !json {
      print(
        "rule                                             instances     per second  Foundation/s   ratio"
      )
    }
    for reference in Self.references {
      let rule = try RecurrenceRule(parsing: reference.rule)
      let set = RecurrenceSet(start: start, rules: [rule])
      var produced = 0
      let seconds = try bestOfFive {
        produced = 0
        var checksum = 0.0
        for occurrence in try set.occurrences() {
          checksum += occurrence.date.timeIntervalSince1970
          produced += 1
          if produced == reference.instances { break }
        }
        blackHole(checksum)
      }
      let perSecond = Double(produced) / seconds
      let foundation = try FoundationRecurrence.perSecond(
        rule: rule, instances: min(foundationInstances, produced))
      if json {
        print(
          #"{"rule": "\#(reference.rule)", "tzid": "\#(Self.tzid)", "instances": \#(produced), "#
            + #""perSecond": \#(Int(perSecond)), "foundationPerSecond": \#(Int(foundation))}"#)
      } else {
        print(
          reference.rule.padding(toLength: 48, withPad: " ", startingAt: 0)
            + pad(produced, 10) + pad(Int(perSecond), 15) + pad(Int(foundation), 14)
            + pad(Int(perSecond / foundation), 7) + "×")
      }
    }
    try windowQueries()
  }

  /// One week of a year far from a 1990 daily rule's DTSTART, as the store asks it.
  private func windowQueries() throws {
    let set = RecurrenceSet(
      start: .zoned(CivilDateTime(year: 1990, month: 1, day: 1, hour: 9)!, tzid: Self.tzid),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
    for year in [2030, 2100, 3000, 9000] {
      let from = try DateTimeValue.zoned(
        CivilDateTime(year: year, month: 3, day: 1)!, tzid: Self.tzid
      ).secondsSinceEpoch()
      let repetitions = 20_000
      var found = 0
      let seconds = try bestOfFive {
        found = 0
        for _ in 0..<repetitions {
          for _ in try set.occurrences(from: from, to: from + 7 * 86_400) { found += 1 }
        }
      }
      let micros = seconds / Double(repetitions) * 1_000_000
      if json {
        print(#"{"rule": "window", "year": \#(year), "micros": \#(round(micros * 100) / 100)}"#)
      } else {
        print(
          "window: one week of \(year) from a 1990 daily rule: "
            + "\(String(format: "%.2f", micros)) µs (\(found / repetitions) instances)")
      }
    }
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
