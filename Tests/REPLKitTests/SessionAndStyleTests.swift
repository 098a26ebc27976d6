import ArgumentParser
import Foundation
import Testing

@testable import REPLKit

/// Session options, dates as typed, the terminal style and the console's choices.
@Suite struct SessionAndStyleTests {
  struct Program: ParsableArguments {
    @OptionGroup var session: SessionArguments
    @Flag var singleEvents = false
  }

  @Test func nowAndHomeAreReadWithTheProgramsOwnOptions() throws {
    let program = NamedArguments(Program.self, name: "loans", abstract: "Lends money.")
    let parsed = try program.parse(["--now", "2025-03-01T09:00:00Z", "--single-events"])
    let options = SessionOptions(parsed.session, environment: ["OPENEVENTKIT_HOME": "/tmp/oek"])
    #expect(options.now == Date(timeIntervalSince1970: 1_740_819_600))
    #expect(options.clock() == options.now)
    #expect(parsed.singleEvents)
    #expect(options.home?.path == "/tmp/oek")
    #expect(options.dataFolder(app: "loan-scheduler").path == "/tmp/oek/loan-scheduler")
    let equals = try program.parse(["--now=2025-03-01T10:00+01:00"])
    #expect(SessionOptions(equals.session, environment: [:]).now == options.now)
    #expect(throws: ArgumentsAnswer.self) { try program.parse(["--now"]) }
    do {
      _ = try program.parse(["--now", "noon"])
      Issue.record("noon was read as a date and time")
    } catch {
      #expect(!error.isHelp && error.exitCode == 64)
      #expect(
        error.text.hasPrefix(
          "Error: The value 'noon' is invalid for '--now <iso-date-time>': give a date and time "
            + "such as 2025-03-01T09:00\n"),
        "\(error.text)")
      #expect(error.text.contains("\nUsage: loans [--now <iso-date-time>] [--single-events]\n"))
    }
    do {
      _ = try program.parse(["-h"])
    } catch {
      #expect(error.isHelp && error.exitCode == 0)
      #expect(error.text.hasPrefix("OVERVIEW: Lends money.\n\nUSAGE: loans [--now"))
    }
  }

  @Test func theDataFolderFollowsXDGWithoutAHome() throws {
    let options = SessionOptions(try SessionArguments.parse([]), environment: [:])
    #expect(options.now == nil)
    #expect(
      options.dataFolder(app: "poker-vote", environment: ["XDG_DATA_HOME": "/data"]).path
        == "/data/poker-vote")
    #expect(
      options.dataFolder(app: "poker-vote", environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
        .path == "/h/.local/share/poker-vote")
  }

  @Test func localTimesAreReadOnTheGivenClockAcrossDST() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    #expect(
      DateReading.instant("2025-03-30T01:30", in: paris)
        == Date(timeIntervalSince1970: 1_743_294_600))  // 00:30Z
    // 02:30 does not exist that night: it moves forward an hour, to 01:30Z.
    #expect(
      DateReading.instant("2025-03-30T02:30", in: paris)
        == Date(timeIntervalSince1970: 1_743_298_200))
    #expect(
      DateReading.instant("2025-03-30", in: paris) == Date(timeIntervalSince1970: 1_743_289_200))
    #expect(DateReading.instant("soon", in: paris) == nil)
    #expect(DateReading.day("2025-03-30T23:30:00Z", in: paris)?.day == 31)
  }

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
    #expect(TerminalStyle.forOutput(isTerminal: false, environment: [:]) == .plain)
    let terminal = TerminalStyle.forOutput(isTerminal: true, environment: ["TERM": "xterm"])
    #expect(terminal.usesColor && terminal.usesBoxDrawing && !terminal.usesTrueColor)
    #expect(
      !TerminalStyle.forOutput(isTerminal: true, environment: ["NO_COLOR": "1"]).usesColor)
    #expect(!TerminalStyle.forOutput(isTerminal: true, environment: ["TERM": "dumb"]).usesColor)
    #expect(
      TerminalStyle.forOutput(isTerminal: true, environment: ["COLORTERM": "truecolor"])
        .usesTrueColor)
    #expect(TerminalStyle.plain.bold("x") == "x")
    #expect(terminal.bold("x") == "\u{1B}[1mx\u{1B}[0m")
    #expect(terminal.colored("x", red: 1, green: 0, blue: 0) == "\u{1B}[38;5;196mx\u{1B}[0m")
    #expect(TerminalStyle.plain.rule(width: 3) == "---")
    #expect(terminal.rule(width: 3) == "───")
  }

  @Test func choicesByNumberWordPrefixOrAlias() {
    func choose(_ lines: [String]) -> Int? {
      let console = Console.scripted(
        lines, transcript: Transcript(), timeZone: .gmt, now: Date(timeIntervalSince1970: 0))
      return console.choose("? ", among: ["save", "edit", "cancel"], aliases: ["": 0])
    }
    #expect(choose(["2"]) == 1)
    #expect(choose(["Cancel"]) == 2)
    #expect(choose(["e"]) == 1)
    #expect(choose([""]) == 0)
    #expect(choose(["x", "y", "z", "1"]) == nil)  // three wrong answers give up
    #expect(choose([]) == nil)
    #expect(Console.list(["a", "b", "c"], or: true) == "a, b or c")
  }
}
