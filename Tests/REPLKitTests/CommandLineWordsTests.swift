import Testing

@testable import REPLKit

@Suite struct CommandLineWordsTests {
  @Test func wordsQuotesAndEscapes() throws {
    #expect(try CommandLineWords.split("  new   loan ") == ["new", "loan"])
    #expect(
      try CommandLineWords.split(#"add "Claire Dupont" 1320.38"#)
        == ["add", "Claire Dupont", "1320.38"])
    #expect(try CommandLineWords.split(#"note 'it''s' """#) == ["note", "its", ""])
    #expect(
      try CommandLineWords.split(#"say "a \"quoted\" word""#) == ["say", #"a "quoted" word"#])
    #expect(try CommandLineWords.split(#"path a\ b 'c\d'"#) == ["path", "a b", #"c\d"#])
    #expect(try CommandLineWords.split("") == [])
  }

  @Test func anApostropheBetweenLettersIsNoQuote() throws {
    #expect(
      try CommandLineWords.split("add-recipe Gâteau d'été") == ["add-recipe", "Gâteau", "d'été"])
    #expect(try CommandLineWords.split("'Gâteau d'été' O'Brien") == ["Gâteau d'été", "O'Brien"])
    #expect(try CommandLineWords.split("rock'n'roll 1'2") == ["rock'n'roll", "1'2"])
    // Beside a space or a quote it is still a quote.
    #expect(try CommandLineWords.split("say 'a b' 'c'") == ["say", "a b", "c"])
    #expect(throws: CommandLineWords.Error(description: "missing closing '")) {
      try CommandLineWords.split("say it's 'done")
    }
  }

  // Found by fuzz-words: a combining mark joins the quote, space or backslash before it into
  // one Character, which then was none of the three.
  @Test func combiningMarksDoNotHideQuotesSpacesOrBackslashes() throws {
    let acute = "\u{301}"
    #expect(try CommandLineWords.split("say '\(acute)x'") == ["say", "\(acute)x"])
    #expect(try CommandLineWords.split("say \"\(acute)\"") == ["say", acute])
    #expect(try CommandLineWords.split("a \(acute)b") == ["a", "\(acute)b"])
    #expect(try CommandLineWords.split("a\\\(acute)") == ["a\(acute)"])
    #expect(try CommandLineWords.split("a\\ \(acute)b") == ["a \(acute)b"])
  }

  @Test func unfinishedQuotesAndEscapesAreNamed() {
    #expect(throws: CommandLineWords.Error(description: "missing closing \"")) {
      try CommandLineWords.split(#"add "Claire"#)
    }
    #expect(throws: CommandLineWords.Error(description: "a backslash ends the line")) {
      try CommandLineWords.split(#"add \"#)
    }
  }

  @Test func suggestionsForSlips() {
    let commands = ["help", "list", "new", "delete", "schedule", "quit"]
    #expect(NearestName.suggestion(for: "lsit", among: commands) == "list")
    #expect(NearestName.suggestion(for: "SHEDULE", among: commands) == "schedule")
    #expect(NearestName.suggestion(for: "dlete", among: commands) == "delete")
    #expect(NearestName.suggestion(for: "xyzzy", among: commands) == nil)
    #expect(NearestName.suggestion(for: "anything", among: []) == nil)
    #expect(NearestName.editDistance("kitten", "sitting") == 3)
  }

  @Test func namesMatchIgnoringCaseAndAccents() {
    #expect(NearestName.key(" Crêpes ") == NearestName.key("CREPES"))
    #expect(NearestName.key("Crème fraîche") == "creme fraiche")
    #expect(NearestName.key("crepes") != NearestName.key("crêpe"))
    #expect(NearestName.suggestion(for: "crèpe", among: ["Crêpes", "Pancakes"]) == "Crêpes")
  }
}
