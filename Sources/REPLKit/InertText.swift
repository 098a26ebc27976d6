/// Text from data (an event's title, a calendar's name, a server's message) as it may reach a
/// terminal: every character that would act on the terminal instead of being shown is
/// written out visibly, as `\u{…}` with its code point in hexadecimal.
///
/// A calendar item's fields come from anywhere: an .ics file, a CalDAV server, another app.
/// Written raw, an ESC starts a command (`ESC[2J` clears the screen, OSC 52 writes the
/// clipboard, OSC 0 sets the window's title, OSC 8 makes a link say what it does not go to),
/// C1 controls (U+009B is a CSI of its own) do the same on terminals that read them, and bidi
/// overrides (U+202E) make text read in another order than it is stored, so that a title
/// can pass for another. Every program of the package writes data to a terminal through this
/// one rule; `--json` output is the data exact and does not.
///
/// Shown as `\u{…}` (one convention for every class, the one Swift uses):
///
/// - the C0 controls U+0000...U+001F (ESC, BEL, CR, tab and the others), DEL U+007F and the
///   C1 controls U+0080...U+009F;
/// - the bidi controls: the marks U+200E, U+200F and U+061C, the embeddings and overrides
///   U+202A...U+202E and the isolates U+2066...U+2069.
///
/// Line feeds are shown too by ``of(_:)``, for a value on one line (a title in a table, where
/// a line feed could forge a row of its own); ``keepingLineBreaks(_:)`` keeps them (and a CR
/// LF pair as one line feed) for a multi-line field (notes, a message), whose lines the
/// caller indents. Everything else — letters of every script, emoji and their joiners,
/// combining marks — is left as it is.
///
/// Measure and pad the inert form, not the data: ``DisplayWidth`` gives a control no
/// columns, and its visible form six or more.
///
/// ```swift
/// InertText.of("Standup\u{1B}[2J")              // #"Standup\u{1B}[2J"#
/// InertText.of("Lunch\u{202E}gnitteem")        // #"Lunch\u{202E}gnitteem"#
/// InertText.of("two\nlines")                   // #"two\u{A}lines"#
/// InertText.keepingLineBreaks("two\r\nlines")  // "two\nlines"
/// InertText.of("Gâteau 🍰 d'été")               // "Gâteau 🍰 d'été", unchanged
/// ```
public enum InertText {
  /// `text` on one line, with every control and bidi character written as `\u{…}`: line
  /// feeds too.
  ///
  /// - Parameter text: Text from data.
  /// - Returns: The text, unchanged when it holds none of them.
  public static func of(_ text: some StringProtocol) -> String {
    shown(String(text), keepingLineBreaks: false)
  }

  /// `text` with every control and bidi character written as `\u{…}`, except its line
  /// breaks: a line feed, or a CR LF pair, is one line feed.
  ///
  /// - Parameter text: A multi-line field from data (notes), or a message.
  /// - Returns: The text, unchanged when it holds none of them but line feeds.
  public static func keepingLineBreaks(_ text: some StringProtocol) -> String {
    shown(String(text), keepingLineBreaks: true)
  }

  /// Whether a terminal would act on `scalar` rather than show it (or reorder what follows):
  /// what ``of(_:)`` writes as `\u{…}`.
  public static func isActive(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// What a ``Console`` writes: `text` inert but for its line breaks and, when `colours`,
  /// the colour codes its ``TerminalStyle`` writes (bold, dim, underline, inverse, red,
  /// green, yellow, a colour by its components, and the reset), no other.
  ///
  /// The console's safety net: a view makes each value inert where it puts it in its text,
  /// on one line; a sentence a command prints with a name in it is made inert here, and a
  /// data value holding one of those codes can at most colour it: never clear, move, title,
  /// link, reorder, or conceal (SGR 8) what follows.
  static func keepingStyle(_ text: String, colours: Bool) -> String {
    shown(text, keepingLineBreaks: true, keepingColours: colours)
  }

  private static func shown(
    _ text: String, keepingLineBreaks: Bool, keepingColours: Bool = false
  ) -> String {
    // Most text holds none: returned as it is, found so by its bytes, without decoding.
    guard mayHoldActive(text) else { return text }
    let scalars = text.unicodeScalars
    guard scalars.contains(where: { isActive($0) && !(keepingLineBreaks && $0 == "\n") }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let scalar = scalars[index]
      if keepingColours, scalar == "\u{1B}", let end = colourCodeEnd(scalars, from: index) {
        result.append(contentsOf: scalars[index..<end])
        index = end
        continue
      }
      index = scalars.index(after: index)
      if keepingLineBreaks {
        if scalar == "\n" {
          result.append(scalar)
          continue
        }
        if scalar == "\r", index != scalars.endIndex, scalars[index] == "\n" {
          result.append("\n")
          index = scalars.index(after: index)
          continue
        }
      }
      if isActive(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result.append(contentsOf: "\\u{\(hex)}".unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `text` may hold a character ``isActive(_:)`` answers true for, from its UTF-8
  /// bytes: C0 controls and DEL are bytes of their own, the C1 controls start with 0xC2,
  /// U+061C with 0xD8 and the other bidi controls with 0xE2. A byte scan is several times
  /// faster than decoding scalars, and `ekctl events` runs this for each line it prints.
  private static func mayHoldActive(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for byte in bytes
      where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
        return true
      }
      return false
    }
  }

  /// The end of the colour code of ``TerminalStyle`` (`ESC [ 0-9; m`) that starts at
  /// `start`, if one does.
  private static func colourCodeEnd(
    _ scalars: String.UnicodeScalarView, from start: String.Index
  ) -> String.Index? {
    var index = scalars.index(after: start)
    guard index != scalars.endIndex, scalars[index] == "[" else { return nil }
    index = scalars.index(after: index)
    var parameters = ""
    while index != scalars.endIndex {
      let scalar = scalars[index]
      if scalar == "m" {
        return isStyleCode(parameters) ? scalars.index(after: index) : nil
      }
      guard scalar == ";" || ("0"..."9").contains(scalar), parameters.count < 20 else {
        return nil
      }
      parameters.unicodeScalars.append(scalar)
      index = scalars.index(after: index)
    }
    return nil
  }

  /// Whether `parameters` are those of a code ``TerminalStyle`` writes: `0`, `1`, `2`, `4`,
  /// `7`, `31`, `32`, `33`, `38;5;N` or `38;2;R;G;B`.
  private static func isStyleCode(_ parameters: String) -> Bool {
    if ["0", "1", "2", "4", "7", "31", "32", "33"].contains(parameters) { return true }
    let parts = parameters.split(separator: ";", omittingEmptySubsequences: false)
    let bytes = parts.dropFirst(2).allSatisfy { UInt8($0) != nil }
    return parts.count == 3 && parts[0] == "38" && parts[1] == "5" && bytes
      || parts.count == 5 && parts[0] == "38" && parts[1] == "2" && bytes
  }
}
