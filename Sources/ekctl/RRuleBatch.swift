import Foundation
import OpenEventKit

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
    var output = Output()
    while let line = readLine(strippingNewline: true) {
      answer(line, decoder: decoder, to: &output)
      output.append("\n")
    }
    output.flush()
  }

  /// Standard output, written in pieces of 64 KiB: an answer of ten million instances is
  /// written as it is made, never held whole.
  struct Output {
    private var text = ""

    mutating func append(_ piece: String) {
      text += piece
      if text.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
      FileHandle.standardOutput.write(Data(text.utf8))
      text = ""
    }
  }

  /// Answers one case as one JSON line (without its newline): its instances, or an error.
  static func answer(_ line: String, decoder: JSONDecoder, to output: inout Output) {
    let input: Case
    do {
      input = try decoder.decode(Case.self, from: Data(line.utf8))
    } catch {
      output.append(
        errorLine("the line is not a JSON case with a \"dtstart\" string: \(line.prefix(80))"))
      return
    }
    let request = RRuleRequest(
      dtstart: input.dtstart, tzid: input.tzid,
      rules: (input.rule.map { [$0] } ?? []) + (input.rules ?? []),
      limit: input.limit ?? 1000, from: input.from, to: input.to,
      rdates: input.rdate?.joined(separator: ","), exdates: input.exdate?.joined(separator: ","))
    do {
      let instances = try request.instances()
      var json = JSONWriter()
      json.beginObject()
      json.key("occurrences")
      json.beginArray()
      for instance in instances {
        json.string(instance)
        output.append(json.takeText())  // as it is made: never held whole
      }
      json.endArray()
      json.endObject()
      output.append(json.takeText())
    } catch {
      output.append(errorLine(error.message))
    }
  }

  private static func errorLine(_ message: String) -> String {
    JSONWriter.object { $0.member("error", message) }
  }
}
