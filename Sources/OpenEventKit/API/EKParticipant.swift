import Foundation

/// An attendee or the organizer of an event. Read-only, as in EventKit: participants come from
/// invitations (in OpenEventKit, from imported .ics files).
open class EKParticipant: EKObject, NSCopying, @unchecked Sendable {
  let values: ParticipantValues

  init(values: ParticipantValues) {
    self.values = values
  }

  /// Usually a `mailto:` URL.
  open var url: URL { values.url }
  open var name: String? { values.name }
  open var participantStatus: EKParticipantStatus { values.status }
  open var participantRole: EKParticipantRole { values.role }
  open var participantType: EKParticipantType { values.type }
  open var isCurrentUser: Bool { values.isCurrentUser }

  /// A predicate matching the participant's email address, as Apple's offers for Contacts.
  open var contactPredicate: NSPredicate {
    let address = values.url.absoluteString.replacingOccurrences(of: "mailto:", with: "")
    return NSPredicate { object, _ in
      (object as? String)?.caseInsensitiveCompare(address) == .orderedSame
    }
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKParticipant)?.values == values
  }

  open override var hash: Int { values.hashValue }

  open override var description: String {
    "EKParticipant(\(values.name ?? values.url.absoluteString), status: \(values.status))"
  }
}
