import ICalendar
import Synchronization

/// Parsed recurrence rules by their stored text. A query expands the same few series again and
/// again; parsing each rule once per process keeps that cost out of every query.
final class RuleCache: Sendable {
  static let shared = RuleCache()

  private let cache = Mutex<[String: [RecurrenceRule]]>([:])
  /// Past this many texts the cache starts over, so that it stays small.
  private let capacity = 10_000

  func rules(_ text: String) -> [RecurrenceRule] {
    if let rules = cache.withLock({ $0[text] }) { return rules }
    let rules = text.split(separator: "\n").compactMap { try? RecurrenceRule(parsing: $0) }
    cache.withLock { cache in
      if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
      cache[text] = rules
    }
    return rules
  }
}
