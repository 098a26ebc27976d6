/// Properties and components as unfolded content lines, one string each: a compact, readable
/// form for keeping iCalendar content a program does not model (a store's column, a log).
extension ICalendarProperty {
  /// The property as one unfolded content line, `NAME;PARAM=value:value`.
  public var contentLine: String {
    var writer = ICalendarWriter(folding: false)
    writer.write(self)
    return String(decoding: writer.bytes.dropLast(2), as: UTF8.self)
  }

  /// Reads one unfolded content line.
  public init(contentLine: String) throws(ICalendarParseError) {
    guard let property = try ContentLineParser.property(inLine: Array(contentLine.utf8)) else {
      throw ICalendarParseError(line: 1, reason: "an empty content line")
    }
    self = property
    line = 0
  }
}

extension ICalendarComponent {
  /// The component as unfolded content lines, its BEGIN and END included.
  public var contentLines: [String] {
    var writer = ICalendarWriter(folding: false)
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
      .split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// Reads a component from the lines ``contentLines`` gives.
  public init(contentLines: [String]) throws(ICalendarParseError) {
    let text = (["BEGIN:VCALENDAR"] + contentLines + ["END:VCALENDAR"]).joined(separator: "\r\n")
    guard let component = try ICalendarDocument(parsing: text).calendars.first?.components.first
    else {
      throw ICalendarParseError(line: 1, reason: "no component in the lines")
    }
    self = component
    self.clearLines()
  }

  private mutating func clearLines() {
    line = 0
    for index in properties.indices { properties[index].line = 0 }
    for index in components.indices { components[index].clearLines() }
  }
}
