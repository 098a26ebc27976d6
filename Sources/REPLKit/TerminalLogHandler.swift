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
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level

  private let program: String
  private let label: String
  private let output: FileHandle
  /// Whether lines carry their time, level and logger (levels below `notice` asked for).
  private let detailed: Bool

  public init(program: String, label: String, level: Logger.Level, output: FileHandle) {
    self.program = program
    self.label = label
    self.logLevel = level
    self.output = output
    detailed = level < .notice
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    let text: String
    if detailed {
      let stamp = Date().ISO8601Format(
        .iso8601(timeZone: .current, includingFractionalSeconds: true))
      text = "\(stamp) \(event.level) \(label): \(event.message)"
    } else {
      text = "\(program): \(event.message)"
    }
    output.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// The level `OPENEVENTKIT_LOG` names, or `notice`.
  public static func level(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Logger.Level
  {
    environment["OPENEVENTKIT_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
      ?? .notice
  }

  /// Makes this handler the process's, for every logger, at the level `OPENEVENTKIT_LOG`
  /// names; once per process (later calls do nothing).
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
