import Foundation
import Logging
import Synchronization

/// A swift-log handler for a program run in a terminal: what the person needs to see, in
/// their words, on the output the program gives it (its standard error, as a rule).
///
/// By default it writes records of level `notice` and above as `program: message`, the way
/// command-line tools say what went wrong. `OPENEVENTKIT_LOG` asks for more (or less): one of
/// `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`. From `info` down each
/// line carries its time, level and logger, so that `OPENEVENTKIT_LOG=debug` shows the
/// store's SQL with its timings, each change notice and the CalDAV traffic, each where it
/// came from:
///
/// ```swift
/// import Logging
/// import REPLKit
///
/// TerminalLogHandler.bootstrap(program: "my-app", output: .standardError)
/// ```
///
/// swift-log allows one bootstrap per process: a second call of ``bootstrap(program:output:)``
/// does nothing, but one made after another handler's bootstrap traps in swift-log.
public struct TerminalLogHandler: LogHandler {
  /// The handler's metadata, as swift-log's `LogHandler` requires; kept, not written: a line
  /// carries only its message (and, from `info` down, its time, level and logger).
  public var metadata: Logger.Metadata = [:]
  /// The least severe level written; records below it are dropped by swift-log's `Logger`
  /// before they reach the handler.
  public var logLevel: Logger.Level

  private let program: String
  private let label: String
  private let output: FileHandle
  /// Whether lines carry their time, level and logger (levels below `notice` asked for).
  private let detailed: Bool

  /// A handler for one logger; ``bootstrap(program:output:)`` makes one per logger.
  ///
  /// ```swift
  /// import Logging
  ///
  /// let logger = Logger(label: "my-app.sync") { label in
  ///   TerminalLogHandler(program: "my-app", label: label, level: .debug, output: .standardError)
  /// }
  /// logger.debug("fetched 3 events")
  /// // <the time, ISO 8601> debug my-app.sync: fetched 3 events
  /// ```
  ///
  /// - Parameters:
  ///   - program: The program's name, before each message when the level is `notice` or
  ///     above.
  ///   - label: The logger's label, on each line when the level is below `notice`.
  ///   - level: The least severe level written. Below `notice`, every line carries its time,
  ///     level and logger.
  ///   - output: Where lines are written, each ended by a newline.
  public init(program: String, label: String, level: Logger.Level, output: FileHandle) {
    self.program = program
    self.label = label
    self.logLevel = level
    self.output = output
    detailed = level < .notice
  }

  /// One item of the handler's ``metadata``, as swift-log's `LogHandler` requires.
  ///
  /// ```swift
  /// import Logging
  ///
  /// var handler = TerminalLogHandler(
  ///   program: "my-app", label: "my-app", level: .notice, output: .standardError)
  /// handler[metadataKey: "account"] = "home"
  /// print(handler[metadataKey: "account"] ?? "none")  // home (kept, never written)
  /// ```
  ///
  /// - Parameter key: The metadata key.
  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// Writes one record as a line: `program: message`, or from `info` down
  /// `time level label: message` (the time in ISO 8601 on the process's clock, with
  /// fractions of a second).
  ///
  /// ```swift
  /// import Logging
  ///
  /// let logger = Logger(label: "my-app.sync") { label in
  ///   TerminalLogHandler(program: "my-app", label: label, level: .notice, output: .standardError)
  /// }
  /// logger.error("the server refused the password")
  /// // on standard error: my-app: the server refused the password
  /// ```
  ///
  /// - Parameter event: The record swift-log hands over; its metadata and source location are
  ///   not written. Its message is shown inert (``InertText``), its line breaks kept: a
  ///   record may quote a server's answer or a title.
  public func log(event: LogEvent) {
    let text: String
    let message = InertText.keepingLineBreaks(event.message.description)
    if detailed {
      let stamp = Date().ISO8601Format(
        .iso8601(timeZone: .current, includingFractionalSeconds: true))
      text = "\(stamp) \(event.level) \(label): \(message)"
    } else {
      text = "\(program): \(message)"
    }
    output.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// The level `OPENEVENTKIT_LOG` names, or `notice`.
  ///
  /// The name is read in any case (`DEBUG`); a name that is not a level counts as unset.
  ///
  /// ```swift
  /// TerminalLogHandler.level(environment: ["OPENEVENTKIT_LOG": "debug"])  // .debug
  /// TerminalLogHandler.level(environment: [:])                            // .notice
  /// ```
  ///
  /// - Parameter environment: Where `OPENEVENTKIT_LOG` is read; the process's environment by
  ///   default.
  /// - Returns: The level named, or `notice`.
  public static func level(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Logger.Level
  {
    environment["OPENEVENTKIT_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
      ?? .notice
  }

  /// Makes this handler the process's, for every logger, at the level `OPENEVENTKIT_LOG`
  /// names; once per process (later calls do nothing).
  ///
  /// Call it first thing, before any logger is made: a logger made before keeps swift-log's
  /// default handler. OpenEventKitApp's `AppInfo.run` calls it for a sample.
  ///
  /// ```swift
  /// import Logging
  ///
  /// TerminalLogHandler.bootstrap(program: "my-app", output: .standardError)
  /// let logger = Logger(label: "my-app")
  /// logger.warning("no calendar named Work")  // my-app: no calendar named Work
  /// ```
  ///
  /// - Parameters:
  ///   - program: The program's name, before each message.
  ///   - output: Where every logger's lines go: standard error, as a rule.
  public static func bootstrap(program: String, output: FileHandle) {
    let first = bootstrapped.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    let level = level()
    LoggingSystem.bootstrap { label in
      TerminalLogHandler(program: program, label: label, level: level, output: output)
    }
  }

  private static let bootstrapped = Mutex(false)
}
