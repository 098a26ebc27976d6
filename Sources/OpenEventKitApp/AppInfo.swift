import ArgumentParser
import Foundation
import GRDB
import OpenEventKit
import OpenEventKitPaths
import REPLKit

/// Who a sample app is, written once: its name (the executable's, and its data folder's), its
/// prompt and what it is for. The privacy identity (bundle identifier,
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
///     REPLCommand("loans", help: "Lists the loans.") {
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
  /// The app's own database file, in its data folder.
  public let database: String
  /// What the app does, for `--help`.
  public let about: String

  /// The app's identity.
  ///
  /// ```swift
  /// let app = AppInfo(
  ///   name: "poker-vote", prompt: "poker> ", database: "poker.sqlite",
  ///   about: "Suggests times for poker night and votes on them in a shared \"Poker\" calendar.")
  /// ```
  ///
  /// - Parameters:
  ///   - name: The executable's name, such as `loan-scheduler`; it names the data folder and
  ///     the readline history, and starts every diagnostic.
  ///   - prompt: The REPL's prompt, with its trailing space.
  ///   - database: The file name of the app's database in its data folder; nil (the default)
  ///     for `<name>.sqlite`.
  ///   - about: One or two sentences on what the app does, for `--help`.
  public init(name: String, prompt: String, database: String? = nil, about: String) {
    self.name = name
    self.prompt = prompt
    self.database = database ?? "\(name).sqlite"
    self.about = about
  }

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

  /// Runs the app, and exits with the REPL's status: reads the command line (the session's
  /// `--now`, and `--help`), opens the app's database with `migrations`, makes the session,
  /// and runs the REPL over `commands` with the session's hooks installed
  /// (``AppSession/install(on:)``). For an app with options of its own, see
  /// ``run(diagnostics:options:migrations:commands:)``.
  ///
  /// `diagnostics` is where the app says what goes wrong outside its REPL — the program's
  /// standard error, as a rule; the libraries' log records (swift-log) go there too, through
  /// REPLKit's `TerminalLogHandler` at the level `OPENEVENTKIT_LOG` names.
  ///
  /// The command line is read by swift-argument-parser, as ekctl's is: `--help` prints the
  /// usage and ``about`` on standard output and exits with status 0; an argument the app does
  /// not take is refused on `diagnostics` with ArgumentParser's `Error: …` and usage, status
  /// 64. A database that cannot be opened is said on `diagnostics`, status 1. Before the REPL
  /// starts, work that a stopped run left half done is repaired where the app already has
  /// access (``AppSession/repairAtStart()``).
  ///
  /// ```swift
  /// app.run(diagnostics: .standardError) { session in
  ///   [REPLCommand("hello", help: "Says hello.") { session.console.print("Hello.") }]
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - diagnostics: Where problems outside the REPL, and log records, are written:
  ///     `.standardError`, as a rule.
  ///   - migrations: Registers the app's own database migrations, in order (GRDB's
  ///     `DatabaseMigrator`); none by default.
  ///   - commands: Makes the command table from the session, once; the kit adds `help` and
  ///     `quit`. An error it throws is said on `diagnostics` (`<name>: cannot start: …`),
  ///     status 1.
  /// - Returns: Never: the process exits, with the REPL's status (0, or 1 when a command
  ///   failed) or one of those above.
  public func run(
    diagnostics: FileHandle,
    migrations: (inout DatabaseMigrator) -> Void = { _ in },
    commands: (AppSession) throws -> [REPLCommand]
  ) -> Never {
    run(diagnostics: diagnostics, options: NoArguments.self, migrations: migrations) {
      session, _ in try commands(session)
    }
  }

  /// Runs the app, as ``run(diagnostics:migrations:commands:)`` does, for an app that takes
  /// options of its own on its command line: declared with swift-argument-parser, read in
  /// the same parse as the session's `--now`, shown in its usage and `--help`, and handed to
  /// `commands` with the session.
  ///
  /// ```swift
  /// import ArgumentParser
  ///
  /// struct PlayerOption: ParsableArguments {
  ///   @Option(help: "Who plays.") var player = "player"
  /// }
  /// app.run(diagnostics: .standardError, options: PlayerOption.self) { session, options in
  ///   [REPLCommand("player", help: "Says who is playing.") {
  ///     session.console.print(options.player)
  ///   }]
  /// }
  /// ```
  ///
  /// `Samples/PokerVote/main.swift` reads `--player NAME` so, with the sample's `Player`.
  ///
  /// - Parameters:
  ///   - diagnostics: Where problems outside the REPL, and log records, are written.
  ///   - options: The app's own options, declared with ArgumentParser's `@Option` and
  ///     `@Flag`; their `validate()` refuses what they do not take, with the usage.
  ///   - migrations: Registers the app's own database migrations, in order.
  ///   - commands: Makes the command table from the session and the options read, once.
  /// - Returns: Never: the process exits, as ``run(diagnostics:migrations:commands:)`` does.
  public func run<Options: ParsableArguments>(
    diagnostics: FileHandle,
    options: Options.Type,
    migrations: (inout DatabaseMigrator) -> Void = { _ in },
    commands: (AppSession, Options) throws -> [REPLCommand]
  ) -> Never {
    TerminalLogHandler.bootstrap(program: name, output: diagnostics)
    let about =
      "\(self.about) Type 'help' at its prompt for the commands. Its own data is kept in "
      + "$OPENEVENTKIT_HOME/\(name) (or the XDG data folder), the calendar in the store "
      + "every OpenEventKit app shares."
    let (sessionOptions, own) = SessionOptions.forThisProcess(
      app: name, about: about, arguments: options, errors: diagnostics)
    let console = Console.standard(app: name, options: sessionOptions)
    let session: AppSession
    let table: [REPLCommand]
    do {
      let database = try AppDatabase(app: self, migrations: migrations)
      session = AppSession(app: self, console: console, database: database)
      table = try commands(session, own)
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
}
