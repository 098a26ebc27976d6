import Foundation
import OpenEventKitPaths

/// What every sample accepts on its command line and from its environment: `--now` fixes the
/// clock for a reproducible session, and `OPENEVENTKIT_HOME` keeps the calendar store and the
/// app's own data in one folder (tests and demos use a temporary one).
///
/// ```swift
/// let options = try SessionOptions.parse(
///   ["--now", "2025-03-01T09:00Z", "--player", "Ann"], environment: [:])
/// // options.now: 2025-03-01 09:00 UTC; options.arguments == ["--player", "Ann"]
/// let console = Console.standard(app: "poker-vote", options: options)
/// ```
///
/// A program usually calls ``forThisProcess(app:errors:)``, which ends it with status 2 on a
/// bad option.
public struct SessionOptions: Sendable {
  /// The fixed time given with `--now`, or nil for the real clock.
  public var now: Date?
  /// `OPENEVENTKIT_HOME`, when set.
  public var home: URL?
  /// Whether `--help` or `-h` was given.
  public var wantsHelp = false
  /// The arguments that are not the session's own, for the app to read.
  public var arguments: [String] = []

  /// Options given directly, as a test or another front end would; no arguments left over
  /// and no help asked for.
  ///
  /// ```swift
  /// let options = SessionOptions(
  ///   now: Date(timeIntervalSince1970: 1_740_988_800),  // 2025-03-03 08:00 UTC
  ///   home: FileManager.default.temporaryDirectory.appendingPathComponent("demo"))
  /// print(options.clock())  // 2025-03-03 08:00:00 +0000, however long the session runs
  /// print(options.arguments, options.wantsHelp)  // [] false
  /// ```
  ///
  /// - Parameters:
  ///   - now: The fixed current time, or nil (the default) for the real clock.
  ///   - home: The folder `OPENEVENTKIT_HOME` would name, or nil (the default).
  public init(now: Date? = nil, home: URL? = nil) {
    self.now = now
    self.home = home
  }

  /// Reads `--now <ISO date-time>` (or `--now=…`) and `--help` out of `arguments` (without the
  /// program name); the rest is left in ``arguments``. A date with neither `Z` nor an offset is
  /// read on this process's clock (`TZ`).
  ///
  /// `--now` may be given more than once: the last one counts. Every other word, in order,
  /// goes to ``arguments``, even one that starts with `--`: the app decides what it takes.
  ///
  /// ```swift
  /// let options = try SessionOptions.parse(
  ///   ["--now=2025-03-01T09:00Z", "--verbose", "-h"],
  ///   environment: ["OPENEVENTKIT_HOME": "/tmp/oek"])
  /// print(options.now as Any)  // Optional(2025-03-01 09:00:00 +0000)
  /// print(options.arguments, options.wantsHelp)  // ["--verbose"] true
  /// print(options.home?.path ?? "")  // /tmp/oek
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The command line's arguments, without the program name.
  ///   - environment: Where `OPENEVENTKIT_HOME` is read (an empty value counts as unset);
  ///     the process's environment by default.
  /// - Returns: The options read.
  /// - Throws: ``REPLError`` when `--now` has no value or its value is not an ISO 8601
  ///   date-time (``DateReading/instant(_:in:)``).
  public static func parse(
    _ arguments: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(REPLError) -> SessionOptions {
    var options = SessionOptions()
    if let home = environment["OPENEVENTKIT_HOME"], !home.isEmpty {
      options.home = URL(fileURLWithPath: home, isDirectory: true)
    }
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--now" || argument.hasPrefix("--now=") {
        let value = argument == "--now" ? remaining.popFirst() : String(argument.dropFirst(6))
        guard let value, let date = DateReading.instant(value, in: .current) else {
          throw REPLError(
            "--now needs a date and time such as 2025-03-01T09:00 or 2025-03-01T09:00:00Z")
        }
        options.now = date
      } else if argument == "--help" || argument == "-h" {
        options.wantsHelp = true
      } else {
        options.arguments.append(argument)
      }
    }
    return options
  }

  /// This process's options, from its command line and environment; on a bad option, says
  /// so on `errors` (the program's standard error, as a rule) as `app: …` and exits with
  /// status 2, as command-line tools do.
  ///
  /// ```swift
  /// let options = SessionOptions.forThisProcess(app: "loan-scheduler", errors: .standardError)
  /// // loan-scheduler --now tomorrow
  /// // loan-scheduler: --now needs a date and time such as 2025-03-01T09:00 or …
  /// ```
  ///
  /// - Parameters:
  ///   - app: The program's name, said before the message.
  ///   - errors: Where a bad option is said.
  /// - Returns: The options of `CommandLine.arguments` and the process's environment; it does
  ///   not return on a bad option.
  public static func forThisProcess(app: String, errors: FileHandle) -> SessionOptions {
    do {
      return try parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      errors.write(Data("\(app): \(error)\n".utf8))
      exit(2)
    }
  }

  /// The session's clock: the fixed `--now` time, or the real one.
  public var clock: @Sendable () -> Date {
    if let now { return { now } }
    return { Date() }
  }

  /// The folder for an app's own data (its database): `$OPENEVENTKIT_HOME/<app>` when set,
  /// else `<app>` in the XDG data folder; OpenEventKit's `DataLocation` holds the rule.
  ///
  /// The folder is named, not made: whoever writes in it prepares it.
  ///
  /// ```swift
  /// let options = SessionOptions(home: URL(fileURLWithPath: "/tmp/oek", isDirectory: true))
  /// print(options.dataFolder(app: "loan-scheduler").path)  // /tmp/oek/loan-scheduler
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app's name, the folder's last component.
  ///   - environment: The environment the XDG folders are read from; ``home``, when set,
  ///     stands in for its `OPENEVENTKIT_HOME`. The process's environment by default.
  /// - Returns: The app's data folder.
  public func dataFolder(
    app: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    var environment = environment
    if let home { environment["OPENEVENTKIT_HOME"] = home.path }
    return DataLocation.appFolder(app, environment: environment)
  }
}
