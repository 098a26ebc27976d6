import Foundation
import Testing

@testable import REPLKit

/// Data shown on a terminal: every character that would act on it is written as `\u{…}`.
@Suite struct InertTextTests {
  /// Every class the rule covers, each shown by its code point.
  @Test(arguments: [
    // C0: ESC (the start of every escape sequence), BEL, BS, CR, tab, NUL, line feed.
    ("\u{1B}[2J", #"\u{1B}[2J"#),
    ("\u{1B}]52;c;ZWNobyBwd25lZA==\u{7}", #"\u{1B}]52;c;ZWNobyBwd25lZA==\u{7}"#),
    ("\u{1B}]0;root@host\u{1B}\\", #"\u{1B}]0;root@host\u{1B}\"#),
    (
      "\u{1B}]8;;https://evil.example\u{1B}\\bank\u{1B}]8;;\u{1B}\\",
      #"\u{1B}]8;;https://evil.example\u{1B}\bank\u{1B}]8;;\u{1B}\"#
    ),
    ("a\u{8}b\rc\td\u{0}e\nf", #"a\u{8}b\u{D}c\u{9}d\u{0}e\u{A}f"#),
    // DEL and the C1 controls: CSI U+009B and OSC U+009D act like ESC [ and ESC ].
    ("x\u{7F}y", #"x\u{7F}y"#),
    ("\u{9B}2J", #"\u{9B}2J"#),
    ("\u{9D}0;title\u{9C}", #"\u{9D}0;title\u{9C}"#),
    ("\u{80}\u{9F}", #"\u{80}\u{9F}"#),
    // Bidi: overrides, embeddings, isolates and marks.
    ("Lunch\u{202E}gnitteem", #"Lunch\u{202E}gnitteem"#),
    ("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202A}\u{202B}\u{202C}\u{202D}"#),
    ("\u{2066}\u{2067}\u{2068}\u{2069}", #"\u{2066}\u{2067}\u{2068}\u{2069}"#),
    ("\u{200E}\u{200F}\u{61C}", #"\u{200E}\u{200F}\u{61C}"#),
  ])
  func activeCharactersAreShown(data: String, shown: String) {
    #expect(InertText.of(data) == shown)
    #expect(!InertText.of(data).unicodeScalars.contains(where: InertText.isActive))
  }

  /// Letters of every script, emoji with their joiners and modifiers, combining marks and
  /// the zero-width characters that build them are text, and stay as they are.
  @Test(arguments: [
    "Gâteau 🍰 d'été", "日本語", "שלום עולם", "مرحبا", "👨‍👩‍👧", "👍🏽", "🇫🇷", "e\u{301}",
    "a\u{200B}b", "❤️", "\\u{1B} typed out", "",
  ])
  func textStaysAsItIs(text: String) {
    #expect(InertText.of(text) == text)
    #expect(InertText.keepingLineBreaks(text) == text)
  }

  /// A multi-line field keeps its line feeds, and a CR LF pair is one; a CR alone is shown.
  @Test func lineBreaksAreKeptWhereAsked() {
    #expect(
      InertText.keepingLineBreaks("one\ntwo\r\nthree\rfour") == #"one\#ntwo\#nthree\u{D}four"#)
    #expect(InertText.keepingLineBreaks("\u{1B}[2J\n\u{9B}") == "\\u{1B}[2J\n\\u{9B}")
    #expect(InertText.of("one\r\ntwo") == #"one\u{D}\u{A}two"#)
  }

  /// Everything a console writes passes through the rule: its own colours stay when it uses
  /// colour, and any other sequence is shown.
  @Test func aConsoleWritesDataInert() {
    let hostile = "Standup\u{1B}[2J\u{1B}]0;owned\u{7}\u{9B}31m\u{202E}"
    let shown = #"Standup\u{1B}[2J\u{1B}]0;owned\u{7}\u{9B}31m\u{202E}"#
    let plain = Transcript()
    Console.scripted([], transcript: plain, timeZone: .gmt, now: Date()).print(hostile)
    #expect(plain.text == shown + "\n")

    let coloured = Transcript()
    let style = TerminalStyle(usesColor: true, usesBoxDrawing: true)
    let console = Console.scripted(
      [], transcript: coloured, timeZone: .gmt, now: Date(), style: style)
    console.print(style.bold("Title") + " " + hostile)
    #expect(coloured.text == "\u{1B}[1mTitle\u{1B}[0m " + shown + "\n")

    // Only the codes the style writes pass: not conceal (8), a background, or a long run.
    let orange = TerminalStyle(usesColor: true, usesTrueColor: true, usesBoxDrawing: true)
      .colored("Work", red: 1, green: 0.5, blue: 0)
    let others = Transcript()
    Console.scripted([], transcript: others, timeZone: .gmt, now: Date(), style: style).print(
      orange + "\u{1B}[8mhidden\u{1B}[41;30m\u{1B}[38;2;1;2;3;4m\u{1B}[38;5;300m")
    #expect(
      others.text
        == orange + #"\u{1B}[8mhidden\u{1B}[41;30m\u{1B}[38;2;1;2;3;4m\u{1B}[38;5;300m"# + "\n")
  }

  /// A table's cells are made inert on one line before they are measured: the columns after
  /// a hostile cell line up, and a line feed in a cell does not start a row.
  @Test func tableCellsAreInertAndLineUp() {
    let transcript = Transcript()
    let console = Console.scripted([], transcript: transcript, timeZone: .gmt, now: Date())
    console.table([["\u{1B}[2J", "a"], ["two\nrows", "b"], ["\u{202E}x", "c"]])
    #expect(
      transcript.text == """
          \\u{1B}[2J     a
          two\\u{A}rows  b
          \\u{202E}x     c

        """)
  }

  /// A failed command's message is shown inert: it may quote what was typed, or data.
  @Test func errorsAreShownInert() {
    let transcript = Transcript()
    let fails = REPLCommand("fail", help: "Fails.") {
      throw REPLError("no list \"\u{1B}]52;c;eA==\u{7}\"")
    }
    let repl = REPL(
      prompt: "> ", commands: [fails],
      reader: ScriptedLineReader(["fail", "\u{9B}2J"], echo: { _ in }), write: transcript.append)
    #expect(repl.run() == 1)
    #expect(transcript.text.contains(#"Error: no list "\u{1B}]52;c;eA==\u{7}""#))
    #expect(transcript.text.contains(#"Error: unknown command '\u{9B}2J'"#))
    #expect(!transcript.text.unicodeScalars.contains { $0 != "\n" && InertText.isActive($0) })
  }
}
