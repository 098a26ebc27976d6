import ArgumentParser
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

  struct Add: ParsableArguments {
    @Argument(help: "Who borrows.") var name: String
    @Argument(help: "How much.") var amount: Double
    @Flag(help: "Monthly payments.") var monthly = false
    @Option(help: "A note.") var note: String?
  }

  var commands: [REPLCommand] {
    [
      REPLCommand("add", Add.self, help: "Add a loan.") { [added] add in
        added.append([add.name, "\(add.amount)"] + (add.monthly ? ["monthly"] : []))
      },
      REPLCommand("list", help: "List the loans.") {},
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

  @Test func argumentsAreTypedAndFlagsComeAnywhere() {
    let (_, status) = session(
      ["add --monthly Ann 12", "add Bea 3.5 --note 'a note' --monthly", "add Cy --note=x 7"],
      commands: commands)
    #expect(status == 0)
    #expect(added.all == [["Ann", "12.0", "monthly"], ["Bea", "3.5", "monthly"], ["Cy", "7.0"]])
  }

  @Test func errorsArePrintedTheLoopGoesOnAndTheStatusSaysSo() {
    let (transcript, status) = session(
      ["lsit", "add onlyone", #"add "unfinished"#, "frobnicate", "list"], commands: commands)
    #expect(status == 1)
    #expect(transcript.contains("Error: unknown command 'lsit'; did you mean 'list'?"))
    // Read by ArgumentParser before the command runs, and refused as ekctl refuses.
    #expect(
      transcript.contains(
        """
        loans> add onlyone
        Error: Missing expected argument '<amount>'
        Help:  <amount>  How much.
        Usage: add <name> <amount> [--monthly] [--note <note>]
          See 'add --help' for more information.
        loans> 
        """))
    #expect(transcript.contains("Error: missing closing \""))
    #expect(
      transcript.contains("Error: unknown command 'frobnicate'; type 'help' for the commands"))
    #expect(transcript.hasSuffix("loans> list\n"))
  }

  @Test func wordsThatDoNotReadAreRefusedWithTheUsageAndRunNothing() {
    let (transcript, status) = session(
      [
        "add Claire Dupont 1320.38", "add Ann 1 --weekly", "list all", "add 1 2 3",
        "add '\(String(repeating: "x", count: 3000))",
      ],
      commands: commands)
    #expect(status == 1)
    #expect(added.all.isEmpty)
    #expect(
      transcript.contains(
        "loans> add Claire Dupont 1320.38\nError: The value 'Dupont' is invalid for '<amount>'"))
    #expect(transcript.contains("loans> add Ann 1 --weekly\nError: Unknown option '--weekly'\n"))
    // Numbers are never one value of several words: no hint at quotes.
    #expect(
      transcript.contains(
        "loans> add 1 2 3\nError: Unexpected argument '3'\nUsage: add <name> <amount> "
          + "[--monthly] [--note <note>]\n  See 'add --help' for more information.\nloans> "))
    #expect(
      transcript.contains(
        "loans> list all\nError: Unexpected argument 'all'\nUsage: list\n"
          + "  See 'list --help' for more information.\n"
          + "  A value of several words goes in quotes: \"Villa Lario\".\n"))
    // A 3,000-character line is not echoed whole.
    let last = transcript.components(separatedBy: "\n").last { $0.hasPrefix("Error: ") } ?? ""
    #expect(last.count <= 507, "\(last.count) characters")
    #expect(last.hasPrefix("Error: missing closing '"), "\(last)")
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

  @Test func aNegativeNumberIsToldToComeAfterTheTerminator() {
    let (transcript, status) = session(["add Ann -5", "add Ann -- -5"], commands: commands)
    #expect(status == 1)
    // ArgumentParser alone would say "Missing expected argument '<amount>'": it was typed.
    #expect(
      transcript.contains(
        "loans> add Ann -5\nError: Unknown option '-5'; a number below zero goes after '--'\n"
          + "Usage: add <name> <amount> [--monthly] [--note <note>]\n"
          + "  See 'add --help' for more information.\n"))
    #expect(added.all == [["Ann", "-5.0"]])
  }

  @Test func helpListsEveryCommandAndExplainsOne() {
    let (transcript, status) = session(
      ["help", "help add", "add --help", "list -h", "help nope"], commands: commands)
    #expect(transcript.contains("  add <name> <amount> [--monthly] [--note <note>]\n"))
    #expect(transcript.contains("  list  List the loans.\n"))
    #expect(transcript.contains("  help [<command>], quit\n"))
    // ArgumentParser's help, with each argument's and option's own.
    let help = """
      OVERVIEW: Add a loan.

      USAGE: add <name> <amount> [--monthly] [--note <note>]

      ARGUMENTS:
        <name>                  Who borrows.
        <amount>                How much.

      OPTIONS:
        --monthly               Monthly payments.
        --note <note>           A note.
        -h, --help              Show help information.

      """
    #expect(transcript.contains("loans> help add\n" + help + "loans> add --help\n" + help))
    #expect(transcript.contains("loans> list -h\nOVERVIEW: List the loans.\n\nUSAGE: list\n"))
    #expect(transcript.contains("Error: no command 'nope' to explain"))
    #expect(status == 1)  // help is no failure; "help nope" is
  }

  @Test func tabCompletesCommandsAndDeclaredArguments() {
    let titles = ["Calendar", "Claire's loans", "Work"]
    let repl = REPL(
      prompt: "> ",
      commands: commands + [
        REPLCommand(
          "use", Use.self, help: "Choose a calendar.",
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
    // The options, from the parser.
    #expect(repl.completions(line: "add Ann 12 ", word: "--") == ["--monthly", "--note"])
    #expect(repl.completions(line: "use ", word: "-") == [])
  }

  struct Use: ParsableArguments {
    @Argument var calendar: String
  }
}
