/// A component (RFC 5545 §3.4, §3.6): VCALENDAR, VEVENT, VTODO, VALARM, VTIMEZONE, its
/// STANDARD and DAYLIGHT observances, or any other, with its properties in the order they
/// were written and the components inside it.
///
/// A value type, copied on write. Its contents live in a reference that releases the tree
/// below it without recursion, so dropping a tree cannot exhaust the stack however deep it
/// is (a program can build any depth; reading stops at ``ICalendarDocument/maximumDepth``).
public struct ICalendarComponent: Sendable {
  private var storage: Storage

  public init(
    name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [],
    line: Int = 0
  ) {
    storage = Storage(
      name: name.uppercased(), properties: properties, components: components, line: line)
  }

  /// The name in upper case.
  public var name: String {
    get { storage.name }
    set { unique().name = newValue }
  }

  public var properties: [ICalendarProperty] {
    get { storage.properties }
    _modify { yield &unique().properties }
    set { unique().properties = newValue }
  }

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
  public static func == (lhs: ICalendarComponent, rhs: ICalendarComponent) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return lhs.name == rhs.name && lhs.properties == rhs.properties
      && lhs.components == rhs.components
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(properties)
    hasher.combine(components)
  }
}
