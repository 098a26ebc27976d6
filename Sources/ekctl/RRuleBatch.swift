import Foundation

/// `ekctl rrule --batch`: one JSON line in, one JSON line out, in order, so another
/// implementation can be checked against this one over thousands of rules in one run.
enum RRuleBatch {
  private struct Case: Decodable {
    var dtstart: String
    var tzid: String?
    var rule: String?
    var rules: [String]?
    var limit: Int?
    var from: String?
    var to: String?
    var rdate: [String]?
    var exdate: [String]?
  }

  static func run() {
    let decoder = JSONDecoder()
    var output = ""
    while let line = readLine(strippingNewline: true) {
      output += answer(line, decoder: decoder)
      output += "\n"
      if output.utf8.count > 1 << 16 {
        flush(&output)
      }
    }
    flush(&output)
  }

  private static func flush(_ output: inout String) {
    FileHandle.standardOutput.write(Data(output.utf8))
    output = ""
  }

  static func answer(_ line: String, decoder: JSONDecoder) -> String {
    let input: Case
    do {
      input = try decoder.decode(Case.self, from: Data(line.utf8))
    } catch {
      return errorLine("the line is not a JSON case with a \"dtstart\" string: \(line.prefix(80))")
    }
    let request = RRuleRequest(
      dtstart: input.dtstart, tzid: input.tzid,
      rules: (input.rule.map { [$0] } ?? []) + (input.rules ?? []),
      limit: input.limit ?? 1000, from: input.from, to: input.to,
      rdates: input.rdate?.joined(separator: ","), exdates: input.exdate?.joined(separator: ","))
    do {
      let instances = Array(try request.instances())
      return "{\"occurrences\":[" + instances.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    } catch {
      return errorLine(error.message)
    }
  }

  private static func errorLine(_ message: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
