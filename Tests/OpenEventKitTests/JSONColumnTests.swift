import Foundation
import Testing

@testable import OpenEventKit

/// The JSON columns' encoding, and their decoding, which remembers the texts it decoded last
/// (``JSONColumn``).
@Suite struct JSONColumnTests {
  /// A text decodes to the same value every time, as each type reads it, and a text that does
  /// not decode stays nil, however often it is asked for and whatever was asked before.
  @Test func aRememberedTextDecodesAsTheFirstTime() {
    let alarms = JSONColumn.text(list: [AlarmValues(relativeOffset: -900), AlarmValues()])
    let first = JSONColumn.value([AlarmValues].self, from: alarms)
    #expect(first?.map(\.relativeOffset) == [-900, 0])
    #expect(JSONColumn.value([AlarmValues].self, from: alarms) == first)
    // The same text as another type is decoded for that type, not taken from the first.
    #expect(JSONColumn.value([ParticipantValues].self, from: alarms) == nil)
    #expect(JSONColumn.value([AlarmValues].self, from: alarms) == first)
    let broken = "[{\"relativeOffset\": "
    #expect(JSONColumn.value([AlarmValues].self, from: broken) == nil)
    #expect(JSONColumn.value([AlarmValues].self, from: broken) == nil)
    #expect(JSONColumn.value([AlarmValues].self, from: nil) == nil)
  }

  /// A value encodes to the same text every time; a value that differs only deep inside
  /// (an alarm's location's title) has its own text, not the remembered one.
  @Test func aRememberedValueEncodesAsTheFirstTime() throws {
    var alarm = AlarmValues(relativeOffset: -600)
    alarm.location = LocationValues(title: "Office", latitude: 48.85, longitude: 2.35)
    let first = try #require(JSONColumn.text(list: [alarm]))
    #expect(JSONColumn.text(list: [alarm]) == first)
    alarm.location?.title = "Home"
    let second = try #require(JSONColumn.text(list: [alarm]))
    #expect(second != first)
    #expect(JSONColumn.value([AlarmValues].self, from: second)?.first?.location?.title == "Home")
    #expect(JSONColumn.value([AlarmValues].self, from: first)?.first?.location?.title == "Office")
  }

  /// Values that are equal but encode differently keep their own texts, whichever came
  /// first (found by SavePropertyTests: an alarm at -0 seconds read back as one at 0 in a
  /// process that had encoded the other first, when texts were remembered by value).
  @Test func equalValuesThatEncodeDifferentlyKeepTheirOwnTexts() throws {
    for offsets in [[0.0, -0.0], [-0.0, 0.0]] {
      let texts = offsets.map { JSONColumn.text(list: [AlarmValues(relativeOffset: $0)]) }
      #expect(texts[0] != texts[1])
      for (offset, text) in zip(offsets, texts) {
        let read = try #require(JSONColumn.value([AlarmValues].self, from: text)?.first)
        #expect(read.relativeOffset.sign == offset.sign)
      }
    }
  }

  /// More texts than the memory holds: each still decodes to its own value.
  @Test func manyTextsEachDecodeToTheirOwnValue() {
    for offset in stride(from: 0, to: 3_000, by: 1) {
      let text = JSONColumn.text(list: [AlarmValues(relativeOffset: Double(-offset))])
      #expect(
        JSONColumn.value([AlarmValues].self, from: text)?.first?.relativeOffset == Double(-offset))
    }
  }

  /// The writer writes the texts earlier releases wrote with `JSONEncoder` (sorted keys, a
  /// number without `.0`, `-0` with its sign), so a row reads the same in any release.
  @Test func valuesAreWrittenAsEarlierReleasesWroteThem() throws {
    var alarm = AlarmValues(relativeOffset: -900)
    alarm.kept = ["ACTION:DISPLAY", "DESCRIPTION:Tea \"now\"\\n\u{1}"]
    alarm.location = LocationValues(title: "Office", latitude: 48.85, longitude: 2.35, radius: 150)
    alarm.proximity = .enter
    alarm.emailAddress = "a@b.c"
    alarm.soundName = "Chime"
    alarm.url = URL(string: "x-sound:bell")
    var absolute = AlarmValues()
    absolute.absoluteDate = Date(timeIntervalSince1970: 1_700_000_000)
    let alarms = [
      alarm, absolute, AlarmValues(relativeOffset: -0.0), AlarmValues(relativeOffset: 1.5e-5),
    ]
    #expect(
      JSONColumn.text(list: alarms)
        == #"[{"emailAddress":"a@b.c","ics":["ACTION:DISPLAY","DESCRIPTION:Tea \"now\"\\n\u0001"],"#
        + #""location":{"latitude":48.85,"longitude":2.35,"radius":150,"title":"Office"},"#
        + #""proximity":1,"relativeOffset":-900,"soundName":"Chime","url":"x-sound:bell"},"#
        + #"{"absoluteDate":1700000000},{"relativeOffset":-0},{"relativeOffset":1.5e-05}]"#)
    let ann = ParticipantValues(
      url: try #require(URL(string: "mailto:ann@example.com")), name: "Ann", role: .required,
      status: .accepted, type: .person, isCurrentUser: true,
      contentLine: "ATTENDEE;CN=Ann:mailto:ann@example.com")
    let bob = ParticipantValues(url: try #require(URL(string: "mailto:bob@example.com")))
    #expect(
      JSONColumn.text(list: [ann, bob])
        == #"[{"ics":"ATTENDEE;CN=Ann:mailto:ann@example.com","isCurrentUser":true,"#
        + #""isOrganizer":false,"name":"Ann","role":1,"status":2,"type":1,"#
        + #""url":"mailto:ann@example.com"},{"isCurrentUser":false,"isOrganizer":false,"role":0,"#
        + #""status":0,"type":0,"url":"mailto:bob@example.com"}]"#)
    #expect(JSONColumn.text(LocationValues()) == #"{"radius":0}"#)
    #expect(JSONColumn.text(list: [AlarmValues]()) == nil)
    // JSON has no infinite number: no text, as JSONEncoder gave none.
    #expect(JSONColumn.text(list: [AlarmValues(relativeOffset: .infinity)]) == nil)
  }

  /// Random values with any characters (controls, quotes, backslashes, slashes, emoji) and any
  /// finite number read back equal through `JSONDecoder`, numbers to the bit.
  @Test func randomValuesReadBackEqual() async throws {
    await checkSeeds(count: 300) { seed in
      var choices = Choices(seed: seed)
      func text() -> String {
        let pieces = [
          "a", "Zoë", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "😀", " ", ":",
        ]
        return (0..<choices.int(0...12)).map { _ in choices.pick(pieces) }.joined()
      }
      func number() -> Double {
        switch choices.int(0...3) {
        case 0: return Double(choices.int(-1_000_000...1_000_000))
        case 1:
          return choices.pick([
            0.0, -0.0, .leastNonzeroMagnitude, 1e300, -1.5e-5, .greatestFiniteMagnitude,
          ])
        default:
          let value = Double(bitPattern: choices.next())
          return value.isFinite ? value : 1
        }
      }
      var alarms: [AlarmValues] = []
      for _ in 0..<choices.int(1...3) {
        var alarm = AlarmValues(relativeOffset: number())
        if choices.chance(30) {
          // An absolute alarm has no offset (EKAlarm's is 0): none is written.
          alarm.absoluteDate = Date(timeIntervalSince1970: number())
          alarm.relativeOffset = 0
        }
        if choices.chance(30) {
          alarm.proximity = choices.pick([.enter, .leave])
          alarm.location = LocationValues(
            title: choices.chance(50) ? text() : nil, latitude: choices.chance(50) ? number() : nil,
            longitude: number(), radius: number())
        }
        alarm.emailAddress = choices.chance(30) ? text() : nil
        alarm.soundName = choices.chance(30) ? text() : nil
        alarm.kept = (0..<choices.int(0...3)).map { _ in text() }
        alarms.append(alarm)
      }
      let read = try #require(
        JSONColumn.value([AlarmValues].self, from: JSONColumn.text(list: alarms)))
      // Dates compare by value: a -0 date is 0; offsets, coordinates and radii to the bit.
      #expect(read == alarms)
      #expect(
        read.map(\.relativeOffset.bitPattern) == alarms.map(\.relativeOffset.bitPattern))
      #expect(
        read.map { $0.location?.radius.bitPattern } == alarms.map { $0.location?.radius.bitPattern }
      )
      let participant = ParticipantValues(
        url: try #require(URL(string: "mailto:p\(seed)@example.com")),
        name: choices.chance(50) ? text() : nil, role: choices.pick([.unknown, .chair, .required]),
        status: choices.pick([.accepted, .declined, .pending]),
        type: choices.pick([.person, .room]),
        isCurrentUser: choices.chance(50), isOrganizer: choices.chance(50),
        contentLine: choices.chance(50) ? text() : nil)
      #expect(
        JSONColumn.value([ParticipantValues].self, from: JSONColumn.text(list: [participant]))
          == [participant])
      var kept = KeptContent(properties: [], components: [])
      kept.properties = (0..<choices.int(0...3)).map { _ in text() }
      kept.components = (0..<choices.int(0...2)).map { _ in
        (0..<choices.int(0...3)).map { _ in text() }
      }
      #expect(KeptContent.from(column: kept.columnText) == kept)
      #expect((kept.columnText == nil) == kept.isEmpty)
    }
  }

  /// The alarm ledger's firing column has the members `JSONEncoder` wrote (nils left out;
  /// JSONEncoder's order was none), and reads back: rows recorded by any release read the same.
  @Test func theLedgersFiringIsWrittenAsJSONEncoderWroteIt() throws {
    struct Encoded: Encodable {
      var fireDate: Double
      var offset: Double?
      var absoluteDate: Double?
      var entityType: UInt
      var calendarItemIdentifier: String
      var occurrenceDate: Double?
      var title: String
      var location: String?
      var startDate: Double?
      var endDate: Double?
      var isAllDay: Bool
      var calendarIdentifier: String
      var calendarTitle: String
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    for (offset, absolute, location) in [(-900.0, nil, "Salle \"2\"\n🍰"), (nil, 1.7e9 + 0.25, nil)]
    {
      let column = FiringColumn(
        fireDate: 1_700_000_000, offset: offset, absoluteDate: absolute, entityType: 1,
        calendarItemIdentifier: "A/B", occurrenceDate: absolute == nil ? 1_699_999_100 : nil,
        title: "会議 \u{1}\\ \u{1B}[2J", location: location, startDate: 1_700_000_900,
        endDate: nil, isAllDay: false, calendarIdentifier: "cal", calendarTitle: "Zoë 🃏")
      let encoded = Encoded(
        fireDate: column.fireDate, offset: column.offset, absoluteDate: column.absoluteDate,
        entityType: column.entityType, calendarItemIdentifier: column.calendarItemIdentifier,
        occurrenceDate: column.occurrenceDate, title: column.title, location: column.location,
        startDate: column.startDate, endDate: column.endDate, isAllDay: column.isAllDay,
        calendarIdentifier: column.calendarIdentifier, calendarTitle: column.calendarTitle)
      let text = try #require(JSONColumn.text(column))
      let written = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
      let earlier = try JSONSerialization.jsonObject(with: encoder.encode(encoded)) as? NSDictionary
      #expect(written != nil && written == earlier, "\(text)")
      let read = try #require(JSONColumn.value(FiringColumn.self, from: text))
      #expect(read.title == column.title && read.location == column.location)
      #expect(read.offset == column.offset && read.absoluteDate == column.absoluteDate)
    }
  }
}
