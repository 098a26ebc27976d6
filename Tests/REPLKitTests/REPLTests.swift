import Foundation
import Testing

@testable import REPLKit

@Suite struct REPLTests {
  /// A REPL over scripted lines; returns its transcript and exit status.
  func session(_ lines: [String], commands: [REPLCommand]) -> (String, Int32) {
    var transcript = ""
    let reader = ScriptedLineReader(lines) { transcript += $0 }
    let repl = REPL(prompt: "loans> ", commands: commands, reader: reader) { transcript += $0 }
    let status = repl.run()
    return (transcript, status)
  }

  /// What `add` received, across the command's closure.
  final class Added: @unchecked Sendable {
    private let lock = NSLock()
    private var words: [[String]] = []
    func append(_ more: [String]) { lock.withLock { words.append(more) } }
    var all: [[String]] { lock.withLock { words } }
  }

  let added = Added()

  var commands: [REPLCommand] {
    [
      REPLCommand("add", synopsis: "NAME AMOUNT", help: "Add a loan.") { [added] words in
        guard words.count == 2 else { throw REPLError("add needs NAME and AMOUNT") }
        added.append(words)
      },
      REPLCommand("list", help: "List the loans.") { _ in },
    ]
  }

  @Test func aPipedSessionReadsLikeATranscript() {
    let (transcript, status) = session(
      [#"add "Claire Dupont" 1320.38"#, "", "list", "quit", "add ignored 1"], commands: commands)
    #expect(status == 0)
    #expect(
      transcript == """
        loans> add "Claire Dupont" 1320.38
        loans> 
        loans> list
        loans> quit

        """)
    #expect(added.all == [["Claire Dupont", "1320.38"]])
  }

  @Test func errorsArePrintedTheLoopGoesOnAndTheStatusSaysSo() {
    let (transcript, status) = session(
      ["lsit", "add onlyone", #"add "unfinished"#, "frobnicate", "list"], commands: commands)
    #expect(status == 1)
    #expect(transcript.contains("error: unknown command 'lsit'; did you mean 'list'?"))
    // Checked against the synopsis before the command runs.
    #expect(transcript.contains("loans> add onlyone\nerror: usage: add NAME AMOUNT\n"))
    #expect(transcript.contains("error: missing closing \""))
    #expect(
      transcript.contains("error: unknown command 'frobnicate'; type 'help' for the commands"))
    #expect(transcript.hasSuffix("loans> list\n"))
  }

  @Test func tooManyWordsHintsAtQuotesOnlyForWordsOfText() {
    let (transcript, _) = session(
      [
        "add Claire Dupont 1320.38", "add 1 2 3", "add",
        "add '\(String(repeating: "x", count: 3000))",
      ],
      commands: commands)
    #expect(
      transcript.contains(
        "error: usage: add NAME AMOUNT (a value of several words goes in quotes)\n"))
    // Numbers are never one value of several words.
    #expect(
      transcript.contains("loans> add 1 2 3\nerror: usage: add NAME AMOUNT (too many words)\n"))
    // A 3,000-character line is not echoed whole.
    let last = transcript.components(separatedBy: "\n").last { $0.hasPrefix("error: ") } ?? ""
    #expect(last.count <= 507, "\(last.count) characters")
    #expect(last.hasPrefix("error: missing closing '"), "\(last)")
  }

  @Test func longMessagesKeepTheirStartAndEnd() {
    let typed = String(repeating: "x", count: 3000)
    let message = "'\(typed)' is not a day and a time; say when as fri 20:00"
    let short = ErrorText.shortened(message)
    #expect(short.count == 500)
    #expect(short.hasPrefix("'xxx"))
    #expect(short.hasSuffix("' is not a day and a time; say when as fri 20:00"))
    #expect(short.contains(" … "))
    #expect(ErrorText.shortened("short") == "short")
  }

  @Test func helpListsEveryCommandAndExplainsOne() {
    let (transcript, status) = session(["help", "help add", "help nope"], commands: commands)
    #expect(transcript.contains("  add NAME AMOUNT  Add a loan.\n"))
    #expect(transcript.contains("  list             List the loans.\n"))
    #expect(transcript.contains("  help [COMMAND], quit\n"))
    #expect(transcript.contains("add NAME AMOUNT\n  Add a loan.\n"))
    #expect(transcript.contains("error: no command 'nope' to explain"))
    #expect(status == 1)
  }

  @Test func tabCompletesCommandsAndDeclaredArguments() {
    let titles = ["Calendar", "Claire's loans", "Work"]
    let repl = REPL(
      prompt: "> ",
      commands: commands + [
        REPLCommand(
          "use", synopsis: "CALENDAR", help: "Choose a calendar.",
          complete: { words in
            words.isEmpty ? titles : []
          }
        ) { _ in }
      ], reader: ScriptedLineReader([]) { _ in }, write: { _ in })
    #expect(repl.completions(line: "", word: "") == ["add", "help", "list", "quit", "use"])
    #expect(repl.completions(line: "", word: "l") == ["list"])
    #expect(repl.completions(line: "help ", word: "") == ["add", "list", "use"])
    #expect(repl.completions(line: "use ", word: "C") == ["Calendar", "Claire's loans"])
    #expect(repl.completions(line: "use Work ", word: "") == [])
    #expect(repl.completions(line: "add ", word: "") == [])  // add declares nothing
  }
}
