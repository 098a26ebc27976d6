import MCP
import OpenEventKit

/// The tools the server offers: each with its JSON schema, its description written for a
/// model, and the access it needs, so that the list an agent sees is what the person allowed
/// (write-only access lists the write tools only).
struct ToolSpec: Sendable {
  let name: String
  let description: String
  let properties: [String: Value]
  let required: [String]
  let entity: EKEntityType
  let need: Authorization.Need
  let writes: Bool

  var tool: Tool {
    Tool(
      name: name, description: description,
      inputSchema: .object([
        "type": "object", "properties": .object(properties),
        "required": .array(required.map { .string($0) }), "additionalProperties": false,
      ]),
      annotations: .init(
        readOnlyHint: !writes, destructiveHint: writes && name.hasPrefix("delete"),
        openWorldHint: false))
  }

  var accepted: Set<String> { Set(properties.keys) }
}

/// JSON schema pieces.
enum Schema {
  static func string(_ description: String, choices: [String]? = nil) -> Value {
    var schema: [String: Value] = ["type": "string", "description": .string(description)]
    if let choices { schema["enum"] = .array(choices.map { .string($0) }) }
    return .object(schema)
  }

  static func integer(_ description: String, minimum: Int, maximum: Int) -> Value {
    [
      "type": "integer", "description": .string(description), "minimum": .int(minimum),
      "maximum": .int(maximum),
    ]
  }

  static func boolean(_ description: String) -> Value {
    ["type": "boolean", "description": .string(description)]
  }

  static func strings(_ description: String) -> Value {
    ["type": "array", "items": ["type": "string"], "description": .string(description)]
  }

  static let time = string(
    "An RFC 3339 date-time with an offset, 2026-03-02T09:00:00+01:00; or a wall-clock time "
      + "2026-03-02T09:00:00 when timeZone names its clock.")
  static let zone = string(
    "The IANA time zone (Europe/Paris) of the wall-clock times in this call, and of the times "
      + "in the answer.")
  static let calendars = strings(
    "Calendars by identifier or title (list_calendars gives both); all of them when absent.")
  static let span = string(
    "For a repeating event: \"this\" (this occurrence only) or \"future\" (this occurrence and "
      + "every later one; needs confirm). Required when the event repeats: never guessed.",
    choices: ["this", "future"])
  static let confirm = boolean(
    "true to confirm a change to many items at once (a \"future\" span, more than one item "
      + "deleted). Ask the person first.")
  static let alarms: Value = [
    "type": "array", "items": ["type": "integer", "minimum": 0, "maximum": 40320],
    "description": "Alarms, each in minutes before the start (or due time): [15, 1440].",
  ]
  static let recurrence: Value = [
    "type": "object", "additionalProperties": false,
    "description": "How it repeats. Absent: it does not.",
    "properties": [
      "frequency": string(
        "daily, weekly, monthly or yearly", choices: ["daily", "weekly", "monthly", "yearly"]),
      "interval": integer("Every how many periods (1: every week).", minimum: 1, maximum: 1000),
      "daysOfWeek": [
        "type": "array",
        "items": ["type": "string", "enum": ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]],
        "description": "Weekly: the days, [\"MO\", \"WE\"].",
      ],
      "count": integer("How many occurrences in all.", minimum: 1, maximum: 100000),
      "until": string("The last day it may occur on, 2026-12-31 (or an RFC 3339 date-time)."),
    ],
    "required": ["frequency"],
  ]
}

extension ToolSpec {
  static let all: [ToolSpec] = [
    ToolSpec(
      name: "list_calendars",
      description: """
        Lists the person's event calendars and reminder lists: identifier, title, kind \
        (events or reminders), account, and whether items can be added to it. Call it first \
        to learn the names other tools take.
        """,
      properties: [
        "kind": Schema.string(
          "events, reminders or both (the default).", choices: ["events", "reminders", "both"])
      ], required: [], entity: .event, need: .full, writes: false),
    ToolSpec(
      name: "list_events",
      description: """
        Lists the occurrences of events overlapping [start, end), in start order, repeating \
        events expanded. Each has eventId and occurrenceDate, which name it to update_event \
        and delete_event, and says whether it repeats and whether it was changed apart from \
        its series (detached). Times are RFC 3339 with offsets; all-day events give dates, \
        the end exclusive.
        """,
      properties: [
        "start": Schema.time, "end": Schema.time, "timeZone": Schema.zone,
        "calendars": Schema.calendars,
        "limit": Schema.integer("At most this many (default 500).", minimum: 1, maximum: 10000),
      ], required: ["start", "end"], entity: .event, need: .full, writes: false),
    ToolSpec(
      name: "search_events",
      description: """
        Finds the occurrences in [start, end) whose title, location or notes contain the text \
        (any case). Answers as list_events does.
        """,
      properties: [
        "query": Schema.string("The text to look for."), "start": Schema.time,
        "end": Schema.time, "timeZone": Schema.zone, "calendars": Schema.calendars,
        "limit": Schema.integer("At most this many (default 500).", minimum: 1, maximum: 10000),
      ], required: ["query", "start", "end"], entity: .event, need: .full, writes: false),
    ToolSpec(
      name: "free_busy",
      description: """
        The busy and free time between start and end over the chosen calendars. Events marked \
        free do not block; cancelled ones neither; tentative ones block and are said to be \
        tentative; all-day events block whole days (on timeZone's clock) unless marked free. \
        With minimumMinutes, only free slots at least that long are listed.
        """,
      properties: [
        "start": Schema.time, "end": Schema.time, "timeZone": Schema.zone,
        "calendars": Schema.calendars,
        "minimumMinutes": Schema.integer(
          "The shortest free slot to list.", minimum: 1, maximum: 100000),
      ], required: ["start", "end"], entity: .event, need: .full, writes: false),
    ToolSpec(
      name: "create_event",
      description: """
        Adds an event. start and end are RFC 3339 with offsets, or wall-clock times with \
        timeZone (the event then keeps that zone); with allDay, plain dates and end \
        exclusive (2026-03-02 to 2026-03-03 is one day). Answers the new event's eventId.
        """,
      properties: [
        "title": Schema.string("The title."), "start": Schema.time, "end": Schema.time,
        "timeZone": Schema.zone,
        "allDay": Schema.boolean("An all-day event: start and end are dates."),
        "calendar": Schema.string(
          "The calendar, by identifier or title; the default calendar when absent."),
        "location": Schema.string("Where."), "notes": Schema.string("Notes."),
        "availability": Schema.string(
          "How it shows in free/busy (default busy).",
          choices: ["busy", "free", "tentative", "unavailable"]),
        "alarms": Schema.alarms, "recurrence": Schema.recurrence,
      ], required: ["title", "start", "end"], entity: .event, need: .add, writes: true),
    ToolSpec(
      name: "update_event",
      description: """
        Changes an event: only the fields given. A repeating event needs span: "this" changes \
        the occurrence at occurrenceDate alone, "future" that one and every later one (and \
        needs confirm: true). Without occurrenceDate, the first occurrence. Answers the \
        event as it is now.
        """,
      properties: [
        "eventId": Schema.string("The event's eventId, from list_events."),
        "occurrenceDate": Schema.string(
          "For a repeating event, the occurrenceDate list_events gave."),
        "span": Schema.span, "confirm": Schema.confirm,
        "title": Schema.string("A new title."), "start": Schema.time, "end": Schema.time,
        "timeZone": Schema.zone, "allDay": Schema.boolean("Make it all-day (or not)."),
        "calendar": Schema.string("Move it to this calendar."),
        "location": Schema.string("A new place (\"\" clears it)."),
        "notes": Schema.string("New notes (\"\" clears them)."),
        "availability": Schema.string(
          "busy, free, tentative or unavailable.",
          choices: ["busy", "free", "tentative", "unavailable"]),
        "alarms": Schema.alarms,
      ], required: ["eventId"], entity: .event, need: .full, writes: true),
    ToolSpec(
      name: "delete_event",
      description: """
        Removes an event. A repeating event needs span: "this" removes the occurrence at \
        occurrenceDate (or the first), "future" that one and every later one, which needs \
        confirm: true (from the first occurrence, the whole series).
        """,
      properties: [
        "eventId": Schema.string("The event's eventId, from list_events."),
        "occurrenceDate": Schema.string(
          "For a repeating event, the occurrenceDate list_events gave."),
        "span": Schema.span, "confirm": Schema.confirm,
      ], required: ["eventId"], entity: .event, need: .full, writes: true),
    ToolSpec(
      name: "list_reminders",
      description: """
        Lists reminders: incomplete ones (the default), completed ones, or all; with \
        dueBefore, only incomplete ones due before it. Each has its reminderId, list, due \
        date, priority (1 high, 5 medium, 9 low, 0 none) and whether it is completed.
        """,
      properties: [
        "status": Schema.string(
          "incomplete, completed or all.", choices: ["incomplete", "completed", "all"]),
        "dueBefore": Schema.time, "timeZone": Schema.zone,
        "lists": Schema.strings("Reminder lists by identifier or title; all when absent."),
        "limit": Schema.integer("At most this many (default 500).", minimum: 1, maximum: 10000),
      ], required: [], entity: .reminder, need: .full, writes: false),
    ToolSpec(
      name: "create_reminder",
      description: """
        Adds a reminder. due is a date (2026-03-02: that day) or a time (RFC 3339, or \
        wall-clock with timeZone). Answers the new reminderId.
        """,
      properties: [
        "title": Schema.string("The title."),
        "list": Schema.string(
          "The reminder list, by identifier or title; the default list when absent."),
        "due": Schema.string("When it is due: a date, or a date-time as in the other tools."),
        "timeZone": Schema.zone,
        "priority": Schema.integer("1 (high) to 9 (low); 0 for none.", minimum: 0, maximum: 9),
        "notes": Schema.string("Notes."), "alarms": Schema.alarms,
        "recurrence": Schema.recurrence,
      ], required: ["title"], entity: .reminder, need: .full, writes: true),
    ToolSpec(
      name: "complete_reminder",
      description: "Marks a reminder completed (or, with completed: false, not completed).",
      properties: [
        "reminderId": Schema.string("The reminder's reminderId."),
        "completed": Schema.boolean("false to mark it not completed again (default true)."),
      ], required: ["reminderId"], entity: .reminder, need: .full, writes: true),
    ToolSpec(
      name: "delete_reminder",
      description: "Removes reminders. More than one at once needs confirm: true.",
      properties: [
        "reminderIds": Schema.strings("The reminders' reminderIds."), "confirm": Schema.confirm,
      ], required: ["reminderIds"], entity: .reminder, need: .full, writes: true),
    ToolSpec(
      name: "create_calendar",
      description: "Makes an event calendar or a reminder list, in the default account.",
      properties: [
        "title": Schema.string("Its title."),
        "kind": Schema.string("events or reminders.", choices: ["events", "reminders"]),
      ], required: ["title", "kind"], entity: .event, need: .full, writes: true),
    ToolSpec(
      name: "undo",
      description: """
        Undoes this server's last change (what the latest successful write tool did), once. \
        Says what it restored.
        """,
      properties: [:], required: [], entity: .event, need: .full, writes: true),
  ]

  static func named(_ name: String) -> ToolSpec? { all.first { $0.name == name } }

  /// Whether an agent sees the tool under `access`: while the person has not decided, every
  /// tool (each answers with what to run); after, only what they allowed.
  func isListed(under access: Authorization) -> Bool {
    if name == "create_calendar" || name == "undo" {
      // These touch events or reminders: listed when either is fully allowed, or undecided.
      let statuses = [access.events, access.reminders]
      return statuses.contains(.fullAccess) || statuses.allSatisfy { $0 == .notDetermined }
    }
    if name == "list_calendars" {
      let statuses = [access.events, access.reminders]
      return statuses.contains(.fullAccess) || statuses.contains(.notDetermined)
    }
    switch access.status(entity) {
    case .notDetermined, .fullAccess: return true
    case .writeOnly: return entity == .event && need == .add
    default: return false
    }
  }
}
