import Foundation
import Logging
import MCP
import OpenEventKit

/// Runs the tools, one call at a time, on one store opened as the server's app.
///
/// A call is read whole before anything is touched (a malformed one is a protocol error and
/// changes nothing), then checked against the person's decision as it is now, then run; the
/// store checks the same decision again for every read and write, so what this actor does
/// can only word a refusal, never get around one.
actor CalendarTools {
  let location: StoreFolder
  let store: EKEventStore
  /// The agent's last change, and how to take it back.
  var lastChange: UndoStep?
  let log = Logger(label: "org.openeventkit.mcp")

  init(location: StoreFolder) {
    self.location = location
    store = location.openStore()
  }

  /// The tools the person's current decision lets the agent see.
  func listed() -> [Tool] {
    let access = Authorization.current(location)
    return ToolSpec.all.filter { $0.isListed(under: access) }.map(\.tool)
  }

  /// Answers a `tools/call`: a result (with `isError` for the tool's own failures), or a
  /// protocol error for a call that does not fit the tool's schema.
  func call(_ name: String, _ values: [String: Value]?) throws(MCPError) -> CallTool.Result {
    guard let spec = ToolSpec.named(name) else {
      throw MCPError.invalidParams(
        "No tool \"\(name)\"; the tools are "
          + ToolSpec.all.map(\.name).joined(separator: ", "))
    }
    let arguments = try ToolArguments(tool: name, values: values, accepted: spec.accepted)
    do {
      // The answer as JSON text alone, not also as `structuredContent` (optional for a tool
      // without an output schema): the SDK decodes a handler's result back into a `Value` to
      // send it, which for a structured month of 279 events took most of the call's time —
      // a regular expression on every string — and the same object twice is twice the bytes.
      let answer = try run(spec, arguments)
      return CallTool.Result(
        content: [.text(text: answer.jsonText, annotations: nil, _meta: nil)])
    } catch let failure as ToolFailure {
      let value: Value? = ["error": .string(failure.kind), "message": .string(failure.message)]
      return CallTool.Result(
        content: [.text(text: failure.message, annotations: nil, _meta: nil)],
        structuredContent: value, isError: true)
    } catch let error as MCPError {
      throw error
    } catch {
      return CallTool.Result(
        content: [.text(text: "\(error)", annotations: nil, _meta: nil)], isError: true)
    }
  }

  private func run(_ spec: ToolSpec, _ arguments: ToolArguments) throws -> Value {
    switch spec.name {
    case "list_calendars": return try listCalendars(arguments)
    case "create_calendar": return try createCalendar(arguments)
    case "undo": return try undo()
    default: break
    }
    try check(spec.entity, spec.need)
    switch spec.name {
    case "list_events": return try listEvents(arguments, matching: nil)
    case "search_events": return try listEvents(arguments, matching: arguments.required("query"))
    case "free_busy": return try freeBusy(arguments)
    case "create_event": return try createEvent(arguments)
    case "update_event": return try updateEvent(arguments)
    case "delete_event": return try deleteEvent(arguments)
    case "list_reminders": return try listReminders(arguments)
    case "create_reminder": return try createReminder(arguments)
    case "complete_reminder": return try completeReminder(arguments)
    case "delete_reminder": return try deleteReminders(arguments)
    default: throw MCPError.invalidParams("No tool \"\(spec.name)\"")
    }
  }

  /// Refuses, in words naming the command to run, what the person has not allowed.
  func check(_ entity: EKEntityType, _ need: Authorization.Need) throws {
    let access = Authorization.current(location)
    if let refusal = access.refusal(entity, need: need, location: location) {
      throw ToolFailure("access", refusal)
    }
  }

  /// Runs a store call, its refusal answered in the store's own words. A refused change is
  /// dropped from the store (`reset()`), so that nothing of it rides on the next commit.
  func storing<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as EKError {
      store.reset()
      throw ToolFailure("invalid", error.localizedDescription)
    }
  }

  /// Says a write on standard error: the tool, the items, the span.
  func logWrite(_ tool: String, _ items: [String], span: EKSpan? = nil) {
    let spanText = span.map { $0 == .futureEvents ? " span=future" : " span=this" } ?? ""
    log.notice("\(tool): \(items.joined(separator: ", "))\(spanText)")
  }

  // MARK: Calendars

  /// Calendars by identifier or title (any case); every one of the kind when `names` is nil.
  func calendars(_ names: [String]?, for entity: EKEntityType) throws -> [EKCalendar]? {
    guard let names else { return nil }
    let all = store.calendars(for: entity)
    return try names.map { name in
      if let found = all.first(where: { $0.calendarIdentifier == name }) { return found }
      let titled = all.filter { $0.title.caseInsensitiveCompare(name) == .orderedSame }
      guard titled.count <= 1 else {
        throw ToolFailure(
          "ambiguous",
          "\(titled.count) calendars are titled \"\(name)\"; name one by its id: "
            + titled.map(\.calendarIdentifier).joined(separator: ", "))
      }
      guard let calendar = titled.first else {
        throw ToolFailure(
          "notFound",
          "No \(entity == .event ? "calendar" : "reminder list") \"\(name)\"; there are: "
            + all.map { "\"\($0.title)\"" }.joined(separator: ", "))
      }
      return calendar
    }
  }

  func listCalendars(_ arguments: ToolArguments) throws -> Value {
    enum Kind: String, CaseIterable { case events, reminders, both }
    let kind = try arguments.choice("kind", Kind.self) ?? .both
    let access = Authorization.current(location)
    var entities: [EKEntityType] = []
    if kind != .reminders { entities.append(.event) }
    if kind != .events { entities.append(.reminder) }
    // Both asked for: each one the person allowed; refused only when neither is.
    let allowed = entities.filter { access.refusal($0, need: .full, location: location) == nil }
    guard !allowed.isEmpty else {
      try check(entities[0], .full)  // throws the refusal
      return ["calendars": []]
    }
    let calendars = allowed.flatMap { store.calendars(for: $0) }
    return ["calendars": .array(calendars.map(ItemText.calendar))]
  }

  func createCalendar(_ arguments: ToolArguments) throws -> Value {
    enum Kind: String, CaseIterable { case events, reminders }
    let title = try arguments.required("title")
    guard let kind = try arguments.choice("kind", Kind.self) else {
      throw MCPError.invalidParams("create_calendar: \"kind\" is required")
    }
    let entity: EKEntityType = kind == .events ? .event : .reminder
    try check(entity, .full)
    let calendar = EKCalendar(for: entity, eventStore: store)
    calendar.title = title
    let preferred =
      entity == .event ? store.defaultCalendarForNewEvents : store.defaultCalendarForNewReminders()
    guard
      let source = preferred?.source ?? store.sources.first(where: { $0.sourceType == .local })
    else { throw ToolFailure("invalid", "The store has no account to make a calendar in.") }
    calendar.source = source
    try storing { try store.saveCalendar(calendar, commit: true) }
    lastChange = .removeCalendar(calendar.calendarIdentifier, title: title)
    logWrite("create_calendar", ["\"\(title)\" (\(calendar.calendarIdentifier))"])
    return ["calendar": ItemText.calendar(calendar)]
  }
}

extension Value {
  /// The value as compact JSON text, for a result's text content: members sorted, `/` not
  /// escaped, as the SDK's `JSONEncoder` writes it, but written directly with the package's
  /// `JSONWriter` (a month of 279 events is about 100 kB; docs/PERFORMANCE.md, `ekbench mcp`).
  var jsonText: String {
    var json = JSONWriter()
    write(to: &json)
    return json.text
  }

  private func write(to json: inout JSONWriter) {
    switch self {
    case .null: json.null()
    case .bool(let value): json.bool(value)
    case .int(let value): json.integer(value)
    case .double(let value): json.number(value)
    case .string(let value): json.string(value)
    case .data(let mimeType, let data): json.string(data.dataURLEncoded(mimeType: mimeType))
    case .array(let values):
      json.beginArray()
      for value in values { value.write(to: &json) }
      json.endArray()
    case .object(let members):
      json.beginObject()
      for (name, value) in members.sorted(by: { $0.key < $1.key }) {
        json.key(escaping: name)
        value.write(to: &json)
      }
      json.endObject()
    }
  }
}
