import ArgumentParser
import Foundation
import REPLKit

extension ParsableCommand {
  /// What `ekctl` and `ekctl-sync` do with their command line: the libraries' log records on
  /// standard error, the command parsed and run, and an error said as ArgumentParser says it,
  /// made inert. One flow for both programs, so that a word says the same whichever of them
  /// runs it. `--db` before the subcommand is the root command's (``StoreOptions``), parsed
  /// where it is written.
  package static func mainAsEkctl() {
    // The libraries' log records (swift-log): failures they swallow, and with
    // OPENEVENTKIT_LOG=debug the SQL, change notices and CalDAV traffic.
    TerminalLogHandler.bootstrap(program: "ekctl", output: .standardError)
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      exitShowingInert(error)
    }
  }

  /// Exits as ArgumentParser does for `error`, its message made inert but for its line
  /// breaks: an error quotes data (a calendar's title, a server's answer) and the arguments
  /// typed, and neither may act on the terminal.
  package static func exitShowingInert(_ error: any Error) -> Never {
    let message = fullMessage(for: error)
    let shown = InertText.keepingLineBreaks(message)
    guard shown != message else { exit(withError: error) }
    let code = exitCode(for: error)
    let output: FileHandle = code == .success ? .standardOutput : .standardError
    output.write(Data((shown + "\n").utf8))
    Foundation.exit(code.rawValue)
  }
}
