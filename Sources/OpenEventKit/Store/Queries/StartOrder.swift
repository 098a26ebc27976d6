/// The order a fetch returns its occurrences in: by start, equal starts by position.
extension EventQuery {
  /// The positions of `starts` in order of start, equal starts in the order of their
  /// positions.
  ///
  /// Each start, less the earliest, and its position are packed into one non-negative
  /// integer, so that the sort moves integers rather than calling a closure on pairs. A month
  /// of the 100,000-event store sorts ~5,000 of them, in runs (each series' occurrences are in
  /// order already); a radix sort on the packed integers takes about a third of the time the
  /// standard library's merge sort took on them (docs/PERFORMANCE.md).
  static func startOrder(_ starts: [Int]) -> [Int] {
    guard let lowest = starts.min(), let highest = starts.max() else { return [] }
    let positionBits = Int.bitWidth - starts.count.leadingZeroBitCount
    let (span, overflow) = highest.subtractingReportingOverflow(lowest)
    guard !overflow, span < 1 << (Int.bitWidth - 1 - positionBits) else {
      // Starts too far apart to pack (no reading is; only a corrupt row could be).
      return starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
    }
    var keys = starts.indices.map { (starts[$0] &- lowest) << positionBits | $0 }
    if keys.count < radixThreshold {
      keys.sort()
    } else {
      radixSort(&keys, bits: Int.bitWidth - (span << positionBits | keys.count).leadingZeroBitCount)
    }
    let positionMask = (1 << positionBits) - 1
    for index in keys.indices { keys[index] &= positionMask }
    return keys
  }

  /// Below this many starts a comparison sort is as quick as the radix sort's passes.
  static let radixThreshold = 512

  /// Sorts non-negative `keys` below `1 << bits`, least significant digit first (stable
  /// counting sorts of 11 bits each: 4 passes for a month's keys).
  private static func radixSort(_ keys: inout [Int], bits: Int) {
    let digitBits = 11
    let digitMask = (1 << digitBits) - 1
    var sorted = [Int](repeating: 0, count: keys.count)
    var offsets = [Int](repeating: 0, count: 1 << digitBits)
    var shift = 0
    while shift < bits {
      keys.withUnsafeBufferPointer { source in
        sorted.withUnsafeMutableBufferPointer { target in
          offsets.withUnsafeMutableBufferPointer { offsets in
            for digit in offsets.indices { offsets[digit] = 0 }
            for key in source { offsets[(key >> shift) & digitMask] += 1 }
            var total = 0
            for digit in offsets.indices {
              let count = offsets[digit]
              offsets[digit] = total
              total += count
            }
            for key in source {
              let digit = (key >> shift) & digitMask
              target[offsets[digit]] = key
              offsets[digit] += 1
            }
          }
        }
      }
      swap(&keys, &sorted)
      shift += digitBits
    }
  }
}
