import Foundation

/// A reminder for an event or a reminder: at an offset from its start (or due date), at a fixed
/// date, or on arriving at or leaving a place.
open class EKAlarm: EKObject, NSCopying, @unchecked Sendable {
  /// Everything but the place, which lives in `location` so that changes made to the
  /// object `structuredLocation` returns reach the alarm, as with Apple's.
  private var values: AlarmValues
  private var location: EKStructuredLocation?

  /// An alarm at the start (a relative offset of 0), to be configured, as `EKAlarm()` makes
  /// in EventKit code that sets a location or proximity next.
  public override init() {
    values = AlarmValues()
  }

  convenience init(values: AlarmValues) {
    self.init()
    self.values = values
    location = values.location.map(EKStructuredLocation.init(values:))
    self.values.location = nil
  }

  /// The alarm as the store keeps it.
  var snapshot: AlarmValues {
    var snapshot = values
    snapshot.location = location?.values
    return snapshot
  }

  public convenience init(absoluteDate date: Date) {
    self.init(values: AlarmValues(absoluteDate: date))
  }

  /// Seconds from the item's start; negative is before it.
  public convenience init(relativeOffset offset: TimeInterval) {
    self.init(values: AlarmValues(relativeOffset: offset))
  }

  /// Seconds from the start; setting it clears `absoluteDate`.
  open var relativeOffset: TimeInterval {
    get { values.relativeOffset }
    set {
      values.relativeOffset = newValue
      values.absoluteDate = nil
    }
  }

  /// A fixed date; setting it makes the alarm absolute (and `relativeOffset` 0).
  open var absoluteDate: Date? {
    get { values.absoluteDate }
    set {
      values.absoluteDate = newValue
      if newValue != nil { values.relativeOffset = 0 }
    }
  }

  /// Set as a copy (`@NSCopying` in Apple's header).
  open var structuredLocation: EKStructuredLocation? {
    get { location }
    set { location = newValue?.copy() as? EKStructuredLocation }
  }

  open var proximity: EKAlarmProximity {
    get { values.proximity }
    set { values.proximity = newValue }
  }

  /// What the alarm does, derived from what is set, as on macOS.
  open var type: EKAlarmType {
    if values.emailAddress != nil { return .email }
    if values.soundName != nil { return .audio }
    if values.url != nil { return .procedure }
    return .display
  }

  /// Setting it clears `soundName` and `url`.
  open var emailAddress: String? {
    get { values.emailAddress }
    set {
      values.emailAddress = newValue
      if newValue != nil { (values.soundName, values.url) = (nil, nil) }
    }
  }

  /// Setting it clears `emailAddress` and `url`.
  open var soundName: String? {
    get { values.soundName }
    set {
      values.soundName = newValue
      if newValue != nil { (values.emailAddress, values.url) = (nil, nil) }
    }
  }

  /// A procedure to run. Deprecated on macOS; saving an alarm with one is refused, as there.
  @available(*, deprecated, message: "Procedure alarms are not supported")
  open var url: URL? {
    get { values.url }
    set {
      values.url = newValue
      if newValue != nil { (values.emailAddress, values.soundName) = (nil, nil) }
    }
  }

  public func copy(with zone: NSZone? = nil) -> Any { EKAlarm(values: snapshot) }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKAlarm)?.snapshot == snapshot
  }

  open override var hash: Int { snapshot.hashValue }

  open override var description: String {
    if let date = values.absoluteDate { return "EKAlarm(absoluteDate: \(date))" }
    return "EKAlarm(relativeOffset: \(values.relativeOffset))"
  }
}
