import ICalendar

/// The iCalendar content of an item that the store does not model, kept in its `extra`
/// column so that import → export → import loses nothing: properties as unfolded content
/// lines, unknown sub-components as their lines.
struct KeptContent: Decodable, Hashable, Sendable {
  var properties: [String] = []
  var components: [[String]] = []

  private enum CodingKeys: String, CodingKey {
    case properties = "p"
    case components = "c"
  }

  init(properties: [ICalendarProperty], components: [ICalendarComponent]) {
    self.properties = properties.map(\.contentLine)
    self.components = components.map(\.contentLines)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    properties = try container.decodeIfPresent([String].self, forKey: .properties) ?? []
    components = try container.decodeIfPresent([[String]].self, forKey: .components) ?? []
  }

  var isEmpty: Bool { properties.isEmpty && components.isEmpty }

  /// The column text, NULL when nothing is kept: the JSON that ``init(from:)`` reads.
  var columnText: String? { isEmpty ? nil : JSONColumn.text(self) }

  static func from(column text: String?) -> KeptContent {
    JSONColumn.value(KeptContent.self, from: text) ?? KeptContent(properties: [], components: [])
  }

  /// The RECURRENCE-ID line kept for an override imported without its series, by which an
  /// import of the same file finds it again. Names are kept in upper case; a property whose
  /// name only begins with RECURRENCE-ID is another property.
  var recurrenceIdLine: String? {
    properties.first { $0.hasPrefix("RECURRENCE-ID:") || $0.hasPrefix("RECURRENCE-ID;") }
  }

  /// The kept properties, read back; a line that no longer reads (never expected) is skipped.
  var keptProperties: [ICalendarProperty] {
    properties.compactMap { try? ICalendarProperty(contentLine: $0) }
  }

  var keptComponents: [ICalendarComponent] {
    components.compactMap { try? ICalendarComponent(contentLines: $0) }
  }
}

extension KeptContent: JSONColumnValue {
  func write(to json: inout JSONWriter) {
    json.beginObject()
    if !components.isEmpty {
      json.key("c")
      components.write(to: &json)
    }
    if !properties.isEmpty {
      json.key("p")
      properties.write(to: &json)
    }
    json.endObject()
  }
}
