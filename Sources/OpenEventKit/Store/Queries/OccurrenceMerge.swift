/// The occurrences of several records in one window, merged into start order (ties in the
/// order of the records) and read one at a time: memory holds the next occurrence of each
/// record, never the window's whole list. `enumerateEvents` reads a window this way, so that
/// a series repeating every minute over a month costs no more memory than one a day.
struct OccurrenceMerge: Sequence, IteratorProtocol {
  private var sources: [OccurrenceTimes]
  /// A binary min-heap of each record's next occurrence, keyed by (start, record).
  private var heap: [(times: EventQuery.Times, row: Int)] = []

  init(_ sources: [OccurrenceTimes]) {
    self.sources = sources
    heap.reserveCapacity(sources.count)
    for row in self.sources.indices {
      if let times = self.sources[row].next() { push((times, row)) }
    }
  }

  /// The next occurrence in start order, and the index of its record.
  mutating func next() -> (times: EventQuery.Times, row: Int)? {
    guard let first = heap.first else { return nil }
    if let following = sources[first.row].next() {
      heap[0] = (following, first.row)
      siftDown(0)
    } else {
      let last = heap.removeLast()
      if !heap.isEmpty {
        heap[0] = last
        siftDown(0)
      }
    }
    return first
  }

  private func precedes(_ a: Int, _ b: Int) -> Bool {
    (heap[a].times.start, heap[a].row) < (heap[b].times.start, heap[b].row)
  }

  private mutating func push(_ entry: (times: EventQuery.Times, row: Int)) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, precedes(left, smallest) { smallest = left }
      if right < heap.count, precedes(right, smallest) { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
