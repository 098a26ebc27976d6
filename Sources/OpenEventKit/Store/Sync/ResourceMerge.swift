import Foundation
import ICalendar

/// Three-way merge of one CalDAV resource, when a push finds the server's version changed
/// since the last sync (a 412 to `If-Match`): the local version and the server's are compared
/// with the base (what the server had at the last sync), component by component (a series
/// and each of its overrides, by RECURRENCE-ID) and property by property.
///
/// A property changed on one side only takes that side's value; changed on both sides to the
/// same value, that value. Changed on both sides to different values is a conflict: the
/// server's version wins whole, and the caller keeps the local one as a copy (<doc:Sync>).
/// Properties every writer rewrites (DTSTAMP, LAST-MODIFIED, SEQUENCE, CREATED, PRODID) are
/// not compared; the merged SEQUENCE is the higher of the two (RFC 5545 §3.8.7.4).
package enum ResourceMerge {
  package enum Outcome: Equatable {
    /// The two versions say the same: nothing to send.
    case same
    /// The merged resource, to send in place of the server's.
    case merged(Data)
    /// Both changed the same property differently.
    case conflict(properties: [String])
  }

  /// Properties not compared: stamps each writer sets anew.
  static let volatile: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "CREATED"]

  package static func merge(base: Data?, local: Data, server: Data) -> Outcome {
    guard let localDocument = try? ICalendarDocument(parsing: [UInt8](local)),
      let serverDocument = try? ICalendarDocument(parsing: [UInt8](server))
    else { return .conflict(properties: ["(unreadable)"]) }
    let baseDocument = base.flatMap { try? ICalendarDocument(parsing: [UInt8]($0)) }
    let localItems = items(localDocument)
    let serverItems = items(serverDocument)
    let baseItems = baseDocument.map(items) ?? [:]
    if localItems.mapValues(\.fields) == serverItems.mapValues(\.fields) { return .same }

    var conflicts: [String] = []
    var merged: [String: Item] = [:]
    for key in Set(localItems.keys).union(serverItems.keys) {
      let local = localItems[key]
      let server = serverItems[key]
      let base = baseItems[key]
      switch (local, server) {
      case (let local?, let server?):
        var item = server
        for name in Set(local.fields.keys).union(server.fields.keys) {
          let mine = local.fields[name]
          let theirs = server.fields[name]
          let was = base?.fields[name]
          if mine == theirs || mine == was { continue }
          if theirs == was {
            item.fields[name] = mine
          } else {
            conflicts.append("\(local.component.name) \(name)")
          }
        }
        merged[key] = item
      case (let local?, nil):
        // Removed on the server: gone unless changed here since.
        if let base, base.fields != local.fields { conflicts.append("\(key) removed") }
        if base == nil { merged[key] = local }
      case (nil, let server?):
        // Removed here: gone unless changed on the server since.
        if let base, base.fields != server.fields { conflicts.append("\(key) removed") }
        if base == nil { merged[key] = server }
      case (nil, nil):
        break
      }
    }
    guard conflicts.isEmpty else { return .conflict(properties: conflicts.sorted()) }
    return .merged(Data(document(merged, like: serverDocument, local: localDocument).serialized()))
  }

  // MARK: Items and fields

  /// One VEVENT or VTODO, with its properties (and alarms) grouped by name as sorted content
  /// lines, so that order and parameter order do not count as changes.
  struct Item: Equatable {
    var component: ICalendarComponent
    var fields: [String: [String]]

    static func == (lhs: Item, rhs: Item) -> Bool { lhs.fields == rhs.fields }
  }

  /// The items of a document by component name and RECURRENCE-ID.
  private static func items(_ document: ICalendarDocument) -> [String: Item] {
    var found: [String: Item] = [:]
    for calendar in document.calendars {
      for component in calendar.components
      where component.name == "VEVENT" || component.name == "VTODO" {
        let key = component.name + " " + (component.property("RECURRENCE-ID").map(normalized) ?? "")
        var fields: [String: [String]] = [:]
        for property in component.properties where !volatile.contains(property.name.uppercased()) {
          fields[property.name.uppercased(), default: []].append(normalized(property))
        }
        for sub in component.components {
          fields[sub.name.uppercased(), default: []].append(
            sub.properties.map(normalized).sorted().joined(separator: "\n"))
        }
        found[key] = Item(component: component, fields: fields.mapValues { $0.sorted() })
      }
    }
    return found
  }

  /// A property as one line: its name and parameters upper-cased, parameters sorted, values
  /// as written.
  private static func normalized(_ property: ICalendarProperty) -> String {
    let parameters = property.parameters.map {
      ($0.name.uppercased(), $0.values)
    }.filter { !($0.0 == "VALUE" && $0.1 == ["DATE-TIME"]) }.sorted { $0.0 < $1.0 }
    var parameterText = ""
    for (name, values) in parameters {
      parameterText += ";" + name + "=" + values.joined(separator: ",")
    }
    return property.name.uppercased() + parameterText + ":" + property.value
  }

  // MARK: Writing the merge

  /// The merged items as a document: the server's VCALENDAR properties and zones (with the
  /// local zones it lacks), each item's fields in the server's property order.
  private static func document(
    _ items: [String: Item], like server: ICalendarDocument, local: ICalendarDocument
  ) -> ICalendarDocument {
    var calendar = server.calendars.first ?? ICalendarComponent(name: "VCALENDAR")
    let zones = server.calendars.flatMap { $0.components(named: "VTIMEZONE") }
    var zoneIds = Set(zones.compactMap { $0.property("TZID")?.value })
    var components = zones
    for zone in local.calendars.flatMap({ $0.components(named: "VTIMEZONE") }) {
      if let id = zone.property("TZID")?.value, zoneIds.insert(id).inserted {
        components.append(zone)
      }
    }
    let localItems = self.items(local)
    let serverItems = self.items(server)
    for key in items.keys.sorted() {
      guard let item = items[key] else { continue }
      components.append(
        component(item, server: serverItems[key]?.component, local: localItems[key]?.component))
    }
    calendar.components = components
    return ICalendarDocument(calendars: [calendar])
  }

  /// One merged item: for each field, the lines of the side whose value it took.
  private static func component(
    _ item: Item, server: ICalendarComponent?, local: ICalendarComponent?
  ) -> ICalendarComponent {
    var component = ICalendarComponent(name: item.component.name)
    let sides = [server, local].compactMap { $0 }
    func properties(named name: String) -> [ICalendarProperty] {
      for side in sides {
        let found = side.properties.filter { $0.name.uppercased() == name }
        if found.map(normalized).sorted() == item.fields[name] { return found }
      }
      return []
    }
    func subcomponents(named name: String) -> [ICalendarComponent] {
      for side in sides {
        let found = side.components.filter { $0.name.uppercased() == name }
        let lines = found.map { $0.properties.map(normalized).sorted().joined(separator: "\n") }
        if lines.sorted() == item.fields[name] { return found }
      }
      return []
    }
    var names: [String] = []
    for side in sides {
      for property in side.properties where !names.contains(property.name.uppercased()) {
        names.append(property.name.uppercased())
      }
    }
    for name in names {
      if volatile.contains(name) {
        if name == "SEQUENCE" {
          let highest = sides.compactMap { Int($0.property("SEQUENCE")?.value ?? "") }.max() ?? 0
          component.append(ICalendarProperty(name: "SEQUENCE", value: String(highest)))
        } else if let first = sides.compactMap({ $0.property(name) }).first {
          component.append(first)
        }
        continue
      }
      component.properties += properties(named: name)
    }
    var subnames: [String] = []
    for side in sides {
      for sub in side.components where !subnames.contains(sub.name.uppercased()) {
        subnames.append(sub.name.uppercased())
      }
    }
    for name in subnames { component.components += subcomponents(named: name) }
    return component
  }
}
