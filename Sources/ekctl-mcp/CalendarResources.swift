import Foundation
import MCP
import OpenEventKit

/// Calendars and reminder lists as MCP resources (`calendar://ID`): read, each is the
/// calendar and what is coming in it (the next 14 days of events, or the incomplete
/// reminders); subscribed, a change to the store by anyone is told as
/// `notifications/resources/updated` for it.
enum CalendarResources {
  static let scheme = "calendar://"
  /// How far ahead a calendar resource shows events.
  static let days = 14

  static func uri(_ calendar: EKCalendar) -> String { scheme + calendar.calendarIdentifier }
}

extension CalendarTools {
  /// The calendars the person's decision lets the agent read, as resources.
  func resources() -> [Resource] {
    let access = Authorization.current(location)
    let entities = [EKEntityType.event, .reminder].filter { access.status($0) == .fullAccess }
    return entities.flatMap { store.calendars(for: $0) }.map { calendar in
      let kind = calendar.allowedEntityTypes.contains(.event) ? "calendar" : "reminder list"
      return Resource(
        name: calendar.title, uri: CalendarResources.uri(calendar),
        description: "The \(kind) \"\(calendar.title)\" (\(calendar.source?.title ?? "")), "
          + "and what is coming in it", mimeType: "application/json")
    }
  }

  func read(_ uri: String) throws(MCPError) -> ReadResource.Result {
    guard uri.hasPrefix(CalendarResources.scheme) else {
      throw MCPError.invalidParams("No resource \(uri): calendars are calendar://ID")
    }
    let id = String(uri.dropFirst(CalendarResources.scheme.count))
    guard let calendar = store.calendar(withIdentifier: id) else {
      throw MCPError.invalidParams("No calendar \(id) (or this server may not read it)")
    }
    let entity: EKEntityType = calendar.allowedEntityTypes.contains(.event) ? .event : .reminder
    if let refusal = Authorization.current(location).refusal(
      entity, need: .full, location: location)
    {
      throw MCPError.invalidRequest(refusal)
    }
    var object: [String: Value] = ["calendar": ItemText.calendar(calendar)]
    if entity == .event {
      let now = Date()
      let predicate = store.predicateForEvents(
        withStart: now, end: now.addingTimeInterval(Double(CalendarResources.days) * 86_400),
        calendars: [calendar])
      object["upcoming"] = .array(
        store.events(matching: predicate).map { ItemText.event($0, zone: nil) })
    } else {
      let predicate = store.predicateForIncompleteReminders(
        withDueDateStarting: nil, ending: nil, calendars: [calendar])
      object["reminders"] = .array(fetch(predicate).map { ItemText.reminder($0, zone: .current) })
    }
    return ReadResource.Result(
      contents: [.text(Value.object(object).jsonText, uri: uri, mimeType: "application/json")])
  }
}
