import Foundation
import Testing

@testable import REPLKit

@Suite struct HooksAndFormsTests {
  @Test func hooksRunAroundEachCommandThatReadsEvenWhenItFails() {
    let transcript = Transcript()
    let commands = [
      REPLCommand("ok", help: "Works.") { transcript.append("running ok\n") },
      REPLCommand("bad", help: "Fails.") { throw REPLError("it broke") },
    ]
    let repl = REPL(
      prompt: "> ", commands: commands,
      reader: ScriptedLineReader(["ok", "bad", "ok extra", "help"], echo: transcript.append),
      write: transcript.append)
    repl.beforeCommand = { transcript.append("before \($0.name)\n") }
    repl.afterCommand = { transcript.append("after \($0.name)\n") }
    #expect(repl.run() == 1)
    #expect(transcript.text.contains("> ok\nbefore ok\nrunning ok\nafter ok\n"))
    // After runs before the error is printed; a usage error and help run no hook.
    #expect(transcript.text.contains("> bad\nbefore bad\nafter bad\nError: it broke\n"))
    #expect(
      transcript.text.contains(
        "> ok extra\nError: Unexpected argument 'extra'\nUsage: ok\n"
          + "  See 'ok --help' for more information.\n"
          + "  A value of several words goes in quotes: \"Villa Lario\".\n> help\n"))
    #expect(transcript.text.components(separatedBy: "before").count == 3)
  }

  @Test func errorsAreToldInTheirOwnWords() {
    struct DomainError: Error, CustomStringConvertible {
      var description: String { "that loan is repaid" }
    }
    #expect(ErrorText.of(DomainError()) == "that loan is repaid")
    #expect(ErrorText.of(REPLError("plain")) == "plain")
    let bridged = NSError(
      domain: "EKErrorDomain", code: 1, userInfo: [NSLocalizedDescriptionKey: "No calendar."])
    #expect(ErrorText.of(bridged) == "No calendar.")
  }

  @Test func askRepeatsUntilAnAnswerReadsAndTakesTheDefault() {
    let transcript = Transcript()
    let console = Console.scripted(
      ["-3", "12", "", "cancel"], transcript: transcript, timeZone: .gmt, now: Date())
    let read: (String) throws -> Int = { text in
      guard let number = Int(text), number > 0 else { throw REPLError("'\(text)' is not a count") }
      return number
    }
    #expect(console.ask("Count", read: read) == 12)
    #expect(transcript.text == "Count: -3\n'-3' is not a count\nCount: 12\n")
    #expect(console.ask("Count", default: "5", read: read) == 5)
    #expect(transcript.text.hasSuffix("Count [5]: \n"))
    #expect(console.ask("Count", read: read) == nil)  // cancel
    #expect(console.ask("Count", read: read) == nil)  // end of input
  }

  @Test func tablesAlignTheirColumns() {
    let transcript = Transcript()
    let console = Console.scripted([], transcript: transcript, timeZone: .gmt, now: Date())
    console.table(
      [["1", "2025-03-02", "yes"], ["10", "2025-03-03", "no"]], header: ["#", "due", "paid"])
    #expect(
      transcript.text
        == "  #   due         paid\n  1   2025-03-02  yes\n  10  2025-03-03  no\n")
  }
}
