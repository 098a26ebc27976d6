import Foundation

/// One thing on the plan, and what the app needs to find its event again: the wedding day,
/// the ceremony, the dress fittings (one repeating event), or an appointment of a kind the
/// couple names (`venue-visit`, `tasting`, `florist`, `rehearsal`, …).
struct PlanItem: Hashable, Sendable {
  let id: Int64
  var kind: String
  var vendor: String?
  var place: String?
  var state: State
  /// The event's `eventIdentifier` (a repeating event's: its first occurrence's).
  var eventIdentifier: String?
  /// When it starts, as last written by the app: what `plan` shows when the app may not read
  /// the calendar (write-only access).
  var start: Date?

  enum State: String, Sendable {
    case planned, done, cancelled
  }

  /// The kinds the app gives a meaning of its own.
  static let day = "day"
  static let ceremony = "ceremony"
  static let fittings = "fittings"

  /// The event's title: "Wedding day", "Ceremony", "Dress fitting", or the kind in words with
  /// the vendor: "Tasting: Sweet Things", "Venue visit".
  var title: String {
    switch kind {
    case Self.day: return "Wedding day"
    case Self.ceremony: return "Ceremony"
    case Self.fittings: return "Dress fitting"
    default:
      let words = kind.replacingOccurrences(of: "-", with: " ")
      let label = words.prefix(1).uppercased() + words.dropFirst()
      return vendor.map { "\(label): \($0)" } ?? label
    }
  }

  /// The link from the event back to the plan item, which the app finds its events by (a
  /// detached occurrence or a split series keeps it).
  var url: URL { Self.url(id) }

  static func url(_ id: Int64) -> URL { URL(string: "wedding-planner://item/\(id)")! }

  /// The plan item an event links back to, from its URL.
  static func id(of url: URL?) -> Int64? {
    guard let url, url.scheme == "wedding-planner", url.host == "item" else { return nil }
    return Int64(url.lastPathComponent)
  }
}

/// The day and the venue, with the venue's time zone (the ceremony's clock).
struct Wedding: Hashable, Sendable {
  /// The day, `2027-06-12`.
  var day: String
  var venue: String
  var zone: TimeZone
}
