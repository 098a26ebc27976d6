import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What the person is asked: which app, for what, why, and the choices Apple's alert offers.
///
/// An OpenEventKit addition: on Apple's platforms the system shows the alert. The store
/// makes one when a request (`requestFullAccessToEvents()` and the like) needs the person's
/// answer, and hands it to the process's ``AccessPromptPresenter``
/// (<doc:Privacy#The-prompt>).
///
/// ```swift
/// func present(_ request: AccessPromptRequest) -> Bool? {
///   print(request.title)             // "\"Loans\" Would Like Full Access to Your Calendar"
///   print(request.usageDescription)  // why, in the app's words
///   print("1) \(request.choices.allow)  2) \(request.choices.deny)")
///   switch readLine() { case "1": return true; case "2": return false; default: return nil }
/// }
/// ```
public struct AccessPromptRequest: Sendable, Hashable {
  /// The access asked for: one of the three that Apple's alerts ask for.
  ///
  /// - `fullAccessToEvents`: full access to events, `requestFullAccessToEvents()`.
  /// - `writeOnlyAccessToEvents`: write-only access to events,
  ///   `requestWriteOnlyAccessToEvents()`.
  /// - `fullAccessToReminders`: full access to reminders, `requestFullAccessToReminders()`.
  ///
  /// ```swift
  /// struct EventsOnlyPrompt: AccessPromptPresenter {
  ///   // Answers reminder requests with a refusal; asks on the terminal for events.
  ///   func present(_ request: AccessPromptRequest) -> Bool? {
  ///     if request.kind == .fullAccessToReminders { return false }
  ///     return TerminalAccessPrompt().present(request)
  ///   }
  /// }
  /// EKEventStore.accessPromptPresenter = EventsOnlyPrompt()
  /// ```
  public enum Kind: Sendable, Hashable {
    case fullAccessToEvents, writeOnlyAccessToEvents, fullAccessToReminders
  }

  /// The access asked for.
  public let kind: Kind
  /// The app's name (`CFBundleDisplayName`) and bundle identifier.
  public let appName: String
  /// The app's bundle identifier (`CFBundleIdentifier`, or its executable's name): the app
  /// the decision is recorded for.
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
///
/// An OpenEventKit addition: on Apple's platforms the system shows the alert. The default is
/// ``TerminalAccessPrompt``; the presenter is process-wide (<doc:Privacy#A-presenter-of-your-own>).
///
/// ```swift
/// struct StandardInputPrompt: AccessPromptPresenter {
///   func present(_ request: AccessPromptRequest) -> Bool? {
///     print(request.title, request.usageDescription, separator: "\n")
///     print("1) \(request.choices.allow)  2) \(request.choices.deny)")
///     switch readLine()?.trimmingCharacters(in: .whitespaces) {
///     case "1": return true
///     case "2": return false
///     default: return nil  // no answer: nothing is decided
///     }
///   }
/// }
///
/// // Once, before the first request:
/// EKEventStore.accessPromptPresenter = StandardInputPrompt()
/// ```
public protocol AccessPromptPresenter: Sendable {
  /// Shows the alert for `request` and waits for the person's answer.
  ///
  /// Called on the request's background queue, one request at a time in a process; it may
  /// block until the person answers. The store records the answer as the person's decision
  /// for the app (refusing full access after granting write-only keeps write-only, and is not
  /// asked again); nil records nothing, and the request answers false.
  ///
  /// - Parameter request: What the person is asked.
  /// - Returns: True to allow, false to refuse, nil when no answer came.
  func present(_ request: AccessPromptRequest) -> Bool?

  /// Tells the person that their answer to `request` did not count: while the alert waited,
  /// the app's access was decided elsewhere (`ekctl privacy set`, or another process of the
  /// app whose alert was answered first), that decision stands, and it is not the answer.
  ///
  /// Called on the request's queue, right after ``present(_:)`` returned an answer the
  /// decision overrules. The default says nothing; ``TerminalAccessPrompt`` and the terminal
  /// UI's `PrivacyAlert` say it where they asked.
  ///
  /// ```swift
  /// struct LinePrompt: AccessPromptPresenter {
  ///   func present(_ request: AccessPromptRequest) -> Bool? {
  ///     print(request.title, "(y/n)")
  ///     return readLine().map { $0 == "y" }
  ///   }
  ///   func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
  ///     print(request.decidedMeanwhile(status))  // "Meanwhile, access was decided elsewhere…"
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What the person was asked.
  ///   - status: The decision that stands.
  func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus)
}

extension AccessPromptPresenter {
  /// Says nothing: a presenter of an app's own that does not implement it leaves the person
  /// to learn the outcome from the app.
  public func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {}
}

extension AccessPromptRequest {
  /// What a presenter says when the person's answer did not count
  /// (``AccessPromptPresenter/decidedMeanwhile(_:status:)``), naming the decision that stands.
  ///
  /// ```swift
  /// struct YesNoPrompt: AccessPromptPresenter {
  ///   func present(_ request: AccessPromptRequest) -> Bool? { readLine().map { $0 == "y" } }
  ///   func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
  ///     print(request.decidedMeanwhile(status))
  ///     // Meanwhile, access was decided elsewhere (ekctl privacy, or another window of this
  ///     // app): not allowed. That decision stands, not this answer.
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter status: The decision that stands.
  /// - Returns: One sentence, or two.
  public func decidedMeanwhile(_ status: EKAuthorizationStatus) -> String {
    let decision =
      switch status {
      case .fullAccess: "allowed"
      case .writeOnly:
        kind == .writeOnlyAccessToEvents ? "allowed to add events" : "full access not allowed"
      case .denied: "not allowed"
      case .restricted: "restricted"
      default: "not decided"
      }
    return "Meanwhile, access was decided elsewhere (ekctl privacy, or another window of this "
      + "app): \(decision). That decision stands, not this answer."
  }
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
///
/// An OpenEventKit addition; it is the presenter in use until another is installed with
/// `EKEventStore.accessPromptPresenter` (<doc:Privacy#The-prompt>).
///
/// ```swift
/// // Back to the default after a presenter of the app's own:
/// EKEventStore.accessPromptPresenter = TerminalAccessPrompt()
/// print(TerminalAccessPrompt().mode?.rawValue ?? "default")  // what OPENEVENTKIT_PROMPT chose
/// ```
public struct TerminalAccessPrompt: AccessPromptPresenter {
  /// Where the answer is read from, named as `OPENEVENTKIT_PROMPT` names it.
  ///
  /// - `tty`: the controlling terminal (`/dev/tty`) only; with none, no answer.
  /// - `stdin`: one line of standard input, even on a terminal; the question is logged.
  /// - `none`: never asks: every undecided request has no answer.
  ///
  /// ```swift
  /// setenv("OPENEVENTKIT_PROMPT", "stdin", 1)
  /// print(TerminalAccessPrompt().mode == .stdin)  // true
  /// print(TerminalAccessPrompt.Mode.allCases.map(\.rawValue))  // ["tty", "stdin", "none"]
  /// ```
  public enum Mode: String, Sendable, CaseIterable {
    case tty, stdin, none
  }

  /// The mode `OPENEVENTKIT_PROMPT` names; nil (the default: the terminal when standard
  /// input is one, standard input otherwise) when it is unset or names none of them.
  public let mode: Mode?

  /// The presenter that `OPENEVENTKIT_PROMPT` in the process's environment configures, as it
  /// is when called (``mode``).
  ///
  /// ```swift
  /// // In a test or a daemon, where nobody can answer: every undecided request stays undecided.
  /// setenv("OPENEVENTKIT_PROMPT", "none", 1)
  /// EKEventStore.accessPromptPresenter = TerminalAccessPrompt()
  /// ```
  public init() {
    self.init(environment: ProcessInfo.processInfo.environment)
  }

  init(environment: [String: String]) {
    mode = environment["OPENEVENTKIT_PROMPT"].flatMap { Mode(rawValue: $0.lowercased()) }
  }

  /// Shows the alert as text and reads the answer, where ``mode`` says.
  ///
  /// `1`, `y`, `yes`, `allow` or the allowing choice's words allow; `2`, `n`, `no`, `deny`,
  /// `don't allow` or the refusing choice's words refuse (in any case). On the terminal, an
  /// answer it does not understand is asked again, up to three times in all; on standard
  /// input, it is no answer.
  ///
  /// ```swift
  /// struct LoggedPrompt: AccessPromptPresenter {
  ///   func present(_ request: AccessPromptRequest) -> Bool? {
  ///     let answer = TerminalAccessPrompt().present(request)
  ///     print(request.title, answer.map { $0 ? "allowed" : "refused" } ?? "no answer")
  ///     return answer
  ///   }
  /// }
  /// EKEventStore.accessPromptPresenter = LoggedPrompt()
  /// ```
  ///
  /// - Parameter request: What the person is asked.
  /// - Returns: True to allow, false to refuse, nil when no answer came (end of input, no
  ///   terminal with ``Mode/tty``, always with ``Mode/none``).
  public func present(_ request: AccessPromptRequest) -> Bool? {
    let text = TerminalAccessPrompt.alert(for: request)
    if mode == TerminalAccessPrompt.Mode.none {
      Log.privacy.notice(
        "\(request.title): not asked (OPENEVENTKIT_PROMPT=none); access stays undecided")
      return nil
    }
    if asksOnTerminal, let terminal = fopen("/dev/tty", "r+") {
      defer { fclose(terminal) }
      for attempt in 1...3 {
        fputs(text, terminal)
        fflush(terminal)
        guard let line = TerminalAccessPrompt.readLine(terminal) else { return nil }
        if let answer = TerminalAccessPrompt.answer(line, for: request) { return answer }
        if attempt < 3 { fputs("Please answer 1 or 2.\n", terminal) }  // not when it stops
      }
      return nil
    }
    // No controlling terminal to ask on.
    if mode == .tty { return nil }
    Log.privacy.notice("\(text)")
    guard let line = Swift.readLine(strippingNewline: true) else { return nil }
    return TerminalAccessPrompt.answer(line, for: request)
  }

  /// Says ``AccessPromptRequest/decidedMeanwhile(_:)`` where ``present(_:)`` asked: on the
  /// terminal, or in the log.
  ///
  /// ```swift
  /// struct CountedPrompt: AccessPromptPresenter {
  ///   func present(_ request: AccessPromptRequest) -> Bool? {
  ///     TerminalAccessPrompt().present(request)
  ///   }
  ///   func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
  ///     TerminalAccessPrompt().decidedMeanwhile(request, status: status)  // on the terminal
  ///     print("overruled by a decision made elsewhere")
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What the person was asked.
  ///   - status: The decision that stands.
  public func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
    let text = request.decidedMeanwhile(status)
    if asksOnTerminal, let terminal = fopen("/dev/tty", "w") {
      defer { fclose(terminal) }
      fputs(text + "\n", terminal)
    } else {
      Log.privacy.notice("\(text)")
    }
  }

  /// Whether the prompt asks on the controlling terminal: `tty`, or by default when standard
  /// input is a terminal.
  private var asksOnTerminal: Bool {
    mode == .tty || (mode == nil && isatty(STDIN_FILENO) != 0)
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
