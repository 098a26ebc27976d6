import Foundation
import MCP

/// A tool call's arguments, read against its schema: a name the schema does not have, a
/// value of the wrong type, a date that is not RFC 3339, a word outside its choices or a
/// missing required argument is a protocol error (JSON-RPC's invalid params, -32602), and the
/// call does nothing. What the store refuses is the tool's own error (``ToolFailure``).
struct ToolArguments {
  let tool: String
  private let values: [String: Value]

  init(tool: String, values: [String: Value]?, accepted: Set<String>) throws(MCPError) {
    self.tool = tool
    self.values = (values ?? [:]).filter { !$0.value.isNull }
    if let unknown = self.values.keys.sorted().first(where: { !accepted.contains($0) }) {
      throw MCPError.invalidParams(
        "\(tool) has no argument \"\(unknown)\"; it takes \(accepted.sorted().joined(separator: ", "))"
      )
    }
  }

  private func wrong(_ key: String, _ expected: String) -> MCPError {
    MCPError.invalidParams("\(tool): \"\(key)\" must be \(expected)")
  }

  func has(_ key: String) -> Bool { values[key] != nil }

  func string(_ key: String) throws(MCPError) -> String? {
    guard let value = values[key] else { return nil }
    guard let text = value.stringValue else { throw wrong(key, "a string") }
    return text
  }

  func required(_ key: String) throws(MCPError) -> String {
    guard let text = try string(key) else {
      throw MCPError.invalidParams("\(tool): \"\(key)\" is required")
    }
    return text
  }

  func int(_ key: String, in range: ClosedRange<Int>) throws(MCPError) -> Int? {
    guard let value = values[key] else { return nil }
    let number: Int? =
      value.intValue
      ?? value.doubleValue.flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
    guard let number, range.contains(number) else {
      throw wrong(key, "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  func bool(_ key: String) throws(MCPError) -> Bool? {
    guard let value = values[key] else { return nil }
    guard let flag = value.boolValue else { throw wrong(key, "true or false") }
    return flag
  }

  func strings(_ key: String) throws(MCPError) -> [String]? {
    guard let value = values[key] else { return nil }
    guard let array = value.arrayValue else { throw wrong(key, "an array of strings") }
    var texts: [String] = []
    for element in array {
      guard let text = element.stringValue else { throw wrong(key, "an array of strings") }
      texts.append(text)
    }
    return texts
  }

  func ints(_ key: String, in range: ClosedRange<Int>) throws(MCPError) -> [Int]? {
    guard let value = values[key] else { return nil }
    guard let array = value.arrayValue else { throw wrong(key, "an array of whole numbers") }
    var numbers: [Int] = []
    for element in array {
      guard let number = element.intValue, range.contains(number) else {
        throw wrong(
          key, "an array of whole numbers from \(range.lowerBound) to \(range.upperBound)")
      }
      numbers.append(number)
    }
    return numbers
  }

  func object(_ key: String) throws(MCPError) -> [String: Value]? {
    guard let value = values[key] else { return nil }
    guard let object = value.objectValue else { throw wrong(key, "an object") }
    return object
  }

  func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type)
    throws(MCPError) -> Choice? where Choice.RawValue == String
  {
    guard let text = try string(key) else { return nil }
    guard let choice = Choice(rawValue: text) else {
      throw wrong(
        key, "one of " + Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
    }
    return choice
  }

  /// The IANA zone named by `key`; nil when absent.
  func zone(_ key: String = "timeZone") throws(MCPError) -> TimeZone? {
    guard let name = try string(key) else { return nil }
    guard let zone = Times.zone(named: name) else {
      throw wrong(key, "an IANA time zone name such as \"Europe/Paris\" (not \"\(name)\")")
    }
    return zone
  }

  /// An instant: RFC 3339 with an offset, or a wall-clock time read on `zone` (the call's
  /// `timeZone`). A plain date is its midnight on `zone`.
  func instant(_ key: String, zone: TimeZone?) throws(MCPError) -> Date? {
    guard let text = try string(key) else { return nil }
    switch Times.read(text) {
    case .instant(let date): return date
    case .wallClock(let components), .day(let components):
      guard let zone else {
        throw MCPError.invalidParams(
          "\(tool): \"\(key)\" is \"\(text)\", a time without an offset; write it with one "
            + "(2026-03-02T09:00:00+01:00) or name the clock in \"timeZone\" (Europe/Paris)")
      }
      guard let date = Times.instant(components, in: zone) else { throw wrong(key, "a real time") }
      return date
    case nil:
      throw wrong(key, "an RFC 3339 date-time such as 2026-03-02T09:00:00+01:00 (not \"\(text)\")")
    }
  }

  func requiredInstant(_ key: String, zone: TimeZone?) throws(MCPError) -> Date {
    guard let date = try instant(key, zone: zone) else {
      throw MCPError.invalidParams("\(tool): \"\(key)\" is required")
    }
    return date
  }
}

/// A tool's own failure, answered as a result with `isError: true` (the agent reads it and
/// can act on it): the person's decision, an item that is not there, a call that must say
/// more (a span, a confirmation), or the store's refusal in the store's words.
struct ToolFailure: Error, Sendable {
  /// What kind of failure, for an agent to branch on: `access`, `notFound`, `needsSpan`,
  /// `needsConfirmation`, `invalid` (the store's validation), `nothingToUndo`, `cannotUndo`.
  let kind: String
  let message: String

  init(_ kind: String, _ message: String) {
    self.kind = kind
    self.message = message
  }
}
