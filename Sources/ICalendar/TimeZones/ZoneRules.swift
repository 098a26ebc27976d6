import Foundation
import Synchronization

/// One change of a zone's UTC offset.
struct ZoneTransition: Hashable, Sendable {
  /// The instant of the change, in seconds since 1970-01-01T00:00:00Z.
  let utc: Int
  let offsetBefore: Int
  let offsetAfter: Int

  /// The first wall-clock reading that is read with the new offset alone. Readings before it
  /// but after `utc + min(offsets)` fall in the gap or the overlap, and keep the old offset —
  /// which is exactly what RFC 5545 §3.3.5 asks for (see ``ZoneRules/instant(forLocal:)``).
  var localKey: Int { utc + max(offsetBefore, offsetAfter) }
}

/// A stretch of wall-clock readings that all take one offset.
struct LocalSegment: Sendable {
  let localStart: Int
  let localEnd: Int
  let offset: Int
  /// Instants at or past this lie beyond the segment: a reading converted to one was in a gap.
  let utcEnd: Int

  func contains(_ local: Int) -> Bool { local >= localStart && local < localEnd }
}

/// The offsets of one tz database zone through time, read once from its TZif file and kept,
/// so that converting an instance costs a comparison or a binary search, never a call into
/// Foundation.
///
/// Times are plain integers: instants in seconds since 1970-01-01T00:00:00Z, wall-clock
/// readings in ``CivilDateTime/localSeconds``, offsets in seconds east of UTC. The zone files
/// are read from `$TZDIR`, or `/usr/share/zoneinfo` when it is not set.
///
/// ```swift
/// let paris = try ZoneRules.named("Europe/Paris")
/// let summer = CivilDateTime(year: 2025, month: 7, day: 1, hour: 12)!
/// let (instant, shifted) = paris.instant(forLocal: summer.localSeconds)
/// print(instant, shifted)  // 1751364000 false
/// print(paris.offset(atUTC: instant))  // 7200
/// print(CivilDateTime(localSeconds: paris.local(forUTC: instant)))  // 20250701T120000
/// ```
public final class ZoneRules: Sendable {
  /// The zone's name: its tz database identifier, or the TZID of the VTIMEZONE it was
  /// read from.
  public let identifier: String
  let transitions: [ZoneTransition]
  let initialOffset: Int
  /// Extends the rules past the last listed transition (the TZif footer).
  let footer: PosixTimeZoneRule?
  /// The smallest and largest offsets the zone ever has, for bounding window searches.
  public let minimumOffset: Int
  /// The largest offset the zone ever has, in seconds east of UTC; see ``minimumOffset``.
  public let maximumOffset: Int

  init(
    identifier: String, transitions: [ZoneTransition], initialOffset: Int,
    footer: PosixTimeZoneRule?
  ) {
    self.identifier = identifier
    self.transitions = transitions
    self.initialOffset = initialOffset
    self.footer = footer
    var offsets = [initialOffset] + transitions.map(\.offsetAfter)
    if let footer {
      offsets.append(footer.standardOffset)
      if let daylight = footer.daylight { offsets.append(daylight.offset) }
    }
    minimumOffset = offsets.min()!
    maximumOffset = offsets.max()!
  }

  /// UTC itself.
  public static let utc = ZoneRules(
    identifier: "UTC", transitions: [], initialOffset: 0, footer: nil)

  // MARK: Conversions

  /// The offset from UTC, east positive, in force at an instant.
  ///
  /// ```swift
  /// let newYork = try ZoneRules.named("America/New_York")
  /// let winter = try DateTimeValue(parsing: "20250115T120000Z").secondsSinceEpoch()
  /// print(newYork.offset(atUTC: winter))  // -18000, five hours west
  /// ```
  ///
  /// - Parameter instant: Seconds since 1970-01-01T00:00:00Z.
  /// - Returns: The offset in seconds; after a change, the new one.
  public func offset(atUTC instant: Int) -> Int {
    if let footer, footer.daylight != nil, transitions.last.map({ instant >= $0.utc }) ?? true {
      return footer.offset(atUTC: instant)
    }
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle].utc <= instant { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? initialOffset : transitions[low - 1].offsetAfter
  }

  /// The wall-clock reading of an instant.
  ///
  /// ```swift
  /// let tokyo = try ZoneRules.named("Asia/Tokyo")
  /// let instant = try DateTimeValue(parsing: "20250301T000000Z").secondsSinceEpoch()
  /// print(CivilDateTime(localSeconds: tokyo.local(forUTC: instant)))  // 20250301T090000
  /// ```
  ///
  /// - Parameter instant: Seconds since 1970-01-01T00:00:00Z.
  /// - Returns: The reading in the zone, as ``CivilDateTime/localSeconds``.
  public func local(forUTC instant: Int) -> Int { instant + offset(atUTC: instant) }

  /// The instant of a wall-clock reading, as RFC 5545 §3.3.5 resolves readings that a
  /// change of offset skips or repeats.
  ///
  /// A reading in a gap (02:30 on the night clocks go from 02:00 to 03:00) is read with the
  /// offset from before the gap, which moves it forward by the gap's length (to 03:30); a
  /// reading in an overlap (01:30 on the night clocks go back) is the first of the two, also
  /// the offset from before. `shifted` tells that the reading was in a gap.
  ///
  /// ```swift
  /// let newYork = try ZoneRules.named("America/New_York")
  /// // 02:30 on 9 March 2025 never happens: the clocks go from 02:00 to 03:00.
  /// let skipped = CivilDateTime(year: 2025, month: 3, day: 9, hour: 2, minute: 30)!
  /// let (instant, shifted) = newYork.instant(forLocal: skipped.localSeconds)
  /// print(shifted)  // true
  /// print(CivilDateTime(localSeconds: newYork.local(forUTC: instant)))  // 20250309T033000
  /// ```
  ///
  /// - Parameter local: A wall-clock reading, as ``CivilDateTime/localSeconds``.
  /// - Returns: `seconds`, the instant in seconds since 1970-01-01T00:00:00Z, and `shifted`,
  ///   whether the reading was in a gap and so names a later wall-clock time.
  public func instant(forLocal local: Int) -> (seconds: Int, shifted: Bool) {
    let segment = segment(forLocal: local)
    let instant = local - segment.offset
    return (instant, instant >= segment.utcEnd)
  }

  /// Whether the clocks jump forward (a gap of readings that never happen) at any instant in
  /// `[from, to]`.
  ///
  /// Conservative: a range that reaches past the last change the zone file lists, in a zone
  /// whose rule still observes daylight-saving time, is taken to hold a gap without looking
  /// for it, so `true` may be given for a range with none; `false` is always exact.
  ///
  /// ```swift
  /// let january = try DateTimeValue(parsing: "20250101T000000Z").secondsSinceEpoch()
  /// let april = try DateTimeValue(parsing: "20250401T000000Z").secondsSinceEpoch()
  /// print(try ZoneRules.named("Europe/Berlin").hasGap(fromUTC: january, toUTC: april))
  /// // true: the clocks went forward on 30 March 2025
  /// print(try ZoneRules.named("Asia/Tokyo").hasGap(fromUTC: january, toUTC: april))
  /// // false: Japan keeps one offset all year
  /// ```
  ///
  /// - Parameters:
  ///   - from: The first instant of the range, in seconds since 1970 UTC.
  ///   - to: The last instant of the range, included.
  /// - Returns: Whether the offset increases at some instant of the range; `false` for an
  ///   empty range.
  public func hasGap(fromUTC from: Int, toUTC to: Int) -> Bool {
    guard from <= to else { return false }
    if let footer, let daylight = footer.daylight, daylight.offset != footer.standardOffset,
      transitions.last.map({ to >= $0.utc }) ?? true
    {
      return true
    }
    var index = firstTransition(atOrAfterUTC: from)
    while index < transitions.count, transitions[index].utc <= to {
      if transitions[index].offsetAfter > transitions[index].offsetBefore { return true }
      index += 1
    }
    return false
  }

  /// The index of the first listed transition at or after `utc` (the count when none is).
  private func firstTransition(atOrAfterUTC utc: Int) -> Int {
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle].utc < utc { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The first change in `[from, to]` that makes the clocks jump forward, nil when there is
  /// none: from the listed transitions, then from the footer's rule year by year (it has one
  /// such change a year, so the search ends within a year of `from`).
  func firstGap(fromUTC from: Int, toUTC to: Int) -> ZoneTransition? {
    guard from <= to else { return nil }
    var index = firstTransition(atOrAfterUTC: from)
    while index < transitions.count, transitions[index].utc <= to {
      if transitions[index].offsetAfter > transitions[index].offsetBefore {
        return transitions[index]
      }
      index += 1
    }
    guard let footer, let daylight = footer.daylight, daylight.offset != footer.standardOffset
    else { return nil }
    let begin = Swift.max(from, (transitions.last?.utc ?? Int.min) + 1)
    guard begin <= to else { return nil }
    var year = CivilDate(dayNumber: begin.floorDivided(by: 86_400)).year - 1
    let lastYear = CivilDate(dayNumber: to.floorDivided(by: 86_400)).year + 1
    while year <= lastYear {
      guard let (first, second) = footer.orderedTransitions(year: year) else { return nil }
      for transition in [first, second]
      where transition.utc >= begin && transition.utc <= to
        && transition.offsetAfter > transition.offsetBefore
      {
        return transition
      }
      year += 1
    }
    return nil
  }

  /// The segment of wall-clock readings around `local`.
  func segment(forLocal local: Int) -> LocalSegment {
    if let footer, footer.daylight != nil, transitions.last.map({ local >= $0.localKey }) ?? true {
      // Past the listed transitions: the footer's rule gives those of the years around. They
      // are gathered on the stack, as this runs whenever an expansion crosses a DST change.
      let year = CivilDate(dayNumber: local.floorDivided(by: 86_400)).year
      let after = transitions.last?.utc ?? Int.min
      return withUnsafeTemporaryAllocation(of: ZoneTransition.self, capacity: 7) { buffer in
        var count = 0
        if let last = transitions.last {
          buffer.initializeElement(at: 0, to: last)
          count = 1
        }
        for y in (year - 1)...(year + 1) {
          let (first, second) = footer.orderedTransitions(year: y)!
          for transition in [first, second] where transition.utc > after {
            buffer.initializeElement(at: count, to: transition)
            count += 1
          }
        }
        let nearby = UnsafeBufferPointer(rebasing: buffer[..<count])
        let segment = ZoneRules.segment(forLocal: local, in: nearby, initialOffset: initialOffset)
        buffer.baseAddress!.deinitialize(count: count)
        return segment
      }
    }
    return ZoneRules.segment(forLocal: local, in: transitions, initialOffset: initialOffset)
  }

  private static func segment<Transitions: RandomAccessCollection<ZoneTransition>>(
    forLocal local: Int, in transitions: Transitions, initialOffset: Int
  ) -> LocalSegment where Transitions.Index == Int {
    // The last transition whose new offset alone governs `local`.
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle].localKey <= local { low = middle + 1 } else { high = middle }
    }
    let previous = low > 0 ? transitions[low - 1] : nil
    let next = low < transitions.count ? transitions[low] : nil
    return LocalSegment(
      localStart: previous?.localKey ?? Int.min,
      localEnd: next?.localKey ?? Int.max,
      offset: previous?.offsetAfter ?? initialOffset,
      utcEnd: next?.utc ?? Int.max)
  }

  // MARK: Loading

  private static let cache = Mutex<[String: ZoneRules]>([:])

  /// The rules of a tz database zone (`America/New_York`), loaded once per process.
  ///
  /// The zone's TZif file (RFC 8536) is read from `$TZDIR` or `/usr/share/zoneinfo`; `UTC`,
  /// `Etc/UTC`, `GMT` and `Z` need no file.
  ///
  /// ```swift
  /// let newYork = try ZoneRules.named("America/New_York")
  /// print(newYork.offset(atUTC: 0))  // -18000
  /// ```
  ///
  /// - Parameter identifier: A tz database identifier, exactly as the database spells it.
  /// - Returns: The zone's rules, shared by every caller.
  /// - Throws: ``TimeZoneError/unknownTimeZone(_:)`` when there is no zone file of that name
  ///   (or the name holds characters no identifier has, or a `.` or `..` path part);
  ///   ``TimeZoneError/unreadableTimeZone(_:reason:)`` when the file is not valid TZif.
  public static func named(_ identifier: String) throws(TimeZoneError) -> ZoneRules {
    if let cached = cache.withLock({ $0[identifier] }) { return cached }
    let rules = try load(identifier)
    cache.withLock { $0[identifier] = rules }
    return rules
  }

  /// The folder of compiled zone files: `$TZDIR`, or the system's.
  static var zoneDirectory: String {
    ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
  }

  private static func load(_ identifier: String) throws(TimeZoneError) -> ZoneRules {
    let allowed = identifier.utf8.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A)
        || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        || $0 == UInt8(ascii: "+")
    }
    guard allowed, !identifier.isEmpty, !identifier.hasPrefix("/"),
      !identifier.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
    else { throw .unknownTimeZone(identifier) }
    let path = zoneDirectory + "/" + identifier
    guard let data = FileManager.default.contents(atPath: path) else {
      if ["UTC", "Etc/UTC", "GMT", "Z"].contains(identifier) { return .utc }
      throw .unknownTimeZone(identifier)
    }
    do {
      let file = try TZifFile(data: data)
      return ZoneRules(
        identifier: identifier, transitions: file.transitions,
        initialOffset: file.initialOffset, footer: file.footer)
    } catch {
      throw .unreadableTimeZone(identifier, reason: error.reason)
    }
  }
}

/// Converts a run of increasing wall-clock readings to instants, keeping the current segment
/// so that consecutive instances cost two comparisons instead of a search.
struct ZoneCursor {
  let rules: ZoneRules
  private var segment: LocalSegment

  init(rules: ZoneRules) {
    self.rules = rules
    segment = LocalSegment(localStart: 0, localEnd: 0, offset: 0, utcEnd: 0)
  }

  @inline(__always)
  mutating func instant(forLocal local: Int) -> (seconds: Int, shifted: Bool) {
    if !segment.contains(local) { segment = rules.segment(forLocal: local) }
    let instant = local - segment.offset
    return (instant, instant >= segment.utcEnd)
  }
}
