import Foundation

/// A reminder for an event or a reminder: at an offset from its start (or due date), at a fixed
/// date, or on arriving at or leaving a place.
///
/// Differs from Apple's: a location alarm is only stored, since nothing on Linux tracks where
/// the person is. See <doc:Learn>.
open class EKAlarm: EKObject, NSCopying, @unchecked Sendable {
  /// Everything but the place, which lives in `location` so that changes made to the
  /// object `structuredLocation` returns reach the alarm, as with Apple's.
  private var values: AlarmValues
  private var location: EKStructuredLocation?

  /// An alarm at the start (a relative offset of 0), to be configured, as `EKAlarm()` makes
  /// in EventKit code that sets a location or proximity next.
  ///
  /// See <doc:Learn>.
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

  /// An alarm at a fixed date, whatever the item's start. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - date: When the alarm goes off.
  ///
  /// ```swift
  /// let tomorrowMorning = Calendar.current.date(byAdding: .day, value: 1, to: Date())!
  /// reminder.addAlarm(EKAlarm(absoluteDate: tomorrowMorning))
  /// ```
  public convenience init(absoluteDate date: Date) {
    self.init(values: AlarmValues(absoluteDate: date))
  }

  /// Seconds from the item's start; negative is before it.
  ///
  /// See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - offset: Seconds from the start; negative is before it.
  ///
  /// ```swift
  /// event.addAlarm(EKAlarm(relativeOffset: -30 * 60))  // half an hour before
  /// ```
  public convenience init(relativeOffset offset: TimeInterval) {
    self.init(values: AlarmValues(relativeOffset: offset))
  }

  /// Seconds from the start; setting it clears `absoluteDate`. See <doc:Learn>.
  open var relativeOffset: TimeInterval {
    get { values.relativeOffset }
    set {
      values.relativeOffset = newValue
      values.absoluteDate = nil
    }
  }

  /// A fixed date; setting it makes the alarm absolute (and `relativeOffset` 0). See <doc:Learn>.
  open var absoluteDate: Date? {
    get { values.absoluteDate }
    set {
      values.absoluteDate = newValue
      if newValue != nil { values.relativeOffset = 0 }
    }
  }

  /// Set as a copy (`@NSCopying` in Apple's header).
  ///
  /// The place a proximity alarm watches. See <doc:Learn>.
  open var structuredLocation: EKStructuredLocation? {
    get { location }
    set { location = newValue?.copy() as? EKStructuredLocation }
  }

  /// Whether the alarm goes off on arriving at or leaving its ``structuredLocation``; saving an
  /// alarm with a proximity but no location throws ``EKError/Code/alarmProximityNotSupported``. See
  /// <doc:Learn>.
  open var proximity: EKAlarmProximity {
    get { values.proximity }
    set { values.proximity = newValue }
  }

  /// What the alarm does, derived from what is set, as on macOS. See <doc:Learn>.
  open var type: EKAlarmType {
    if values.emailAddress != nil { return .email }
    if values.soundName != nil { return .audio }
    if values.url != nil { return .procedure }
    return .display
  }

  /// Setting it clears `soundName` and `url`.
  ///
  /// Where an email alarm sends its message. Saving a reminder with one throws
  /// ``EKError/Code/reminderAlarmContainsEmailOrUrl``. See <doc:Learn>.
  open var emailAddress: String? {
    get { values.emailAddress }
    set {
      values.emailAddress = newValue
      if newValue != nil { (values.soundName, values.url) = (nil, nil) }
    }
  }

  /// Setting it clears `emailAddress` and `url`.
  ///
  /// The sound an audio alarm plays. See <doc:Learn>.
  open var soundName: String? {
    get { values.soundName }
    set {
      values.soundName = newValue
      if newValue != nil { (values.emailAddress, values.url) = (nil, nil) }
    }
  }

  /// A procedure to run. Deprecated on macOS; saving an alarm with one is refused, as there.
  ///
  /// Saving an item with one throws ``EKError/Code/procedureAlarmsNotMutable``. See
  /// <doc:SavingAndBatching#When-a-save-is-refused>.
  @available(*, deprecated, message: "Procedure alarms are not supported")
  open var url: URL? {
    get { values.url }
    set {
      values.url = newValue
      if newValue != nil { (values.emailAddress, values.soundName) = (nil, nil) }
    }
  }

  /// A new alarm with the same values and a copy of the location.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: An `EKAlarm`.
  public func copy(with zone: NSZone? = nil) -> Any { EKAlarm(values: snapshot) }

  /// Whether `object` is an alarm with the same values.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True when every value is equal.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKAlarm)?.snapshot == snapshot
  }

  /// A hash of the values, matching ``isEqual(_:)``.
  open override var hash: Int { snapshot.hashValue }

  /// A short summary for debugging: the trigger.
  open override var description: String {
    if let date = values.absoluteDate { return "EKAlarm(absoluteDate: \(date))" }
    return "EKAlarm(relativeOffset: \(values.relativeOffset))"
  }
}
