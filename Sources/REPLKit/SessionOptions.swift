import ArgumentParser
import Foundation
import OpenEventKitPaths

/// What every sample accepts on its command line and from its environment: `--now` fixes the
/// clock for a reproducible session, and `OPENEVENTKIT_HOME` keeps the calendar store and the
/// app's own data in one folder (tests and demos use a temporary one).
///
/// ```swift
/// let options = SessionOptions.forThisProcess(app: "loans", errors: .standardError)
/// // loans --now 2025-03-01T09:00Z: options.now is 2025-03-01 09:00 UTC
/// let console = Console.standard(app: "loans", options: options)
/// ```
///
/// A program that takes options of its own declares them with swift-argument-parser and
/// reads them with the session's in one parse,
/// ``forThisProcess(app:about:arguments:errors:)``.
public struct SessionOptions: Sendable {
  /// The fixed time given with `--now`, or nil for the real clock.
  public var now: Date?
  /// `OPENEVENTKIT_HOME`, when set.
  public var home: URL?

  /// Options given directly, as a test or another front end would.
  ///
  /// ```swift
  /// let options = SessionOptions(
  ///   now: Date(timeIntervalSince1970: 1_740_988_800),  // 2025-03-03 08:00 UTC
  ///   home: FileManager.default.temporaryDirectory.appendingPathComponent("demo"))
  /// print(options.clock())  // 2025-03-03 08:00:00 +0000, however long the session runs
  /// ```
  ///
  /// - Parameters:
  ///   - now: The fixed current time, or nil (the default) for the real clock.
  ///   - home: The folder `OPENEVENTKIT_HOME` would name, or nil (the default).
  public init(now: Date? = nil, home: URL? = nil) {
    self.now = now
    self.home = home
  }

  /// The options of a command line's ``SessionArguments`` and an environment.
  ///
  /// ```swift
  /// let named = NamedArguments(SessionArguments.self, name: "loans", abstract: "Loans.")
  /// let options = SessionOptions(
  ///   try named.parse(["--now", "2025-03-01T09:00Z"]),
  ///   environment: ["OPENEVENTKIT_HOME": "/tmp/oek"])
  /// print(options.now as Any)  // Optional(2025-03-01 09:00:00 +0000)
  /// print(options.home?.path ?? "")  // /tmp/oek
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The session's options as read from the command line.
  ///   - environment: Where `OPENEVENTKIT_HOME` is read (an empty value counts as unset);
  ///     the process's environment by default.
  public init(
    _ arguments: SessionArguments,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    now = arguments.now
    if let home = environment["OPENEVENTKIT_HOME"], !home.isEmpty {
      self.home = URL(fileURLWithPath: home, isDirectory: true)
    }
  }

  /// This process's options, from its command line and environment, for a program with no
  /// options but the session's; see ``forThisProcess(app:about:arguments:errors:)``.
  ///
  /// ```swift
  /// let options = SessionOptions.forThisProcess(app: "loan-scheduler", errors: .standardError)
  /// // loan-scheduler --now tomorrow
  /// // Error: The value 'tomorrow' is invalid for '--now <iso-date-time>': …
  /// ```
  ///
  /// - Parameters:
  ///   - app: The program's name, in its usage and help.
  ///   - errors: Where a refusal is said.
  /// - Returns: The options; it does not return on `--help` or a refusal.
  public static func forThisProcess(app: String, errors: FileHandle) -> SessionOptions {
    forThisProcess(app: app, about: "", arguments: NoArguments.self, errors: errors).session
  }

  /// This process's options and the program's own, read from its command line in one
  /// parse by swift-argument-parser, as ekctl reads its own: `--help` prints the help on
  /// standard output and exits with status 0; a refusal prints ArgumentParser's `Error: …`
  /// and usage on `errors` and exits with its status (64), as ekctl does.
  ///
  /// ```swift
  /// import ArgumentParser
  ///
  /// struct PlayerOption: ParsableArguments {
  ///   @Option(help: "Who plays.") var player: String?
  /// }
  /// let (options, own) = SessionOptions.forThisProcess(
  ///   app: "poker-vote", about: "Votes on poker night.", arguments: PlayerOption.self,
  ///   errors: .standardError)
  /// print(options.now as Any, own.player ?? "no player")
  /// ```
  ///
  /// - Parameters:
  ///   - app: The program's name, in its usage and help.
  ///   - about: What the program does: the help's `OVERVIEW:`.
  ///   - arguments: The program's own options, declared with ArgumentParser.
  ///   - errors: Where a refusal is said: the program's standard error, as a rule.
  /// - Returns: The session's options and the program's; it does not return on `--help` or
  ///   a refusal.
  public static func forThisProcess<Arguments: ParsableArguments>(
    app: String, about: String, arguments: Arguments.Type, errors: FileHandle
  ) -> (session: SessionOptions, own: Arguments) {
    let named = NamedArguments(ProgramArguments<Arguments>.self, name: app, abstract: about)
    do {
      let parsed = try named.parse(Array(CommandLine.arguments.dropFirst()))
      return (SessionOptions(parsed.session), parsed.own)
    } catch {
      if error.isHelp {
        FileHandle.standardOutput.write(Data((error.text + "\n").utf8))
      } else {
        errors.write(Data((InertText.keepingLineBreaks(error.text) + "\n").utf8))
      }
      exit(error.exitCode)
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

/// The options every session takes on its command line: `--now`.
///
/// ```swift
/// import ArgumentParser
///
/// struct Options: ParsableArguments {
///   @OptionGroup var session: SessionArguments
/// }
/// let options = try Options.parse(["--now", "2025-03-01T09:00Z"])
/// print(options.session.now as Any)  // Optional(2025-03-01 09:00:00 +0000)
/// ```
public struct SessionArguments: ParsableArguments {
  /// The fixed time of `--now`: an ISO 8601 date-time, read on this process's clock (`TZ`)
  /// when it has neither `Z` nor an offset.
  @Option(
    help: ArgumentHelp(
      "A fixed time for the session's clock, such as 2025-03-01T09:00 or 2025-03-01T09:00Z.",
      valueName: "iso-date-time"),
    transform: { text in
      guard let date = DateReading.instant(text, in: .current) else {
        throw ValidationError("give a date and time such as 2025-03-01T09:00")
      }
      return date
    })
  public var now: Date?

  public init() {}
}

/// A program's command line: the session's options and the program's own.
struct ProgramArguments<Own: ParsableArguments>: ParsableArguments {
  @OptionGroup var session: SessionArguments
  @OptionGroup var own: Own
}
