import Foundation
import OpenEventKit

/// Attendees and organizers in words: "Claire Dupont <claire@example.com>, accepted".
enum ParticipantWords {
  static func name(_ participant: EKParticipant) -> String {
    let address =
      participant.url.scheme?.lowercased() == "mailto"
      ? String(participant.url.absoluteString.dropFirst("mailto:".count))
      : participant.url.absoluteString
    guard let name = participant.name, !name.isEmpty else { return address }
    return address.isEmpty ? name : "\(name) <\(address)>"
  }

  static func describe(_ participant: EKParticipant) -> String {
    var text = name(participant) + ", " + status(participant.participantStatus)
    switch participant.participantRole {
    case .optional: text += " (optional)"
    case .chair: text += " (chair)"
    case .nonParticipant: text += " (for information)"
    case .required, .unknown: break
    }
    return text
  }

  static func status(_ status: EKParticipantStatus) -> String {
    switch status {
    case .unknown: "no answer known"
    case .pending: "not answered yet"
    case .accepted: "accepted"
    case .declined: "declined"
    case .tentative: "maybe"
    case .delegated: "delegated"
    case .completed: "completed"
    case .inProcess: "in progress"
    }
  }
}
