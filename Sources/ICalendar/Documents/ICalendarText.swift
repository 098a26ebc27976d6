/// TEXT values (RFC 5545 §3.3.11) and parameter values (§3.2, RFC 6868): what must be escaped
/// to survive a content line, and how to read it back.
///
/// ``ICalendarProperty/init(name:parameters:text:)`` and ``ICalendarProperty/textValue`` use
/// these; call them directly for values built or read by hand.
///
/// ```swift
/// let escaped = ICalendarText.escape("Tea, biscuits; cake\nand more")
/// print(escaped)  // Tea\, biscuits\; cake\nand more
/// print(ICalendarText.unescape(escaped) == "Tea, biscuits; cake\nand more")  // true
///
/// let categories = ICalendarText.join(["Work", "Home, garden"])  // Work,Home\, garden
/// print(ICalendarText.split(categories).map(ICalendarText.unescape))  // ["Work", "Home, garden"]
/// ```
public enum ICalendarText {
  /// Escapes backslash, semicolon, comma and line breaks (`\\`, `\;`, `\,`, `\n`).
  ///
  /// A CR, an LF and a CR LF each become one `\n`.
  ///
  /// ```swift
  /// print(ICalendarText.escape("Bring: pens, paper; a\\b"))  // Bring: pens\, paper\; a\\b
  /// print(ICalendarText.escape("one\r\ntwo"))  // one\ntwo
  /// ```
  ///
  /// - Parameter text: The text as a person reads it.
  /// - Returns: The TEXT value to write in a content line (§3.3.11).
  public static func escape(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
          || $0 == 0x0A || $0 == 0x0D
      })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\r": result += "\\n"
      case "\n": if !previousWasCR { result += "\\n" }
      default: result.unicodeScalars.append(scalar)
      }
      previousWasCR = scalar == "\r"
    }
    return result
  }

  /// Decodes the escapes of a TEXT value. `\N` counts as `\n` (§3.3.11); a backslash before
  /// any other character, which some producers write (`\:`), keeps that character alone.
  ///
  /// A raw CR or CR LF in the value, which §3.3.11 allows no TEXT to hold but a reader keeps
  /// where it ends no line, reads as the line break it stands for, as ``escape(_:)`` writes
  /// it: text read from a file then comes back the same from the file written of it (an
  /// item's UID above all, by which an import finds what it updates).
  ///
  /// ```swift
  /// print(ICalendarText.unescape("Fish\\, chips\\; peas"))  // Fish, chips; peas
  /// print(ICalendarText.unescape("Line one\\NLine two") == "Line one\nLine two")  // true
  /// ```
  ///
  /// - Parameter text: A TEXT value as written in a content line.
  /// - Returns: The text it stands for.
  public static func unescape(_ text: some StringProtocol) -> String {
    var text = String(text)
    let unescaped = text.withUTF8 { source -> String? in
      guard source.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0x0D }) else {
        return nil
      }
      // Escapes and line breaks are ASCII: the bytes between them are copied as they are, so
      // the result is as valid UTF-8 as the text. It is never longer than the text.
      return String(unsafeUninitializedCapacity: source.count) { output in
        var count = 0
        var escaping = false
        var afterCR = false
        for byte in source {
          if afterCR {
            afterCR = false
            if byte == 0x0A { continue }  // the LF of a CR LF
          }
          var out = byte
          if byte == 0x0D {
            out = 0x0A
            escaping = false
            afterCR = true
          } else if escaping {
            if byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") { out = 0x0A }
            escaping = false
          } else if byte == UInt8(ascii: "\\") {
            escaping = true
            continue
          }
          output[count] = out
          count += 1
        }
        if escaping {
          output[count] = UInt8(ascii: "\\")
          count += 1
        }
        return count
      }
    }
    return unescaped ?? text
  }

  /// Text quoted in an error message: at most `limit` Unicode scalars of it, then "…" when
  /// there was more, with line breaks and other control characters written as escapes
  /// (`\r`, `\n`, `\u{0}`), so a message stays one short line whatever the input. Reads no
  /// further into the text than it quotes.
  ///
  /// ```swift
  /// print(ICalendarText.excerpt("first\nsecond"))  // first\nsecond
  /// print(ICalendarText.excerpt("abcdefghij", limit: 4))  // abcd…
  /// ```
  ///
  /// - Parameters:
  ///   - text: The input to quote.
  ///   - limit: The most Unicode scalars to keep; 80 by default.
  /// - Returns: The excerpt, safe to put in a one-line message.
  public static func excerpt(_ text: some StringProtocol, limit: Int = 80) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      guard count < limit else { return result + "…" }
      count += 1
      switch scalar.value {
      case 0x0D: result += "\\r"
      case 0x0A: result += "\\n"
      case 0x09: result += "\\t"
      case 0..<0x20, 0x7F: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Splits a list value at the commas that are not escaped, keeping the escapes.
  ///
  /// ```swift
  /// let parts = ICalendarText.split("Work,Home\\, garden,")
  /// print(parts)  // ["Work", "Home\\, garden", ""]
  /// print(parts.map(ICalendarText.unescape))  // ["Work", "Home, garden", ""]
  /// ```
  ///
  /// - Parameter text: A list of TEXT values as written (CATEGORIES, RESOURCES).
  /// - Returns: Each value, still escaped; pass each to ``unescape(_:)`` to read it. Text
  ///   with no comma gives one value, and empty text one empty value.
  public static func split(_ text: some StringProtocol) -> [Substring] {
    let text = Substring(text)
    var parts: [Substring] = []
    var start = text.startIndex
    var escaping = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text.unicodeScalars[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        parts.append(text[start..<index])
        start = text.unicodeScalars.index(after: index)
      }
      index = text.unicodeScalars.index(after: index)
    }
    parts.append(text[start...])
    return parts
  }

  /// A list of TEXT values, each escaped, joined with commas.
  ///
  /// ```swift
  /// let categories = ICalendarText.join(["Travel", "Paris, France"])
  /// print(categories)  // Travel,Paris\, France
  /// print(ICalendarProperty(name: "CATEGORIES", value: categories).textValues)
  /// // ["Travel", "Paris, France"]
  /// ```
  ///
  /// - Parameter values: The values as a person reads them.
  /// - Returns: The list value to write, which ``split(_:)`` splits back.
  public static func join(_ values: [String]) -> String {
    values.map(escape).joined(separator: ",")
  }

  /// A component, property or parameter name in upper case, as names are kept (§3.1: names
  /// are case-insensitive): the name itself when it has no lower-case letter, as nearly
  /// every name a file holds, since `uppercased()` makes a new string each time.
  static func upperCaseName(_ name: String) -> String {
    var name = name
    // A lower-case ASCII letter, or a byte of a non-ASCII character.
    let lower = name.withUTF8 { bytes in
      bytes.contains { $0 >= UInt8(ascii: "a") && ($0 <= UInt8(ascii: "z") || $0 >= 0x80) }
    }
    return lower ? name.uppercased() : name
  }

  /// Decodes RFC 6868's caret escapes in a parameter value: `^n` a line break, `^'` a double
  /// quote, `^^` a caret; a caret before anything else stays as it is. A raw CR or CR LF, which
  /// a reader keeps where it ends no line, is a line break too, as ``encodeParameter(_:)``
  /// writes it (`^n`).
  ///
  /// Both work on Unicode scalars, as RFC 6868 does and as the reader finds quotes and
  /// separators: a caret, quote or colon followed by a combining mark is one `Character` with
  /// it, and would otherwise be passed over.
  static func decodeParameter(_ text: String) -> String {
    // Nearly every value has nothing to decode. Its bytes are looked at where they lie (a
    // native string's are contiguous), much faster than through the UTF-8 view.
    func needsDecoding(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "^") || byte == 0x0D }
    let decodes =
      text.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsDecoding) }
      ?? text.utf8.contains(where: needsDecoding)
    guard decodes else { return text }
    var result = String.UnicodeScalarView()
    var caret = false
    var afterCR = false
    for scalar in text.unicodeScalars {
      if afterCR {
        afterCR = false
        if scalar == "\n" { continue }  // the LF of a CR LF
      }
      if caret {
        caret = false
        switch scalar {
        case "n":
          result.append("\n")
          continue
        case "'":
          result.append("\"")
          continue
        case "^":
          result.append("^")
          continue
        default:
          result.append("^")  // kept, and what follows it is read as itself
        }
      }
      if scalar == "\r" {
        result.append("\n")
        afterCR = true
      } else if scalar == "^" {
        caret = true
      } else {
        result.append(scalar)
      }
    }
    if caret { result.append("^") }
    return String(result)
  }

  /// A parameter value as written: caret-escaped (RFC 6868), and quoted when it holds a
  /// colon, semicolon or comma (§3.2).
  static func encodeParameter(_ value: String) -> String {
    var text = value
    if value.utf8.contains(where: {
      $0 == UInt8(ascii: "^") || $0 == 0x0A || $0 == UInt8(ascii: "\"") || $0 == 0x0D
    }) {
      var escaped = String.UnicodeScalarView()
      var afterCR = false
      for scalar in value.unicodeScalars {
        if afterCR {
          afterCR = false
          if scalar == "\n" { continue }  // one line break, written once
        }
        switch scalar {
        case "^": escaped.append(contentsOf: "^^".unicodeScalars)
        case "\n": escaped.append(contentsOf: "^n".unicodeScalars)
        case "\r":
          escaped.append(contentsOf: "^n".unicodeScalars)
          afterCR = true
        case "\"": escaped.append(contentsOf: "^'".unicodeScalars)
        default: escaped.append(scalar)
        }
      }
      text = String(escaped)
    }
    // Bytes, not Characters: a colon followed by a combining mark still ends a parameter.
    if text.utf8.contains(where: {
      $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
    }) {
      return "\"\(text)\""
    }
    return text
  }
}
