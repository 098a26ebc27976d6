import Foundation
import Logging
import REPLKit
import Testing

/// `TerminalLogHandler`: the person's words by default, the details when asked.
@Suite struct TerminalLogHandlerTests {
  /// What a handler at `level` writes for a notice and a debug record.
  func written(at level: Logger.Level) throws -> String {
    let pipe = Pipe()
    var logger = Logger(label: "org.openeventkit.store") { label in
      TerminalLogHandler(
        program: "ekctl", label: label, level: level, output: pipe.fileHandleForWriting)
    }
    logger.logLevel = level
    logger.notice("the store cannot be opened")
    logger.debug("0.001s SELECT 1")
    try pipe.fileHandleForWriting.close()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  @Test func byDefaultSaysWhatWentWrongAsCommandLineToolsDo() throws {
    #expect(try written(at: .notice) == "ekctl: the store cannot be opened\n")
  }

  @Test func atDebugEveryLineSaysWhenWhatAndWhere() throws {
    let lines = try written(at: .debug).split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines[0].hasSuffix(" notice org.openeventkit.store: the store cannot be opened"))
    #expect(lines[1].hasSuffix(" debug org.openeventkit.store: 0.001s SELECT 1"))
    // An ISO 8601 time first.
    #expect(lines[1].first?.isNumber == true && lines[1].contains("T"))
  }

  /// A record quoting a server's answer or a title shows its escapes inert (issue 42).
  @Test func aRecordsMessageIsShownInert() throws {
    let pipe = Pipe()
    let logger = Logger(label: "org.openeventkit.sync") { label in
      TerminalLogHandler(
        program: "ekctl", label: label, level: .notice, output: pipe.fileHandleForWriting)
    }
    logger.error("the server said \u{1B}]0;owned\u{7}\u{9B}2J\u{202E}")
    try pipe.fileHandleForWriting.close()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(text == #"ekctl: the server said \u{1B}]0;owned\u{7}\u{9B}2J\u{202E}"# + "\n")
  }

  @Test(arguments: [
    ("debug", Logger.Level.debug), ("TRACE", .trace), ("warning", .warning), ("", .notice),
    ("loud", .notice),
  ])
  func theLevelComesFromOPENEVENTKIT_LOG(value: String, level: Logger.Level) {
    #expect(TerminalLogHandler.level(environment: ["OPENEVENTKIT_LOG": value]) == level)
    #expect(TerminalLogHandler.level(environment: [:]) == .notice)
  }
}
