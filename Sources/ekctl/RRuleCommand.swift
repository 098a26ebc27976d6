import ArgumentParser
import Foundation
import ICalendar
import REPLKit

/// `ekctl rrule`: print the instances of a recurrence rule.
struct RRuleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rrule",
    abstract: "Print the instances of an RFC 5545 recurrence rule, one per line.",
    discussion: """
      Each instance's start is printed on DTSTART's wall clock, as YYYYMMDDTHHMMSS \
      (YYYYMMDD when DTSTART is a date), in order. DTSTART is always the first instance.

      Examples:
        ekctl rrule --dtstart 20250901T090000 --tzid Europe/Paris \\
          'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6'
        ekctl rrule --dtstart 20240131 'FREQ=MONTHLY;BYMONTHDAY=-1' --limit 12
        ekctl rrule --dtstart 19900101T090000 \\
          --from 20300101T000000 --to 20300108T000000 'FREQ=DAILY'

      With --batch, each line of standard input is one case in JSON,
        {"dtstart": "19970902T090000", "tzid": "America/New_York",
         "rule": "FREQ=DAILY", "limit": 5, "from": "…", "to": "…"}
      (tzid, limit, from and to are optional), and each is answered, in order, by \
      exactly one line: {"occurrences": […]} or {"error": "…"}.
      """)

  @Option(
    help: "The first instance: YYYYMMDDTHHMMSS (floating or in --tzid), …Z for UTC, or YYYYMMDD.")
  var dtstart: String?

  @Option(help: "The tz database zone of DTSTART, such as America/New_York.")
  var tzid: String?

  @Option(help: "Print at most this many instances.")
  var limit: Int = 1000

  @Option(help: "Print only instances starting at or after this time (same form as DTSTART).")
  var from: String?

  @Option(help: "Print only instances starting before this time (same form as DTSTART).")
  var to: String?

  @Option(help: "Extra instances (RDATE), comma-separated DATE, DATE-TIME or PERIOD values.")
  var rdate: String?

  @Option(help: "Excluded instances (EXDATE), comma-separated DATE or DATE-TIME values.")
  var exdate: String?

  @Flag(help: "Read cases as JSON Lines on standard input and answer each with one JSON line.")
  var batch = false

  @Argument(help: "The rule(s), such as 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10'.")
  var rules: [String] = []

  /// ekctl, whose own `--db` (written before or after `rrule`) this command must refuse: it
  /// reads no store, and an option it would ignore is a mistake to say.
  @ParentCommand var ekctl: Ekctl

  func validate() throws {
    guard ekctl.store.database == nil else {
      throw ValidationError("rrule reads no calendar database: --db is not one of its options.")
    }
  }

  func run() throws {
    if batch {
      RRuleBatch.run()
      return
    }
    let request = RRuleRequest(
      dtstart: dtstart ?? "", tzid: tzid, rules: rules, limit: limit, from: from, to: to,
      rdates: rdate, exdates: exdate)
    do {
      let lines = try request.instances()
      var output = ""
      for line in lines {
        output += line
        output += "\n"
        if output.utf8.count > 1 << 16 {
          FileHandle.standardOutput.write(Data(output.utf8))
          output = ""
        }
      }
      FileHandle.standardOutput.write(Data(output.utf8))
    } catch {
      // The message quotes the rule given: inert on the terminal.
      let message = InertText.keepingLineBreaks(error.message)
      FileHandle.standardError.write(Data("ekctl rrule: \(message)\n".utf8))
      throw ExitCode.failure
    }
  }
}
