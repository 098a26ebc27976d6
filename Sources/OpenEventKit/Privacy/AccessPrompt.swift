import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What the person is asked: which app, for what, why, and the choices Apple's alert offers.
public struct AccessPromptRequest: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case fullAccessToEvents, writeOnlyAccessToEvents, fullAccessToReminders
  }

  public let kind: Kind
  /// The app's name (`CFBundleDisplayName`) and bundle identifier.
  public let appName: String
  public let bundleIdentifier: String
  /// The app's usage description for this kind of access, from its Info.plist.
  public let usageDescription: String

  /// The alert's title, in Apple's words for each kind.
  public var title: String {
    switch kind {
    case .fullAccessToEvents: "\"\(appName)\" Would Like Full Access to Your Calendar"
    case .writeOnlyAccessToEvents: "\"\(appName)\" Would Like to Add Events to Your Calendar"
    case .fullAccessToReminders: "\"\(appName)\" Would Like Full Access to Your Reminders"
    }
  }

  /// The choices, the granting one first.
  public var choices: (allow: String, deny: String) {
    switch kind {
    case .fullAccessToEvents, .fullAccessToReminders: ("Allow Full Access", "Don't Allow")
    case .writeOnlyAccessToEvents: ("Add Events Only", "Don't Allow")
    }
  }
}

/// Shows the access alert and returns the person's answer: true to allow, false to refuse,
/// nil when no answer came (nothing is decided then, and the app may ask again).
///
/// Install one with `EKEventStore.accessPromptPresenter` to ask through an app's own
/// interface; the samples ask through their REPL's line reader, so that a piped session
/// answers with its next line.
public protocol AccessPromptPresenter: Sendable {
  func present(_ request: AccessPromptRequest) -> Bool?
}

/// The default presenter: the controlling terminal when there is one, otherwise one line of
/// standard input (so that scripts and tests can answer), end of input being no answer.
///
/// `OPENEVENTKIT_PROMPT` chooses instead, for a process that must not read its answer from
/// where it would by default:
/// - `tty`: the controlling terminal only; with none, no answer.
/// - `stdin`: one line of standard input, even on a terminal; the question is logged
///   (`org.openeventkit.privacy`, notice), never written on standard output.
/// - `none`: never asks (a daemon, a server speaking a protocol on standard input): an
///   undecided request is no answer, so it returns false and nothing is recorded.
public struct TerminalAccessPrompt: AccessPromptPresenter {
  /// Where the answer is read from.
  public enum Mode: String, Sendable, CaseIterable {
    case tty, stdin, none
  }

  /// The mode `OPENEVENTKIT_PROMPT` names; nil (the default: the terminal when standard
  /// input is one, standard input otherwise) when it is unset or names none of them.
  public let mode: Mode?

  public init() {
    self.init(environment: ProcessInfo.processInfo.environment)
  }

  init(environment: [String: String]) {
    mode = environment["OPENEVENTKIT_PROMPT"].flatMap { Mode(rawValue: $0.lowercased()) }
  }

  public func present(_ request: AccessPromptRequest) -> Bool? {
    let text = TerminalAccessPrompt.alert(for: request)
    if mode == TerminalAccessPrompt.Mode.none {
      Log.privacy.notice(
        "\(request.title): not asked (OPENEVENTKIT_PROMPT=none); access stays undecided")
      return nil
    }
    let onTerminal = mode == .tty || (mode == nil && isatty(STDIN_FILENO) != 0)
    if onTerminal, let terminal = fopen("/dev/tty", "r+") {
      defer { fclose(terminal) }
      for _ in 0..<3 {
        fputs(text, terminal)
        fflush(terminal)
        guard let line = TerminalAccessPrompt.readLine(terminal) else { return nil }
        if let answer = TerminalAccessPrompt.answer(line, for: request) { return answer }
        fputs("Please answer 1 or 2.\n", terminal)
      }
      return nil
    }
    // No controlling terminal to ask on.
    if mode == .tty { return nil }
    Log.privacy.notice("\(text)")
    guard let line = Swift.readLine(strippingNewline: true) else { return nil }
    return TerminalAccessPrompt.answer(line, for: request)
  }

  /// The alert as text.
  static func alert(for request: AccessPromptRequest) -> String {
    """

    \(request.title)
    \(request.usageDescription)
      1) \(request.choices.allow)
      2) \(request.choices.deny)
    Choose 1 or 2: 
    """
  }

  /// The answer a line gives: the choice's number or its words (or y / n); nil otherwise.
  static func answer(_ line: String, for request: AccessPromptRequest) -> Bool? {
    let word = line.trimmingCharacters(in: .whitespaces).lowercased()
    switch word {
    case "1", "y", "yes", "allow", request.choices.allow.lowercased(): return true
    case "2", "n", "no", "deny", "don't allow", "dont allow", request.choices.deny.lowercased():
      return false
    default: return nil
    }
  }

  private static func readLine(_ file: UnsafeMutablePointer<FILE>) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let end = buffer.firstIndex(of: 0) ?? buffer.count
    return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .trimmingCharacters(in: .newlines)
  }
}

/// The presenter in use, process-wide.
let presenterSlot = Mutex<any AccessPromptPresenter>(TerminalAccessPrompt())
