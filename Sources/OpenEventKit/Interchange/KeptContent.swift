import ICalendar

/// The iCalendar content of an item that the store does not model, kept in its `extra`
/// column so that import → export → import loses nothing: properties as unfolded content
/// lines, unknown sub-components as their lines.
struct KeptContent: Codable, Hashable, Sendable {
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

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if !properties.isEmpty { try container.encode(properties, forKey: .properties) }
    if !components.isEmpty { try container.encode(components, forKey: .components) }
  }

  var isEmpty: Bool { properties.isEmpty && components.isEmpty }

  /// The column text, NULL when nothing is kept: the JSON that ``init(from:)`` reads,
  /// written by hand because an import writes one per item and JSONEncoder costs more than
  /// the rest of reading the item.
  var columnText: String? {
    guard !isEmpty else { return nil }
    var text = "{"
    if !properties.isEmpty {
      text += "\"p\":[" + properties.map(JSONColumn.quoted).joined(separator: ",") + "]"
    }
    if !components.isEmpty {
      if !properties.isEmpty { text += "," }
      text +=
        "\"c\":["
        + components.map { "[" + $0.map(JSONColumn.quoted).joined(separator: ",") + "]" }
        .joined(separator: ",") + "]"
    }
    return text + "}"
  }

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
