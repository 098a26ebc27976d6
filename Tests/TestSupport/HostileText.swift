/// Text that would act on a terminal if written raw (issue 42): escape sequences that clear
/// the screen, write the clipboard, set the window's title and fake a link, the C1 controls
/// that do the same in one character, and a bidi override. The tests put it in titles, places,
/// notes and calendars' names, and check that every program shows it inert.
public enum HostileText {
  /// ESC [ 2 J: clears the screen.
  public static let clearScreen = "\u{1B}[2J"
  /// OSC 52: writes "echo pwned" to the clipboard.
  public static let clipboard = "\u{1B}]52;c;ZWNobyBwd25lZA==\u{7}"
  /// OSC 0: sets the window's title.
  public static let windowTitle = "\u{1B}]0;owned\u{7}"
  /// OSC 8: a link that shows "bank" and goes elsewhere.
  public static let link = "\u{1B}]8;;https://evil.example/\u{7}bank\u{1B}]8;;\u{7}"
  /// U+009B, CSI in one character: clears the screen on terminals that read C1.
  public static let c1ControlSequence = "\u{9B}2J"
  /// U+009D, OSC in one character, ended by U+009C.
  public static let c1Command = "\u{9D}0;owned\u{9C}"
  /// U+202E: the rest of the line is shown right to left.
  public static let override = "\u{202E}gnitteem"

  /// Every sequence above, one after the other.
  public static let all =
    clearScreen + clipboard + windowTitle + link + c1ControlSequence + c1Command + override

  /// `text` as the programs show it: each control and bidi character as `\u{…}`.
  public static func shown(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if isActive(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The characters of `output` a terminal would act on, line feeds aside: none, once data
  /// is shown inert. Stated here apart from the programs' own rule (REPLKit's `InertText`).
  public static func activeCharacters(in output: String) -> [String] {
    output.unicodeScalars.filter { $0 != "\n" && isActive($0) }.map {
      "U+" + String($0.value, radix: 16, uppercase: true)
    }
  }

  private static func isActive(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
      true
    default: false
    }
  }
}
