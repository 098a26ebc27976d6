import Foundation
import Testing

@testable import REPLKit

@Suite struct SynopsisTests {
  @Test func placeholdersOptionalGroupsAndRepeats() {
    #expect(Synopsis("").accepts([]))
    #expect(!Synopsis("").accepts(["x"]))
    #expect(Synopsis("LOAN N").accepts(["1", "2"]))
    #expect(!Synopsis("LOAN N").accepts(["1"]))
    #expect(!Synopsis("LOAN N").accepts(["1", "2", "3"]))
    let optional = Synopsis("[CONTACT AMOUNT RATE]")
    #expect(optional.accepts([]) && optional.accepts(["a", "b", "c"]))
    #expect(!optional.accepts(["a"]) && !optional.accepts(["a", "b"]))
    #expect(Synopsis("[DAY] [DAYS]").accepts(["1", "2"]))
    #expect(!Synopsis("[DAY] [DAYS]").accepts(["1", "2", "3"]))
    let repeated = Synopsis("CALENDAR TITLE...")
    #expect(!repeated.accepts(["Work"]))
    #expect(repeated.accepts(["Work", "a"]) && repeated.accepts(["Work", "a", "b", "c"]))
  }

  @Test func flagsGoAnywhereAndUnknownOnesAreRefused() {
    let synopsis = Synopsis("LOAN N [--future]")
    #expect(synopsis.flags == ["--future"])
    #expect(synopsis.accepts(["1", "2", "--future"]))
    #expect(synopsis.accepts(["--future", "1", "2"]))
    #expect(!synopsis.accepts(["1", "2", "--past"]))
    // A negative number is a word, not a flag.
    #expect(synopsis.accepts(["1", "-2"]))
  }

  @Test func aMisfitSaysHow() {
    let synopsis = Synopsis("LOAN N [--future]")
    #expect(synopsis.misfit(["1", "2"]) == nil)
    #expect(synopsis.misfit(["1", "2", "--past"]) == .unknownOption("--past"))
    #expect(synopsis.misfit(["1", "2", "3"]) == .tooManyWords)
    #expect(synopsis.misfit(["1"]) == .wrongCount)
    #expect(Synopsis("").misfit(["x"]) == .wrongCount)  // quotes would not help
    #expect(Synopsis("TITLE...").misfit(Array(repeating: "a", count: 50)) == nil)
  }

  @Test func alternativeFormsAreEachAccepted() {
    let synopsis = Synopsis("CONTACT AMOUNT [--single-events] | [--single-events]")
    #expect(synopsis.forms == ["CONTACT AMOUNT [--single-events]", "[--single-events]"])
    #expect(synopsis.accepts([]) && synopsis.accepts(["--single-events"]))
    #expect(synopsis.accepts(["Claire", "10", "--single-events"]))
    #expect(!synopsis.accepts(["Claire"]))
  }

  @Test func theREPLAnswersAMisfitWithEveryFormAndRunsNothing() {
    let ran = Recorder()
    let command = REPLCommand("new", synopsis: "A B | [--x]", help: "Makes.") { words in
      ran.append(words)
    }
    let transcript = Transcript()
    let repl = REPL(
      prompt: "> ", commands: [command],
      reader: ScriptedLineReader(["new a", "new --x", "help new"], echo: transcript.append),
      write: transcript.append)
    #expect(repl.run() == 1)
    #expect(transcript.text.contains("> new a\nerror: usage: new A B, or new [--x]\n"))
    #expect(transcript.text.contains("> help new\nnew A B\nnew [--x]\n  Makes.\n"))
    #expect(ran.all == [["--x"]])
  }
}

/// What commands were given, gathered from their closures.
final class Recorder: @unchecked Sendable {
  private(set) var all: [[String]] = []
  func append(_ words: [String]) { all.append(words) }
}
