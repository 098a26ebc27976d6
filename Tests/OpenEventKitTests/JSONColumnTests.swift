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
}
