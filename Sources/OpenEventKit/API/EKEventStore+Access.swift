import Foundation

// Who asks the person for access (the decisions: Privacy/EKEventStore+Decisions.swift).
extension EKEventStore {
  /// Asks the person, through this presenter, whenever an app requests access it has not been
  /// given or refused yet. The default shows the alert on the controlling terminal, or reads
  /// the answer as one line of standard input when that is not a terminal.
  ///
  /// An OpenEventKit addition: on Apple's systems the operating system shows the prompt. It
  /// serves every store of the process. See <doc:Privacy#A-presenter-of-your-own>.
  ///
  /// ```swift
  /// EKEventStore.accessPromptPresenter = TerminalAccessPrompt()
  /// ```
  public static var accessPromptPresenter: any AccessPromptPresenter {
    get { presenterSlot.withLock { $0 } }
    set { presenterSlot.withLock { $0 = newValue } }
  }
}
