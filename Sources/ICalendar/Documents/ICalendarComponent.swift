/// A component (RFC 5545 §3.4, §3.6): VCALENDAR, VEVENT, VTODO, VALARM, VTIMEZONE, its
/// STANDARD and DAYLIGHT observances, or any other, with its properties in the order they
/// were written and the components inside it.
///
/// A value type, copied on write. Its contents live in a reference that releases the tree
/// below it without recursion, so dropping a tree cannot exhaust the stack however deep it
/// is (a program can build any depth; reading stops at ``ICalendarDocument/maximumDepth``).
///
/// Lookups take names in upper case, as names are kept.
///
/// ```swift
/// var alarm = ICalendarComponent(name: "VALARM")
/// alarm.append(ICalendarProperty(name: "ACTION", value: "DISPLAY"))
/// alarm.append(ICalendarProperty(name: "TRIGGER", value: "-PT15M"))
///
/// let event = ICalendarComponent(
///   name: "VEVENT",
///   properties: [
///     ICalendarProperty(name: "UID", value: "42@example.com"),
///     ICalendarProperty(name: "SUMMARY", text: "Dentist"),
///   ],
///   components: [alarm])
///
/// print(event.property("SUMMARY")?.textValue ?? "")  // Dentist
/// print(try event.components(named: "VALARM")[0].property("TRIGGER")!.durationValue().text)
/// // -PT15M
/// ```
public struct ICalendarComponent: Sendable {
  private var storage: Storage

  /// A component built in code.
  ///
  /// ```swift
  /// let alarm = ICalendarComponent(
  ///   name: "valarm",
  ///   properties: [
  ///     ICalendarProperty(name: "ACTION", value: "DISPLAY"),
  ///     ICalendarProperty(name: "TRIGGER", value: "-PT10M"),
  ///   ])
  /// print(alarm.name)  // VALARM
  /// print(alarm.properties.count)  // 2
  /// ```
  ///
  /// - Parameters:
  ///   - name: The component's name (`VEVENT`), in any case; it is kept in upper case.
  ///   - properties: Its properties, in the order to write them.
  ///   - components: The components inside it (a VEVENT's VALARMs), in order.
  ///   - line: The line of its BEGIN in a source; 0 for a component built in code.
  public init(
    name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [],
    line: Int = 0
  ) {
    storage = Storage(
      name: ICalendarText.upperCaseName(name), properties: properties, components: components,
      line: line)
  }

  /// The name in upper case.
  public var name: String {
    get { storage.name }
    set { unique().name = newValue }
  }

  /// The properties, in the order they were written or appended; names may repeat
  /// (ATTENDEE, EXDATE).
  public var properties: [ICalendarProperty] {
    get { storage.properties }
    _modify { yield &unique().properties }
    set { unique().properties = newValue }
  }

  /// The components directly inside this one, in order (a VCALENDAR's VEVENTs, an event's
  /// VALARMs).
  public var components: [ICalendarComponent] {
    get { storage.components }
    _modify { yield &unique().components }
    set { unique().components = newValue }
  }

  /// The line of its BEGIN in the source; 0 for a component built in code.
  public var line: Int {
    get { storage.line }
    set { unique().line = newValue }
  }

  /// The first property with this (upper-case) name.
  ///
  /// ```swift
  /// var event = ICalendarComponent(name: "VEVENT")
  /// event.append(ICalendarProperty(name: "SUMMARY", text: "Standup"))
  /// print(event.property("SUMMARY")?.textValue ?? "none")  // Standup
  /// print(event.property("LOCATION")?.textValue ?? "none")  // none
  /// ```
  ///
  /// - Parameter name: The property's name in upper case (`DTSTART`).
  /// - Returns: The first property of that name, or nil when there is none.
  public func property(_ name: String) -> ICalendarProperty? {
    properties.first { $0.name == name }
  }

  /// Every property with this (upper-case) name, in order.
  ///
  /// ```swift
  /// var event = ICalendarComponent(name: "VEVENT")
  /// event.append(ICalendarProperty(name: "ATTENDEE", value: "mailto:ann@example.com"))
  /// event.append(ICalendarProperty(name: "ATTENDEE", value: "mailto:bob@example.com"))
  /// print(event.properties(named: "ATTENDEE").map(\.value))
  /// // ["mailto:ann@example.com", "mailto:bob@example.com"]
  /// ```
  ///
  /// - Parameter name: The property's name in upper case (`ATTENDEE`).
  /// - Returns: The properties of that name, empty when there are none.
  public func properties(named name: String) -> [ICalendarProperty] {
    properties.filter { $0.name == name }
  }

  /// The components inside with this (upper-case) name, in order.
  ///
  /// ```swift
  /// let calendar = ICalendarComponent(
  ///   name: "VCALENDAR",
  ///   components: [
  ///     ICalendarComponent(name: "VEVENT"), ICalendarComponent(name: "VTODO"),
  ///     ICalendarComponent(name: "VEVENT"),
  ///   ])
  /// print(calendar.components(named: "VEVENT").count)  // 2
  /// ```
  ///
  /// - Parameter name: The component's name in upper case (`VEVENT`).
  /// - Returns: The components directly inside this one with that name; not their
  ///   descendants.
  public func components(named name: String) -> [ICalendarComponent] {
    components.filter { $0.name == name }
  }

  /// Adds a property after the others.
  ///
  /// ```swift
  /// var todo = ICalendarComponent(name: "VTODO")
  /// todo.append(ICalendarProperty(name: "UID", value: "7@example.com"))
  /// todo.append(ICalendarProperty(name: "SUMMARY", text: "Buy milk"))
  /// print(todo.properties.map(\.name))  // ["UID", "SUMMARY"]
  /// ```
  ///
  /// - Parameter property: The property to add.
  public mutating func append(_ property: ICalendarProperty) { properties.append(property) }

  /// The storage, copied first when another value shares it.
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) {
      storage = Storage(
        name: storage.name, properties: storage.properties, components: storage.components,
        line: storage.line)
    }
    return storage
  }

  /// What a component holds. Only ``ICalendarComponent`` reaches it, and it copies it before
  /// any change while another value shares it, so no two threads ever change one storage:
  /// that is what makes the unchecked `Sendable` true.
  private final class Storage: @unchecked Sendable {
    var name: String
    var properties: [ICalendarProperty]
    var components: [ICalendarComponent]
    var line: Int

    init(
      name: String, properties: [ICalendarProperty], components: [ICalendarComponent], line: Int
    ) {
      self.name = name
      self.properties = properties
      self.components = components
      self.line = line
    }

    /// Releasing the children the ordinary way releases theirs from inside their release, one
    /// stack frame per level: a tree tens of thousands of levels deep overflows the stack.
    /// Instead the descendants no other value holds are emptied one at a time from a list,
    /// so each is released with no children left, whatever the depth.
    deinit {
      guard !components.isEmpty else { return }
      var pending = components
      components = []
      while var component = pending.popLast() {
        guard isKnownUniquelyReferenced(&component.storage) else { continue }
        pending += component.storage.components
        component.storage.components = []
      }
    }
  }
}

extension ICalendarComponent: Hashable {
  /// Two components are equal when they have the same name, properties and components, in
  /// the same order; where they were read (``line``) does not matter.
  ///
  /// - Parameters:
  ///   - lhs: A component.
  ///   - rhs: Another component.
  /// - Returns: Whether the two say the same.
  public static func == (lhs: ICalendarComponent, rhs: ICalendarComponent) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return lhs.name == rhs.name && lhs.properties == rhs.properties
      && lhs.components == rhs.components
  }

  /// Hashes the name, properties and components, as `==` compares them; not the line.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(properties)
    hasher.combine(components)
  }
}
