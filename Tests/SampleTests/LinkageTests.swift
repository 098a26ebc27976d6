import Foundation
import TestSupport
import Testing

/// What each program links, read from its symbol table with binutils' `nm`: an app, a sample
/// and `ekctl` carry no network stack (issue 44); only `ekctl-sync`, which runs the CalDAV
/// sync, does, and it is the control that shows the count can be other than nothing.
@Suite struct LinkageTests {
  /// Symbols of SwiftNIO (its modules mangle as `7NIOCore`, `8NIOPosix`, `6NIOSSL`…: matched
  /// with case, since `union` and the like hold `nio` in every binary), BoringSSL and
  /// AsyncHTTPClient.
  static func networkSymbols(of program: String) throws -> Int {
    let nm = try runProgram(
      try Programs.path("nm", package: "binutils"), [BuildProducts.executable(program).path],
      input: nil, environment: ProcessInfo.processInfo.environment)
    guard nm.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["nm": nm.stderr]) }
    return nm.stdout.split(separator: "\n").filter { line in
      line.contains("NIO") || line.localizedCaseInsensitiveContains("boringssl")
        || line.contains("AsyncHTTPClient")
    }.count
  }

  @Test(arguments: [
    "ekctl", "book-club", "loan-scheduler", "poker-vote", "recipe-reminders", "wedding-planner",
  ])
  func linksNoNetworkStack(_ program: String) throws {
    #expect(try Self.networkSymbols(of: program) == 0)
  }

  @Test func theSyncProgramDoes() throws {
    let count = try Self.networkSymbols(of: "ekctl-sync")
    print("LinkageTests: ekctl-sync has \(count) network symbols")
    #expect(count > 1000)
  }
}
