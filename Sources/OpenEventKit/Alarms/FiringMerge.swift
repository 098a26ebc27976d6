import Foundation

/// The firings of several sources, each in firing order, merged into one stream in firing
/// order (by date, then title, then identifier) and read one at a time: memory holds the next
/// firing of each source, never the window's whole list, so that an alarm of a series
/// repeating every second costs no more than one of a daily series.
///
/// Two alarms of one occurrence at the same moment are one firing: they have one identifier,
/// and come out next to each other, so the second is dropped here.
struct FiringMerge: IteratorProtocol {
  private var sources: [AnyIterator<AlarmFiring>]
  private var heap = FiringHeap<Int>()
  private var lastId: String?

  init(_ sources: [AnyIterator<AlarmFiring>]) {
    self.sources = sources
    for index in self.sources.indices {
      if let firing = self.sources[index].next() { heap.push(firing, index) }
    }
  }

  mutating func next() -> AlarmFiring? {
    while let (firing, source) = heap.popFirst() {
      if let following = sources[source].next() { heap.push(following, source) }
      guard firing.id != lastId else { continue }
      lastId = firing.id
      return firing
    }
    return nil
  }
}

/// The firings of one source whose order can stray by up to `slack` seconds (an alarm of an
/// all-day or floating event: its moment is a reading on the wall clock, and readings moved
/// by a daylight-saving gap come out of order), put back in order: each is held until the
/// source has gone more than `slack` past it. It holds the firings of `slack` seconds of its
/// source, no more.
struct SlackOrdered: IteratorProtocol {
  private let base: AnyIterator<AlarmFiring>
  private let slack: TimeInterval
  private var held = FiringHeap<Void>()
  private var latest: Date?
  private var exhausted = false

  init(_ base: AnyIterator<AlarmFiring>, slack: TimeInterval) {
    self.base = base
    self.slack = slack
  }

  mutating func next() -> AlarmFiring? {
    while !exhausted {
      if let first = held.first, let latest,
        latest.timeIntervalSince(first.fireDate) > slack
      {
        break  // every later firing comes after `first`
      }
      guard let firing = base.next() else {
        exhausted = true
        break
      }
      held.push(firing, ())
      latest = max(latest ?? firing.fireDate, firing.fireDate)
    }
    return held.popFirst()?.firing
  }
}

/// A binary min-heap of firings in firing order, each with a tag.
struct FiringHeap<Tag> {
  private var entries: [(firing: AlarmFiring, tag: Tag)] = []

  var first: AlarmFiring? { entries.first?.firing }

  /// Firing order: by date, then title, then identifier (what `alarmFirings` promises).
  static func precedes(_ a: AlarmFiring, _ b: AlarmFiring) -> Bool {
    // Titles and identifiers are compared only for firings at one moment.
    if a.fireDate != b.fireDate { return a.fireDate < b.fireDate }
    if a.title != b.title { return a.title < b.title }
    return a.id < b.id
  }

  mutating func push(_ firing: AlarmFiring, _ tag: Tag) {
    entries.append((firing, tag))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(entries[child].firing, entries[parent].firing) else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popFirst() -> (firing: AlarmFiring, tag: Tag)? {
    guard let first = entries.first else { return nil }
    let last = entries.removeLast()
    guard !entries.isEmpty else { return first }
    entries[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < entries.count, Self.precedes(entries[left].firing, entries[smallest].firing) {
        smallest = left
      }
      if right < entries.count, Self.precedes(entries[right].firing, entries[smallest].firing) {
        smallest = right
      }
      guard smallest != parent else { break }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
    return first
  }
}
