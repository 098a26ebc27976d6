import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl alarms`: when the store's alarms fire, the agent that delivers them, and snoozing
/// and dismissing them (OpenEventKit.docc/Alarms.md).
struct AlarmsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "alarms",
    abstract: "List, deliver, snooze and dismiss the alarms of your calendars and reminders.",
    subcommands: [AlarmsListCommand.self, AlarmsSnoozeCommand.self, AlarmsDismissCommand.self],
    defaultSubcommand: AlarmsListCommand.self)
}

/// `ekctl alarms [list]`: the firings of a window, or with `--watch` the agent.
struct AlarmsListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the alarms that fire in a window, or deliver them as they fire (--watch).",
    discussion: """
      Each line is one firing: when it fires (on your clock), the event or reminder, its \
      calendar, the alarm in words, and the firing's identifier. A repeating event's relative \
      alarm fires for each occurrence (a detached occurrence by its own time, a removed one \
      not at all); a reminder's fires from its due date, and not once it is completed; an \
      absolute alarm fires once. The window is [--from, --to): from now to seven days later \
      unless given; --now DATE acts as if it were DATE (for the agent too, whose clock then \
      starts at DATE and runs on). Location alarms need your position, which OpenEventKit does not have: \
      they never fire, and are listed after the others as such.

      The firings are printed as they are found, so a window of any length takes little \
      memory. An alarm that fires more than \(AlarmsListCommand.listedPerAlarm) times in the \
      window (an event repeating every minute, say) has its first \
      \(AlarmsListCommand.listedPerAlarm) listed and the rest counted in one line after the \
      others ("… 604700 more firings of …, every second, from … to …"); --all lists every one.

      With --json each firing is one JSON object per line, in firing order, its times in UTC \
      with Z: every firing, never counted in a line; then each location alarm, with \
      "trigger":"location" and no fireDate.

      With --watch, ekctl is the agent that delivers alarms: it sleeps until the next one \
      fires, wakes when any app changes the store, and delivers each firing once — a line on \
      standard output ("alarm", "snoozed" or "missed" first; with --json an object with \
      "delivery"), a desktop notification when there is a session bus (its Show action \
      notifies with what `ekctl show` says of the item; --no-notify for none), and with \
      --exec CMD, CMD run by sh with the firing as JSON on its standard \
      input (at most --exec-jobs at once, 4 by default; the others wait their turn, and one \
      that starts a second or more late says so on standard error). A firing missed while no agent ran (the machine was off or asleep) is delivered \
      when it is at most --grace minutes old, and told as missed otherwise: the first \
      \(AlarmLedger.missedListed) of each alarm, then one line with how many more. What was \
      delivered is recorded in Alarms.sqlite beside the store, so no agent delivers it twice. \
      SIGUSR1 makes it look again at once.

      Examples:
        ekctl alarms --from 2025-03-01 --to 2025-03-08 --json
        ekctl alarms --watch --exec 'jq -r .title | espeak'
      """)

  @OptionGroup var store: StoreOptions

  @Option(help: "The start of the window (default: now).")
  var from: DateArgument?

  @Option(help: "The end of the window, exclusive (default: seven days after the start).")
  var to: DateArgument?

  @Option(help: "Only alarms of the calendar or reminder list with this title.")
  var calendar: String?

  @Flag(help: "Print JSON Lines.")
  var json = false

  @Flag(
    help: ArgumentHelp(
      "List every firing; without it, an alarm's firings past the first "
        + "\(AlarmsListCommand.listedPerAlarm) are counted in one line."))
  var all = false

  @Flag(help: "Deliver each alarm as it fires, until stopped.")
  var watch = false

  @Option(
    help: ArgumentHelp(
      "With --watch, run CMD (by sh) for each firing, the firing as JSON on its standard input.",
      valueName: "CMD"))
  var exec: String?

  @Option(
    help: ArgumentHelp(
      "With --exec, how many of its commands may run at once; the others wait their turn "
        + "(default \(ExecRunner.defaultJobs)).", valueName: "N"))
  var execJobs: Int?

  @Flag(
    help: "With --watch, no desktop notifications (they go to the session bus when there is one).")
  var noNotify = false

  @Option(
    help: ArgumentHelp(
      "With --watch, how old (minutes) a firing missed while no agent ran may be and still "
        + "fire.", valueName: "minutes"))
  var grace: Int = 15

  @OptionGroup var time: CommandTime

  /// The window the options name.
  var window: (start: Date, end: Date) {
    let start = from?.date ?? (try? time.currentDate()) ?? Date()
    return (start, to?.date ?? start.addingTimeInterval(7 * 86_400))
  }

  func validate() throws {
    guard window.start < window.end else {
      throw ValidationError("--to must come after --from.")
    }
    guard !all || (!watch && !json) else {
      throw ValidationError("--all goes with a listing in text (--json lists every firing).")
    }
    guard grace >= 0 else { throw ValidationError("--grace must be 0 or more minutes.") }
    if let execJobs {
      guard exec != nil else { throw ValidationError("--exec-jobs goes with --exec.") }
      guard (1...64).contains(execJobs) else {
        throw ValidationError("--exec-jobs must be from 1 to 64.")
      }
    }
    if !watch {
      guard exec == nil, time.clock == nil, !noNotify else {
        throw ValidationError("--exec, --no-notify and --clock go with --watch.")
      }
    } else {
      guard from == nil, to == nil else {
        throw ValidationError(
          "--watch delivers alarms as they fire; --from and --to list a window.")
      }
    }
  }

  func run() throws {
    let store = try store.open()
    if watch {
      try AlarmWatch(store: store, options: self).run()
      return
    }
    let chosen = try calendar.map { try calendars(titled: $0, in: store) }
    // Streamed: each firing is printed as the store finds it, so that memory stays flat
    // however many fire in the window.
    let firings = store.alarmFiringSequence(
      from: window.start, to: window.end, calendars: chosen)
    if json {
      for firing in firings { print(AlarmText.jsonLine(firing)) }
      for item in store.locationAlarmItems(calendars: chosen) {
        print(AlarmText.jsonLine(locationAlarmOf: item))
      }
      return
    }
    var tally = AlarmFiringTally(listing: all ? Int.max : Self.listedPerAlarm)
    var none = true
    for firing in firings {
      none = false
      if tally.count(firing) { printInert(AlarmText.textLine(firing)) }
    }
    if none { print("No alarm fires in that window.") }
    for summary in tally.summaries { printInert(AlarmText.textLine(summary)) }
    let located = store.locationAlarmItems(calendars: chosen)
    guard !located.isEmpty else { return }
    print("")
    print(
      "Location alarms, which fire on arriving or leaving: OpenEventKit has no position, so "
        + "these never fire:")
    for item in located { printInert(AlarmText.textLine(locationAlarmOf: item)) }
  }

  /// How many firings of one alarm the listing prints before it counts the rest in one line
  /// (unless `--all`): a week of an alarm every two hours, a season of a daily one.
  static let listedPerAlarm = 100
}

/// `ekctl alarms snooze ID [MINUTES]`.
struct AlarmsSnoozeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snooze",
    abstract: "Deliver a firing again some minutes from now.",
    discussion: """
      ID is a firing's identifier, as `ekctl alarms` and the agent print it; the firing must \
      fire within a week before or after now. Every agent (`ekctl alarms --watch`) delivers \
      it again then, once.
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var chosen: ChosenFiring

  @Argument(help: "How many minutes from now (10 unless given).")
  var minutes: Int = 10

  func validate() throws {
    guard minutes > 0 else { throw ValidationError("MINUTES must be 1 or more.") }
  }

  func run() throws {
    let store = try store.open()
    let (firing, now) = try chosen.firing(in: store)
    let until = now.addingTimeInterval(TimeInterval(minutes * 60))
    try failing { try AlarmLedger(for: store).snooze(firing, until: until, at: now) }
    printInert("Snoozed \"\(firing.title)\" until \(OccurrenceText.local(until)).")
  }
}

/// `ekctl alarms dismiss ID`.
struct AlarmsDismissCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dismiss",
    abstract: "Never deliver a firing (again), whether it has fired yet or not.",
    discussion: """
      ID is a firing's identifier, as `ekctl alarms` and the agent print it; the firing must \
      fire within a week before or after now.
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var chosen: ChosenFiring

  func run() throws {
    let store = try store.open()
    let (firing, now) = try chosen.firing(in: store)
    try failing { try AlarmLedger(for: store).dismiss(firing, at: now) }
    printInert("Dismissed \"\(firing.title)\" of \(OccurrenceText.local(firing.fireDate)).")
  }
}

/// The firing `snooze` and `dismiss` act on, by its identifier, and the time they act at.
struct ChosenFiring: ParsableArguments {
  @Argument(help: "The firing's identifier.")
  var id: String

  @OptionGroup var time: CommandTime

  /// The firing, and now (`--now` or the clock file's time when given).
  func firing(in store: EKEventStore) throws -> (AlarmFiring, Date) {
    let now = try time.currentDate()
    return (try AlarmWatch.firing(id, in: store, now: now), now)
  }
}

/// What time `ekctl alarms` takes it to be: the system's unless `--now` or `--clock` says
/// otherwise, so that a person can try what the agent would do at another moment and a test
/// can move the agent's time without waiting for real minutes.
struct CommandTime: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Act as if it were DATE; with --watch, the agent's clock starts there and runs on.",
      valueName: "DATE"))
  var now: DateArgument?

  @Option(
    help: ArgumentHelp(
      "Read the time from FILE (an ISO 8601 date) at each use instead of the system clock: for "
        + "tests, which rewrite it to move the agent's time.", valueName: "FILE",
      visibility: .hidden))
  var clock: String?

  func validate() throws {
    guard now == nil || clock == nil else {
      throw ValidationError("--now and --clock each set the time; give one of them.")
    }
  }

  /// The time now, as the options say: `--now`'s date itself (a clock started there has
  /// already moved on by the time it is read); a clock file that does not hold a date is an
  /// error.
  func currentDate() throws -> Date { try now?.date ?? reader().now }

  /// The clock the options name; a clock file that does not hold a date is an error.
  func reader() throws -> CommandClock {
    if let clock { return .file(try FileClock(clock)) }
    if let now { return .shifted(by: now.date.timeIntervalSince(Date())) }
    return .system
  }
}
