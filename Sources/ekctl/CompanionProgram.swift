import EkctlKit
import Foundation
import OpenEventKit

/// A program that carries some of ekctl's words, and how ekctl becomes it: `ekctl-sync` (the
/// network words) and `ekctl-mcp` (the MCP server), each kept apart so that ekctl's start
/// carries neither the network stack nor the MCP library.
///
/// It is found as git finds `git-foo`: beside the running ekctl, its links resolved (so the
/// `bin/ekctl` link that scripts/install makes finds `lib/openeventkit/ekctl-sync`), then on
/// PATH. ekctl execs it rather than starting a child: the pid, the signals sent to it (a
/// Ctrl-C, a `kill` of `ekctl sync --watch`), the standard streams and the exit status stay
/// those of the `ekctl` that was started, as when the words ran inside it. For `ekctl mcp`
/// that matters more: its standard input and output are the protocol, and an MCP host that
/// stops the server signals the pid it started.
struct CompanionProgram {
  let name: String

  static let sync = CompanionProgram(name: SyncAgentProgram.name)
  static let mcp = CompanionProgram(name: "ekctl-mcp")

  /// Replaces this process with the program, given ekctl's arguments as they were typed (the
  /// programs read `--db` before or after the subcommand); returns only to exit, when it
  /// cannot.
  func exec(word: String) -> Never {
    let folder = SyncAgentProgram.ownFolder()
    guard let program = find(beside: folder) else {
      let beside = folder.map { "in \($0), beside ekctl," } ?? "beside ekctl"
      printError(
        "ekctl \(word) needs the program \(name), found neither \(beside) nor on PATH; "
          + "install again with scripts/install")
      exit(EXIT_FAILURE)
    }
    let arguments = CommandLine.arguments
    // Nothing printed so far may be lost with this process image.
    fflush(nil)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    execv(program, &argv)
    let reason = String(cString: strerror(errno))
    printError("cannot run \(program): \(reason)")
    exit(EXIT_FAILURE)
  }

  /// The program in `folder`, else in the first folder of PATH that has it.
  func find(beside folder: String?) -> String? {
    SyncAgentProgram.find(
      name,
      in: [folder].compactMap { $0 }
        + SyncAgentProgram.searchPath(ProcessInfo.processInfo.environment))
  }
}
