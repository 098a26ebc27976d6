import ArgumentParser
import Foundation

/// A type of arguments declared with swift-argument-parser (`@Argument`, `@Option`, `@Flag`),
/// read under a name known only at run time: a REPL command's (``REPLCommand``) or a program's
/// (``SessionOptions/forThisProcess(app:about:arguments:errors:)``). The parsing, the errors,
/// the usage line and the help are ArgumentParser's own, as ekctl prints them, so that a
/// sample's `Error: Missing expected argument '<n>'` and `Usage: …` read as ekctl's do.
///
/// ArgumentParser names a command from its type, once for all; a REPL's commands take their
/// names and help as values (`CalendarViews` makes `week` or `agenda` from one type), so the
/// type is parsed inside a command of REPLKit's whose name is a placeholder, which the texts
/// get back as `name`.
///
/// ```swift
/// import ArgumentParser
///
/// struct Pay: ParsableArguments {
///   @Argument(help: "The loan's number.") var loan: Int
///   @Flag(help: "The later payments too.") var future = false
/// }
/// let pay = NamedArguments(Pay.self, name: "pay", abstract: "Marks a payment as paid.")
/// print(pay.usage)  // pay <loan> [--future]
/// do {
///   let parsed = try pay.parse(["2", "--future"])
///   print(parsed.loan, parsed.future)  // 2 true
///   _ = try pay.parse([])
/// } catch {
///   print(error.text)
///   // Error: Missing expected argument '<loan>'
///   // Help:  <loan>  The loan's number.
///   // Usage: pay <loan> [--future]
///   //   See 'pay --help' for more information.
/// }
/// ```
public struct NamedArguments<Arguments: ParsableArguments>: Sendable {
  /// The name the texts give: the command's, or the program's.
  public let name: String
  /// One line on what it does: the help's `OVERVIEW:`.
  public let abstract: String

  /// The arguments of `type` under a name.
  ///
  /// ```swift
  /// let none = NamedArguments(NoArguments.self, name: "loans", abstract: "Lists the loans.")
  /// print(none.usage)  // loans
  /// ```
  ///
  /// - Parameters:
  ///   - type: The arguments, declared with ArgumentParser's property wrappers.
  ///   - name: The name the usage and the help give.
  ///   - abstract: One line on what the command or program does.
  public init(_ type: Arguments.Type, name: String, abstract: String) {
    self.name = name
    self.abstract = abstract
  }

  /// The words read into the arguments, `validate()` included.
  ///
  /// ```swift
  /// import ArgumentParser
  ///
  /// struct Show: ParsableArguments { @Argument var loan: Int }
  /// let show = NamedArguments(Show.self, name: "show", abstract: "Shows a loan.")
  /// print(try show.parse(["3"]).loan)  // 3
  /// ```
  ///
  /// - Parameter words: The words after the name, as ``CommandLineWords`` split them.
  /// - Returns: The arguments.
  /// - Throws: ``ArgumentsAnswer``: the refusal, or the help that was asked for.
  public func parse(_ words: [String]) throws(ArgumentsAnswer) -> Arguments {
    do {
      return try Named<Arguments>.parse(words).arguments
    } catch {
      let code = Named<Arguments>.exitCode(for: error)
      if code == .success { throw ArgumentsAnswer(text: help, isHelp: true, exitCode: 0) }
      // ArgumentParser reads `-5` as an option, and may first report an argument missing
      // (`pay 1 -1`: "Missing expected argument '<n>'"), which the person did type.
      if let negative = words.prefix(while: { $0 != "--" }).first(where: Self.isNegativeNumber) {
        throw ArgumentsAnswer(
          text: "Error: Unknown option '\(negative)'; a number below zero goes after '--'\n"
            + "Usage: \(usage)\n  See '\(name) --help' for more information.",
          isHelp: false, exitCode: ExitCode.validationFailure.rawValue)
      }
      let text = named(Named<Arguments>.fullMessage(for: error))
      throw ArgumentsAnswer(text: text, isHelp: false, exitCode: code.rawValue)
    }
  }

  /// `-5`, `-33.86`: a word ArgumentParser takes for an option.
  private static func isNegativeNumber(_ word: String) -> Bool {
    word.count > 1 && word.hasPrefix("-") && Double(word) != nil
  }

  /// The usage line, as help lists it and errors end with: `pay <loan> [--future]`.
  public var usage: String { named(Named<Arguments>.usageString()) }

  /// The help that `--help` shows: `OVERVIEW:`, `USAGE:`, the arguments and options, each
  /// with its own help, as ArgumentParser lays them out.
  public var help: String {
    Self.wrapped("OVERVIEW: \(abstract)") + "\n\n" + named(Named<Arguments>.helpMessage())
  }

  /// Text in lines of 80 columns at most, broken at spaces, as ArgumentParser wraps its own.
  static func wrapped(_ text: String, width: Int = 80) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, DisplayWidth.width(of: line) + 1 + DisplayWidth.width(of: word) > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return (lines + [line]).joined(separator: "\n")
  }

  /// The options and flags the arguments take (`--vendor`, `--future`), long names, for Tab
  /// to offer; `--help` not among them.
  public var options: [String] {
    // The public form of ArgumentParser's model of the arguments: the JSON of its tools.
    let json = Data(Named<Arguments>._dumpHelp().utf8)
    guard let tool = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
      let command = tool["command"] as? [String: Any],
      let arguments = command["arguments"] as? [[String: Any]]
    else { return [] }
    return arguments.flatMap { argument -> [String] in
      guard argument["kind"] as? String != "positional",
        argument["shouldDisplay"] as? Bool ?? true,
        let names = argument["names"] as? [[String: Any]]
      else { return [] }
      return names.compactMap { name in
        guard name["kind"] as? String == "long", let text = name["name"] as? String,
          text != "help"
        else { return nil }
        return "--" + text
      }
    }
  }

  private func named(_ text: String) -> String {
    var text = text.replacingOccurrences(of: placeholder, with: name)
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}

/// What ArgumentParser answered instead of arguments (``NamedArguments/parse(_:)``): a
/// refusal (`Error: …` with the usage), or the help that `--help` or `-h` asked for.
public struct ArgumentsAnswer: Error, CustomStringConvertible {
  /// The text, as ArgumentParser writes it, without a final newline.
  public let text: String
  /// Whether it is help asked for (`--help`), not a refusal.
  public let isHelp: Bool
  /// The status a program exits with for it, as ekctl does: 0 for help, 64 (`EX_USAGE`)
  /// for a refusal.
  public let exitCode: Int32

  public var description: String { text }
}

/// The arguments of a command that takes none: any word is refused, with the usage.
///
/// ```swift
/// let loans = NamedArguments(NoArguments.self, name: "loans", abstract: "Lists the loans.")
/// do { _ = try loans.parse(["all"]) } catch { print(error.text) }
/// // Error: Unexpected argument 'all'
/// // Usage: loans
/// //   See 'loans --help' for more information.
/// ```
public struct NoArguments: ParsableArguments {
  public init() {}
}

/// The name ArgumentParser writes where the command's name goes, replaced in every text: one
/// character that no usage, help or message has otherwise, and no space (text is wrapped at
/// spaces).
private let placeholder = "\u{1}"

/// A command of ArgumentParser's named with the placeholder, over the arguments.
private struct Named<Arguments: ParsableArguments>: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(commandName: placeholder)
  }

  @OptionGroup var arguments: Arguments
}
