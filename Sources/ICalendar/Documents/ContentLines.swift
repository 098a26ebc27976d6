/// Properties and components as unfolded content lines, one string each: a compact, readable
/// form for keeping iCalendar content a program does not model (a store's column, a log).
extension ICalendarProperty {
  /// The property as one unfolded content line, `NAME;PARAM=value:value`.
  public var contentLine: String {
    var line: [UInt8] = []
    line.reserveCapacity(name.utf8.count + value.utf8.count + 2)
    ICalendarWriter.append(self, to: &line)
    return String(decoding: line, as: UTF8.self)
  }

  /// Reads one unfolded content line, as ``contentLine`` writes it.
  ///
  /// ```swift
  /// let property = try ICalendarProperty(contentLine: #"SUMMARY;LANGUAGE=en:Tea\, biscuits"#)
  /// print(property.parameter("LANGUAGE") ?? "", property.textValue)  // en Tea, biscuits
  /// ```
  ///
  /// - Parameter contentLine: One content line with no fold in it; a line end after it is
  ///   dropped.
  /// - Throws: ``ICalendarParseError`` (at line 1) for an empty line, or for one that is not a
  ///   content line: no name, a parameter without `=`, an unclosed quote, no `:` before the
  ///   value, a NUL character, or more than ``ICalendarDocument/maximumLineLength`` bytes.
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
  ///
  /// ```swift
  /// var event = ICalendarComponent(name: "VEVENT")
  /// event.append(ICalendarProperty(name: "SUMMARY", text: "Standup"))
  /// let stored = event.contentLines  // ["BEGIN:VEVENT", "SUMMARY:Standup", "END:VEVENT"]
  /// let restored = try ICalendarComponent(contentLines: stored)
  /// print(restored == event)  // true
  /// ```
  ///
  /// - Parameter contentLines: The lines of one component, its BEGIN and END included, each
  ///   unfolded and without a line end.
  /// - Throws: ``ICalendarParseError`` when the lines are not a well-formed component (as
  ///   ``ICalendarDocument/init(parsing:)`` reads one) or hold none. Its line counts a
  ///   BEGIN:VCALENDAR put in front, so the first of `contentLines` is line 2.
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
