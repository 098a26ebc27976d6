import ICalendar
import Testing

/// Every recurrence example of RFC 5545 §3.8.5.3 gives exactly the instances the RFC lists.
@Suite struct RFC5545ExamplesTests {
  @Test(arguments: rfc5545Examples)
  func example(_ example: RFCExample) throws {
    let instances = try expand(
      example.rules, dtstart: example.dtstart, tzid: example.tzid, limit: example.limit,
      from: example.from, to: example.to)
    #expect(instances == example.expected, "\(example.name)")
  }

  @Test func everyExampleIsPresent() {
    // 39 examples in the RFC; three give two equivalent rules each.
    #expect(rfc5545Examples.count == 42)
  }
}

extension RFCExample: CustomTestStringConvertible {
  var testDescription: String { "\(name) [\(rules.joined(separator: " | "))]" }
}
