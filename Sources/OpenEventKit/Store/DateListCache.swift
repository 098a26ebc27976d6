import ICalendar
import Synchronization

/// Parsed date lists (RDATE, EXDATE and detached dates) by their stored text, for long lists
/// only. `enumerateEvents` reads a wide window a month at a time, and a series with thousands
/// of RDATEs is a candidate in every month it spans: parsing its list once per process, not
/// once per month, keeps such a window linear (10,000 RDATEs over 34 years: 30 s before).
final class DateListCache: Sendable {
  static let shared = DateListCache()

  /// Lists shorter than this many bytes are parsed each time: cheaper than the lookup.
  static let threshold = 4_096

  private let cache = Mutex<[String: [DateTimeValue]]>([:])
  /// Past this many texts the cache starts over, so that it stays small.
  private let capacity = 64

  func values(_ text: String, parse: (String) -> [DateTimeValue]) -> [DateTimeValue] {
    if let values = cache.withLock({ $0[text] }) { return values }
    let values = parse(text)
    cache.withLock { cache in
      if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
      cache[text] = values
    }
    return values
  }
}
