import Foundation
import Testing

@testable import REPLKit

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LineReaderTests {
  @Test func aStreamIsReadLineByLineAndEchoed() throws {
    let text = "add \"Claire\" 1\r\nlist\nlast line without newline"
    var bytes = Array(text.utf8)
    let transcript = try bytes.withUnsafeMutableBytes { buffer -> String in
      let stream = try #require(fmemopen(buffer.baseAddress, buffer.count, "r"))
      defer { fclose(stream) }
      var transcript = ""
      let reader = StreamLineReader(input: stream) { transcript += $0 }
      var lines: [String] = []
      while let line = reader.readLine(prompt: "> ") { lines.append(line) }
      #expect(lines == ["add \"Claire\" 1", "list", "last line without newline"])
      return transcript
    }
    #expect(transcript == "> add \"Claire\" 1\n> list\n> last line without newline\n")
  }

  @Test func historyFollowsXDGStateHome() {
    #expect(
      TerminalLineReader.historyFile(
        app: "loan-scheduler", environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/a"]
      ).path == "/state/OpenEventKit/loan-scheduler.history")
    #expect(
      TerminalLineReader.historyFile(
        app: "poker-vote", environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/a"]
      ).path == "/home/a/.local/state/OpenEventKit/poker-vote.history")
    // An empty HOME is no home: the history does not land in the working folder.
    let homeless = TerminalLineReader.historyFile(app: "poker-vote", environment: ["HOME": ""])
    #expect(homeless.path.hasPrefix(NSHomeDirectory()) && homeless.path.hasPrefix("/"))
  }
}
