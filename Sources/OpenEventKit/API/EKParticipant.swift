import Foundation

/// An attendee or the organizer of an event. Read-only, as in EventKit: participants come from
/// invitations (in OpenEventKit, from imported .ics files).
///
/// See <doc:ICalendarFiles>.
open class EKParticipant: EKObject, NSCopying, @unchecked Sendable {
  let values: ParticipantValues

  init(values: ParticipantValues) {
    self.values = values
  }

  /// Usually a `mailto:` URL. See <doc:ICalendarFiles>.
  open var url: URL { values.url }
  /// The participant's display name, when the invitation gives one. See <doc:ICalendarFiles>.
  open var name: String? { values.name }
  /// The participant's answer to the invitation (PARTSTAT). See <doc:ICalendarFiles>.
  open var participantStatus: EKParticipantStatus { values.status }
  /// The participant's role in the event (ROLE). See <doc:ICalendarFiles>.
  open var participantRole: EKParticipantRole { values.role }
  /// Whether the participant is a person, room, resource or group (CUTYPE).
  ///
  /// See <doc:ICalendarFiles>.
  open var participantType: EKParticipantType { values.type }
  /// Whether the participant is the person who owns the store. Differs from Apple's:
  /// OpenEventKit does not know the person's own addresses, so imported participants have it
  /// false.
  ///
  /// See <doc:ICalendarFiles>.
  open var isCurrentUser: Bool { values.isCurrentUser }

  /// A predicate matching the participant's email address, as Apple's offers for Contacts.
  ///
  /// Differs from Apple's: Linux has no Contacts framework, so the predicate matches an email
  /// address given as a `String`, ignoring case.
  ///
  /// See <doc:EventKitCompatibility#EKParticipant>.
  open var contactPredicate: NSPredicate {
    let address = values.url.absoluteString.replacingOccurrences(of: "mailto:", with: "")
    return NSPredicate { object, _ in
      (object as? String)?.caseInsensitiveCompare(address) == .orderedSame
    }
  }

  /// The participant itself: it is immutable.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: This participant.
  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// Whether `object` is a participant with the same values.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True when every value is equal.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKParticipant)?.values == values
  }

  /// A hash of the values, matching ``isEqual(_:)``.
  open override var hash: Int { values.hashValue }

  /// A short summary for debugging: name or URL, and status.
  open override var description: String {
    "EKParticipant(\(values.name ?? values.url.absoluteString), status: \(values.status))"
  }
}
