/// A component (RFC 5545 §3.4, §3.6): VCALENDAR, VEVENT, VTODO, VALARM, VTIMEZONE, its
/// STANDARD and DAYLIGHT observances, or any other, with its properties in the order they
/// were written and the components inside it.
public struct ICalendarComponent: Sendable {
  /// The name in upper case.
  public var name: String
  public var properties: [ICalendarProperty]
  public var components: [ICalendarComponent]
  /// The line of its BEGIN in the source; 0 for a component built in code.
  public var line: Int

  public init(
    name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [],
    line: Int = 0
  ) {
    self.name = name.uppercased()
    self.properties = properties
    self.components = components
    self.line = line
  }

  /// The first property with this (upper-case) name.
  public func property(_ name: String) -> ICalendarProperty? {
    properties.first { $0.name == name }
  }

  /// Every property with this (upper-case) name, in order.
  public func properties(named name: String) -> [ICalendarProperty] {
    properties.filter { $0.name == name }
  }

  /// The components inside with this (upper-case) name, in order.
  public func components(named name: String) -> [ICalendarComponent] {
    components.filter { $0.name == name }
  }

  public mutating func append(_ property: ICalendarProperty) { properties.append(property) }
}

extension ICalendarComponent: Hashable {
  public static func == (lhs: ICalendarComponent, rhs: ICalendarComponent) -> Bool {
    lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.components == rhs.components
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(properties)
    hasher.combine(components)
  }
}
