import Foundation
import Testing

@testable import OpenEventKit

/// The JSON columns' decoding, which remembers the texts it decoded last (``JSONColumn``).
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

  /// More texts than the memory holds: each still decodes to its own value.
  @Test func manyTextsEachDecodeToTheirOwnValue() {
    for offset in stride(from: 0, to: 3_000, by: 1) {
      let text = JSONColumn.text(list: [AlarmValues(relativeOffset: Double(-offset))])
      #expect(
        JSONColumn.value([AlarmValues].self, from: text)?.first?.relativeOffset == Double(-offset))
    }
  }
}
