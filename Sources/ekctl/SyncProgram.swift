import EkctlKit
import Foundation
import OpenEventKit

/// `ekctl-sync`, the program that carries ekctl's network words, and how ekctl becomes it.
///
/// It is found as git finds `git-foo`: beside the running ekctl, its links resolved (so the
/// `bin/ekctl` link that scripts/install makes finds `lib/openeventkit/ekctl-sync`), then on
/// PATH. ekctl execs it rather than starting a child: the pid, the signals sent to it (a
/// Ctrl-C, a `kill` of `ekctl sync --watch`), the standard streams and the exit status stay
/// those of the `ekctl` that was started, as when the words ran inside it.
enum SyncProgram {
  static let name = SyncAgentProgram.name

  /// Replaces this process with ekctl-sync, given ekctl's arguments as they were typed (both
  /// programs read `--db` before or after the subcommand); returns only to exit, when it
  /// cannot.
  static func exec(word: String) -> Never {
    let folder = ownFolder()
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

  /// The folder of the running program, every link resolved; nil without /proc.
  static func ownFolder() -> String? { SyncAgentProgram.ownFolder() }

  /// ekctl-sync in `folder`, else in the first folder of PATH that has it.
  static func find(beside folder: String?) -> String? {
    SyncAgentProgram.find(
      in: [folder].compactMap { $0 }
        + SyncAgentProgram.searchPath(ProcessInfo.processInfo.environment))
  }
}
