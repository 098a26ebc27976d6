import ICalendar

/// The properties of one VEVENT or VTODO, sorted by name in one pass for the reader
/// (``ICalendarItemReader``), which asks for some twenty names an item.
///
/// Asking the component itself walks every property and compares names as strings for each
/// name asked, found or not (about 770 instructions a lookup on a 14-property event, a tenth
/// of reading it). Here each property's name is matched once (``Name/of(_:)``), and the
/// reader's lookups are array reads.
struct ItemProperties {
  /// The names the reader maps to the store's columns, and `other` for every other name.
  enum Name: UInt8, CaseIterable {
    case uid, summary, description, location, geo, url, created, lastModified, dtstamp
    case sequence, dtstart, dtend, duration, due, completed, priority, status, transp
    case busyStatus, rrule, rdate, exdate, recurrenceId, attendee, organizer
    case other

    /// Each name as written (names are kept in upper case); one table, the only place the
    /// reader spells them.
    static let table: [String: Name] = [
      "UID": .uid, "SUMMARY": .summary, "DESCRIPTION": .description, "LOCATION": .location,
      "GEO": .geo, "URL": .url, "CREATED": .created, "LAST-MODIFIED": .lastModified,
      "DTSTAMP": .dtstamp, "SEQUENCE": .sequence, "DTSTART": .dtstart, "DTEND": .dtend,
      "DURATION": .duration, "DUE": .due, "COMPLETED": .completed, "PRIORITY": .priority,
      "STATUS": .status, "TRANSP": .transp, "X-MICROSOFT-CDO-BUSYSTATUS": .busyStatus,
      "RRULE": .rrule, "RDATE": .rdate, "EXDATE": .exdate, "RECURRENCE-ID": .recurrenceId,
      "ATTENDEE": .attendee, "ORGANIZER": .organizer,
    ]

    /// ``table`` by the names' lengths in UTF-8: a name read is compared with the few of its
    /// length (equal names compare at once), which costs less than hashing it.
    private static let byLength: [[(String, Name)]] = {
      let longest = table.keys.map(\.utf8.count).max() ?? 0
      var lists = [[(String, Name)]](repeating: [], count: longest + 1)
      for (text, name) in table { lists[text.utf8.count].append((text, name)) }
      return lists
    }()

    /// The name a property's name is, `other` for one the reader does not map.
    static func of(_ text: String) -> Name {
      let length = text.utf8.count
      guard length < byLength.count else { return .other }
      for (candidate, name) in byLength[length] where candidate == text { return name }
      return .other
    }
  }

  /// A set of names, as one bit each.
  struct Names {
    fileprivate let bits: UInt32

    init(_ names: [Name]) { bits = names.reduce(0) { $0 | 1 << $1.rawValue } }

    func contains(_ name: Name) -> Bool { bits & 1 << name.rawValue != 0 }
  }

  /// The properties in the order they were written.
  let all: [ICalendarProperty]
  /// The name of each, by position.
  private let names: [Name]
  /// The position of the first property of each name, by the name's raw value; -1 for none.
  private let firsts: [Int32]

  init(_ component: ICalendarComponent) {
    all = component.properties
    var names: [Name] = []
    names.reserveCapacity(all.count)
    var firsts = [Int32](repeating: -1, count: Name.allCases.count)
    for position in all.indices {
      let name = Name.of(all[position].name)
      names.append(name)
      if firsts[Int(name.rawValue)] < 0 { firsts[Int(name.rawValue)] = Int32(position) }
    }
    self.names = names
    self.firsts = firsts
  }

  /// The first property of this name, as ``ICalendarComponent/property(_:)`` finds it.
  subscript(name: Name) -> ICalendarProperty? {
    let position = firsts[Int(name.rawValue)]
    return position < 0 ? nil : all[Int(position)]
  }

  /// Every property of this name, in order.
  func every(_ name: Name) -> [ICalendarProperty] {
    let first = firsts[Int(name.rawValue)]
    guard first >= 0 else { return [] }
    return all.indices[Int(first)...].filter { names[$0] == name }.map { all[$0] }
  }

  /// Every property of one of these names, in order.
  func every(of chosen: Names) -> [ICalendarProperty] {
    all.indices.filter { chosen.contains(names[$0]) }.map { all[$0] }
  }

  /// Every property whose name is not among `columns`, in order: what an item keeps as
  /// written.
  func others(than columns: Names) -> [ICalendarProperty] {
    all.indices.filter { !columns.contains(names[$0]) }.map { all[$0] }
  }
}
