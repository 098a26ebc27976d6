import Foundation
import GRDB
import OpenEventKit
import OpenEventKitPaths
import REPLKit

/// Who a sample app is, written once: its name (the executable's, and its data folder's), its
/// prompt, the options it takes and what it is for. The privacy identity (bundle identifier,
/// display name, usage descriptions) is the app's `Info.plist`, read by OpenEventKit.
///
/// ```swift
/// import OpenEventKitApp
/// import REPLKit
///
/// let app = AppInfo(
///   name: "loan-scheduler", prompt: "loans> ", database: "loans.sqlite",
///   about: "Lends money and puts every payment on your calendar.")
/// app.run(diagnostics: .standardError) { migrator in
///   migrator.registerMigration("loans") { db in
///     try db.create(table: "loan") { table in
///       table.autoIncrementedPrimaryKey("id")
///       table.column("contact", .text).notNull()
///     }
///   }
/// } commands: { session in
///   [
///     REPLCommand("loans", help: "Lists the loans.") { _ in
///       let contacts = try session.database.queue.read { db in
///         try String.fetchAll(db, sql: "SELECT contact FROM loan ORDER BY id")
///       }
///       session.console.print(contacts.joined(separator: "\n"))
///     }
///   ]
/// }
/// ```
///
/// `Samples/LoanScheduler/main.swift` is the same call with the sample's own migrations
/// (`LoanDatabase.registerMigrations`) and command table (`LoanCommands`).
///
/// <doc:WritingASample> builds a sample on it step by step.
public struct AppInfo: Sendable {
  /// The executable's name, which also names the app's data folder and its history.
  public let name: String
  /// The REPL's prompt, such as `loans> `.
  public let prompt: String
  /// The options after the name in the usage line. The kit reads `--now` and `--help`; an app
  /// that names others reads them with `run`'s `arguments`.
  public let options: String
  /// The app's own database file, in its data folder.
  public let database: String
  /// What the app does, for `--help`.
  public let about: String

  /// The app's identity.
  ///
  /// ```swift
  /// let app = AppInfo(
  ///   name: "poker-vote", prompt: "poker> ", options: "[--player NAME] [--now ISO-DATE-TIME]",
  ///   database: "poker.sqlite",
  ///   about: "Suggests times for poker night and votes on them in a shared \"Poker\" calendar.")
  /// ```
  ///
  /// - Parameters:
  ///   - name: The executable's name, such as `loan-scheduler`; it names the data folder and
  ///     the readline history, and starts every diagnostic.
  ///   - prompt: The REPL's prompt, with its trailing space.
  ///   - options: The options shown after the name in the usage line; `[--now ISO-DATE-TIME]`
  ///     by default. Shown only: the app reads its own with `run`'s `arguments`.
  ///   - database: The file name of the app's database in its data folder; nil (the default)
  ///     for `<name>.sqlite`.
  ///   - about: One or two sentences on what the app does, for `--help`.
  public init(
    name: String, prompt: String, options: String = "[--now ISO-DATE-TIME]",
    database: String? = nil, about: String
  ) {
    self.name = name
    self.prompt = prompt
    self.options = options
    self.database = database ?? "\(name).sqlite"
    self.about = about
  }

  /// `usage: loan-scheduler [--now ISO-DATE-TIME]`.
  public var usage: String { "usage: \(name) \(options)" }

  /// The app's own data folder: `$OPENEVENTKIT_HOME/<name>`, or `<name>` in the XDG data
  /// folder (OpenEventKit's `DataLocation`).
  ///
  /// ```swift
  /// let app = AppInfo(name: "recipe-reminders", prompt: "recipes> ", about: "Plans cooking.")
  /// print(app.dataFolder(environment: ["OPENEVENTKIT_HOME": "/tmp/demo"]).path)
  /// // /tmp/demo/recipe-reminders
  /// ```
  ///
  /// - Parameter environment: Where `OPENEVENTKIT_HOME` and `XDG_DATA_HOME` are read; the
  ///   process's environment by default.
  /// - Returns: The folder, named but not made (``AppDatabase`` makes it, private).
  public func dataFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    DataLocation.appFolder(name, environment: environment)
  }

  /// Runs the app, and exits with the REPL's status: reads `--now` and `--help`, hands the
  /// other arguments to `arguments` (which throws for one it does not take: the usage and
  /// the reason are said on `diagnostics`, status 2; by default every other argument is
  /// refused), opens the app's database with `migrations`, makes the session, and runs the
  /// REPL over `commands` with the session's hooks installed (``AppSession/install(on:)``).
  /// A database that cannot be opened is said on `diagnostics`, status 1.
  ///
  /// `diagnostics` is where the app says what goes wrong outside its REPL — the program's
  /// standard error, as a rule; the libraries' log records (swift-log) go there too, through
  /// REPLKit's `TerminalLogHandler` at the level `OPENEVENTKIT_LOG` names.
  ///
  /// `--help` prints the usage and ``about`` on standard output and exits with status 0.
  /// Before the REPL starts, work that a stopped run left half done is repaired where the
  /// app already has access (``AppSession/repairAtStart()``).
  ///
  /// ```swift
  /// var player = NSUserName()
  /// app.run(
  ///   diagnostics: .standardError,
  ///   arguments: { arguments in  // all but --now and --help: here, [--player NAME]
  ///     var rest = arguments[...]
  ///     while let argument = rest.popFirst() {
  ///       guard argument == "--player", let name = rest.popFirst() else {
  ///         throw REPLError("unknown argument '\(argument)'")
  ///       }
  ///       player = name
  ///     }
  ///   },
  ///   commands: { session in
  ///     [REPLCommand("player", help: "Says who is playing.") { [player] _ in
  ///       session.console.print(player)
  ///     }]
  ///   })
  /// ```
  ///
  /// `Samples/PokerVote/main.swift` reads `--player NAME` so, with the sample's `Player`.
  ///
  /// - Parameters:
  ///   - diagnostics: Where problems outside the REPL, and log records, are written:
  ///     `.standardError`, as a rule.
  ///   - migrations: Registers the app's own database migrations, in order (GRDB's
  ///     `DatabaseMigrator`); none by default.
  ///   - arguments: Reads the arguments that are not the session's own (`--now`, `--help`),
  ///     and throws, with a sentence, for one it does not take; ``noArguments(_:)`` by
  ///     default.
  ///   - commands: Makes the command table from the session, once; the kit adds `help` and
  ///     `quit`. An error it throws is said on `diagnostics` (`<name>: cannot start: …`),
  ///     status 1.
  /// - Returns: Never: the process exits, with the REPL's status (0, or 1 when a command
  ///   failed) or one of those above.
  public func run(
    diagnostics: FileHandle,
    migrations: (inout DatabaseMigrator) -> Void = { _ in },
    arguments: ([String]) throws -> Void = AppInfo.noArguments,
    commands: (AppSession) throws -> [REPLCommand]
  ) -> Never {
    TerminalLogHandler.bootstrap(program: name, output: diagnostics)
    let options = SessionOptions.forThisProcess(app: name, errors: diagnostics)
    if options.wantsHelp {
      FileHandle.standardOutput.write(
        Data(
          """
          \(usage)

          \(about) Type 'help' at its prompt for the commands. Its own data is kept in \
          $OPENEVENTKIT_HOME/\(name) (or the XDG data folder), the calendar in the store \
          every OpenEventKit app shares.

          """.utf8))
      exit(0)
    }
    do {
      try arguments(options.arguments)
    } catch {
      diagnostics.write(
        Data(
          "\(usage)\n\(name): \(InertText.keepingLineBreaks(ErrorText.of(error))) (--help says more)\n"
            .utf8))
      exit(2)
    }
    let console = Console.standard(app: name, options: options)
    let session: AppSession
    let table: [REPLCommand]
    do {
      let database = try AppDatabase(app: self, migrations: migrations)
      session = AppSession(app: self, console: console, database: database)
      table = try commands(session)
    } catch {
      let message = InertText.keepingLineBreaks(ErrorText.of(error))
      diagnostics.write(Data("\(name): cannot start: \(message)\n".utf8))
      exit(1)
    }
    session.repairAtStart()
    let repl = REPL(prompt: prompt, commands: table, console: console)
    session.install(on: repl)
    exit(repl.run())
  }

  /// For an app that takes no arguments of its own: refuses the first one given.
  ///
  /// ```swift
  /// try AppInfo.noArguments([])  // nothing to refuse
  /// do {
  ///   try AppInfo.noArguments(["--verbose"])
  /// } catch {
  ///   print(error)  // unknown argument '--verbose'
  /// }
  /// ```
  ///
  /// - Parameter arguments: The arguments left after the session's own.
  /// - Throws: REPLKit's `REPLError` (`unknown argument '…'`) when there is any.
  public static func noArguments(_ arguments: [String]) throws {
    if let first = arguments.first { throw REPLError("unknown argument '\(first)'") }
  }
}
