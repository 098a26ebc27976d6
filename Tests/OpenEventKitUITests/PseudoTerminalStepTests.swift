import Foundation
import TestSupport
import Testing

/// The pseudo-terminal driver the terminal tests go through (Tests/TestSupport): a step waits
/// for text shown after the text the step before waited for, so that a prompt already on
/// the screen is never taken for the next one and keys are never typed before the program
/// asks again.
@Suite struct PseudoTerminalStepTests {
  /// A shell that asks once with `> `, then reads a second line without asking.
  static let asksOnce = [
    "-c", "printf '> '; read first; printf 'got %s\\n' \"$first\"; read second",
  ]

  @Test func aPromptAlreadyAnsweredIsNotTheNextOne() throws {
    let outcome = try PseudoTerminal.run(
      URL(fileURLWithPath: "/bin/sh"), arguments: Self.asksOnce,
      steps: [.after("> ", send: "one\r"), .after("> ", send: "two\r")], deadline: .seconds(5))
    // The shell never asks again: the second step waits for a prompt that does not come,
    // and the run ends at its deadline with the shell still reading.
    #expect(outcome.stepsTaken == 1, "\(outcome.shown)")
    #expect(outcome.timedOut, "\(outcome.shown)")
    #expect(outcome.shown.contains("got one"), "\(outcome.shown)")
    #expect(!outcome.shown.contains("two"), "typed before it was asked for: \(outcome.shown)")
  }

  @Test func eachStepWaitsForItsOwnPrompt() throws {
    let asksTwice = [
      "-c",
      "printf '> '; read first; printf 'got %s\\n> ' \"$first\"; read second; "
        + "printf 'got %s\\n' \"$second\"",
    ]
    let outcome = try PseudoTerminal.run(
      URL(fileURLWithPath: "/bin/sh"), arguments: asksTwice,
      steps: [.after("> ", send: "one\r"), .after("> ", send: "two\r")], deadline: .seconds(60))
    #expect(outcome.stepsTaken == 2, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    // The second answer was typed after the second prompt, which came after the first answer.
    let first = try #require(outcome.shown.range(of: "got one"))
    let second = try #require(outcome.shown.range(of: "got two"))
    #expect(first.upperBound <= second.lowerBound, "\(outcome.shown)")
  }
}
