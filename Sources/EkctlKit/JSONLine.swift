/// One JSON object on one line, its keys in the order they are added (JSON Lines output that
/// reads well and diffs well).
package struct JSONLine {
  private var fields: [String] = []

  package init() {}

  package mutating func add(_ key: String, _ value: String?) {
    fields.append(JSONLine.quoted(key) + ":" + (value.map(JSONLine.quoted) ?? "null"))
  }

  package mutating func add(_ key: String, _ value: Bool) {
    fields.append(JSONLine.quoted(key) + ":" + (value ? "true" : "false"))
  }

  package mutating func add(_ key: String, _ value: Int) {
    fields.append(JSONLine.quoted(key) + ":" + String(value))
  }

  package var text: String { "{" + fields.joined(separator: ",") + "}" }

  /// A JSON string literal (RFC 8259 §7).
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let control where control.value < 0x20:
        result +=
          "\\u"
          + String(String(control.value, radix: 16).leftPadded(4).map { $0 == " " ? "0" : $0 })
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
