import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench json`: the package's JSON writer (`JSONWriter`) beside Foundation's `JSONEncoder`
/// writing the same text, for the two kinds of JSON the package writes most: an event's alarms
/// as the store keeps them (a column, keys sorted) and an occurrence as `ekctl events --json`
/// prints it (a line, keys in the order they read). Speed is the only reason the writer is
/// not `JSONEncoder`: this is the figure that says whether it still is one.
struct JSONBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "json",
    abstract: "Time JSONWriter against JSONEncoder writing the same texts (best of five runs).")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Texts written per run, by each writer.")
  var count = 100_000

  /// An alarm as the store's column has it (`AlarmValues`: keys sorted, `ics` the lines an
  /// import kept).
  struct Alarm: Encodable {
    var relativeOffset: Double
    var ics: [String]?
  }

  /// An occurrence as `ekctl events --json` prints it.
  struct Occurrence: Encodable {
    var title: String
    var start: String
    var end: String
    var allDay: Bool
    var calendar: String
    var eventIdentifier: String
    var externalIdentifier: String
    var occurrenceDate: String?
    var isDetached: Bool
    var timeZone: String?
    var location: String?
    var hasRecurrenceRules: Bool
  }

  static let alarms = [
    Alarm(relativeOffset: -900, ics: ["ACTION:DISPLAY", "DESCRIPTION:Tea \"now\"\\n"]),
    Alarm(relativeOffset: -86_400, ics: nil),
  ]

  static let occurrence = Occurrence(
    title: "Réunion d'équipe 🗓 \"Q3\"", start: "2025-03-03T09:00:00", end: "2025-03-03T10:00:00",
    allDay: false, calendar: "Work", eventIdentifier: "4F6C1E2A-0B7D-4C55-9E1F-2D3A4B5C6D7E",
    externalIdentifier: "4f6c1e2a-0b7d-4c55-9e1f-2d3a4b5c6d7e@example.com",
    occurrenceDate: "2025-03-03T09:00:00", isDetached: false, timeZone: "Europe/Paris",
    location: "Salle 2\tÉtage 3", hasRecurrenceRules: true)

  static func written(_ alarms: [Alarm]) -> String {
    var json = JSONWriter()
    json.beginArray()
    for alarm in alarms {
      json.beginObject()
      if let ics = alarm.ics {
        json.key("ics")
        json.beginArray()
        for line in ics { json.string(line) }
        json.endArray()
      }
      json.key("relativeOffset")
      json.number(alarm.relativeOffset)
      json.endObject()
    }
    json.endArray()
    return json.text
  }

  static func written(_ occurrence: Occurrence) -> String {
    JSONWriter.object { json in
      json.member("title", occurrence.title)
      json.member("start", occurrence.start)
      json.member("end", occurrence.end)
      json.member("allDay", occurrence.allDay)
      json.member("calendar", occurrence.calendar)
      json.member("eventIdentifier", occurrence.eventIdentifier)
      json.member("externalIdentifier", occurrence.externalIdentifier)
      json.member("occurrenceDate", occurrence.occurrenceDate)
      json.member("isDetached", occurrence.isDetached)
      json.member("timeZone", occurrence.timeZone)
      json.member("location", occurrence.location)
      json.member("hasRecurrenceRules", occurrence.hasRecurrenceRules)
    }
  }

  /// An object's members, as Foundation reads them.
  static func members(_ data: Data) throws -> NSDictionary? {
    try JSONSerialization.jsonObject(with: data) as? NSDictionary
  }

  func run() throws {
    // JSONEncoder as the store used it (sorted keys), and with `/` unescaped as the writer
    // leaves it, so that both write the same bytes: checked before timing. Without sorted
    // keys JSONEncoder writes an object's members in no set order (a line's order is the
    // writer's alone): the line is checked member for member.
    let sorted = JSONEncoder()
    sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let unordered = JSONEncoder()
    unordered.outputFormatting = [.withoutEscapingSlashes]
    let cases: [(name: String, writer: () -> String, encoder: () throws -> Data, ordered: Bool)] = [
      ("json-alarms", { Self.written(Self.alarms) }, { try sorted.encode(Self.alarms) }, true),
      (
        "json-line", { Self.written(Self.occurrence) }, { try unordered.encode(Self.occurrence) },
        false
      ),
    ]
    for (name, writer, encoder, ordered) in cases {
      let encoded = try encoder()
      let same =
        ordered
        ? writer() == String(decoding: encoded, as: UTF8.self)
        : try Self.members(Data(writer().utf8)) == Self.members(encoded)
      guard same else {
        throw ValidationError(
          "\(name): the texts differ:\n\(writer())\n\(String(decoding: encoded, as: UTF8.self))")
      }
      let count = self.count
      let writerSeconds = bestOfFive {
        for _ in 0..<count { blackHole(writer()) }
      }
      let encoderSeconds = try bestOfFive {
        for _ in 0..<count { blackHole(try encoder()) }
      }
      let perSecond = Double(count) / writerSeconds
      let encoderPerSecond = Double(count) / encoderSeconds
      printFigures(
        json: json, name,
        [
          "perSecond": perSecond.rounded(), "encoderPerSecond": encoderPerSecond.rounded(),
          "ratio": (perSecond / encoderPerSecond * 10).rounded() / 10,
        ],
        "\(count) texts, the same \(ordered ? "bytes" : "members")")
    }
  }
}
