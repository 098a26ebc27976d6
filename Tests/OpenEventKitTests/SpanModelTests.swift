import Foundation
import Testing

@testable import OpenEventKit

/// Random sequences of detach, split and remove on daily series, each compared after every
/// step with a simple model of the same edits: which instances exist, with which titles,
/// times and detached flags.
@Suite struct SpanModelTests {
  /// One instance as the model sees it.
  struct Instance {
    /// The instance's start in its series (`occurrenceDate`); moves when a split moves it.
    var origin: Date
    var start: Date
    var title: String
    var detached = false
    var removed = false
    /// Which series the instance belongs to: splits make new ones.
    var series = 0
  }

  enum Edit: CustomStringConvertible {
    case detach(Int)
    case removeThis(Int)
    case removeFuture(Int)
    case saveFuture(Int)

    var description: String {
      switch self {
      case .detach(let i): "detach(\(i))"
      case .removeThis(let i): "removeThis(\(i))"
      case .removeFuture(let i): "removeFuture(\(i))"
      case .saveFuture(let i): "saveFuture(\(i))"
      }
    }
  }

  /// A small seeded generator, so that a failure names a sequence that can be replayed.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  @Test(arguments: 0..<40)
  func randomEditsMatchTheModel(seed: Int) throws {
    var random = Random(state: UInt64(seed) &* 7919 &+ 17)
    let fixture = try StoreFixture()
    let count = 4 + random.next(6)
    let first = StoreFixture.date("2026-03-02T10:00:00Z")
    try fixture.event(
      "Series", start: "2026-03-02T10:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: count)))
    var model = (0..<count).map { day in
      let start = first.addingTimeInterval(TimeInterval(day * 86_400))
      return Instance(origin: start, start: start, title: "Series")
    }
    var nextSeries = 1
    var history: [Edit] = []
    for step in 0..<8 {
      let present = model.indices.filter { !model[$0].removed }
      guard !present.isEmpty else { break }
      let index = present[random.next(present.count)]
      let edit: Edit =
        switch random.next(4) {
        case 0: .detach(index)
        case 1: .removeThis(index)
        case 2: .removeFuture(index)
        default: .saveFuture(index)
        }
      history.append(edit)
      let event = try #require(
        occurrences(fixture.store).first { $0.occurrenceDate == model[index].origin },
        "no occurrence for \(history)")
      let title = "Edit \(step)"
      switch edit {
      case .detach(let i):
        event.title = title
        event.startDate = model[i].origin.addingTimeInterval(1800)
        event.endDate = event.startDate.addingTimeInterval(3600)
        try fixture.store.save(event, span: .thisEvent)
        model[i].title = title
        model[i].start = model[i].origin.addingTimeInterval(1800)
        model[i].detached = true
      case .removeThis(let i):
        try fixture.store.remove(event, span: .thisEvent)
        model[i].removed = true
      case .removeFuture(let i):
        try fixture.store.remove(event, span: .futureEvents)
        for j in model.indices where j >= i && model[j].series == model[i].series {
          model[j].removed = true
        }
      case .saveFuture(let i):
        event.title = title
        try fixture.store.save(event, span: .futureEvents)
        // The edited occurrence's own move (a detached one's) moves the instances from it on.
        let delta = model[i].start.timeIntervalSince(model[i].origin)
        let series = model[i].series
        for j in model.indices where j >= i && model[j].series == series {
          model[j].origin = model[j].origin.addingTimeInterval(delta)
          model[j].series = nextSeries
          if j == i {
            model[j].detached = false
            model[j].title = title
            model[j].start = model[j].origin
          } else if !model[j].detached {
            model[j].title = title
            model[j].start = model[j].origin
          }
        }
        nextSeries += 1
      }
      let expected = model.filter { !$0.removed }.sorted { $0.start < $1.start }
        .map { "\(ISO8601DateFormatter().string(from: $0.start)) \($0.title) \($0.detached)" }
      let seen = occurrences(fixture.secondStore()).map {
        "\(ISO8601DateFormatter().string(from: $0.startDate)) \($0.title!) \($0.isDetached)"
      }
      #expect(seen == expected, "seed \(seed), count \(count): \(history)")
      guard seen == expected else { return }
    }
  }

  func occurrences(_ store: EKEventStore) -> [EKEvent] {
    store.events(
      matching: store.predicateForEvents(
        withStart: StoreFixture.date("2026-03-01T00:00:00Z"),
        end: StoreFixture.date("2026-04-01T00:00:00Z"),
        calendars: [store.defaultCalendarForNewEvents!]))
  }
}
