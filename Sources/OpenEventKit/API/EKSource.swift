import Foundation

/// Where calendars come from: the Local source on this machine, or subscribed calendars.
open class EKSource: EKObject, @unchecked Sendable {
  let eventStore: EKEventStore
  let record: SourceRecord

  init(eventStore: EKEventStore, record: SourceRecord) {
    self.eventStore = eventStore
    self.record = record
  }

  open var sourceIdentifier: String { record.id }
  open var sourceType: EKSourceType { record.type }
  open var title: String { record.title }
  /// Delegated accounts do not exist here.
  open var isDelegate: Bool { false }

  /// The source's calendars that hold `entityType`.
  open func calendars(for entityType: EKEntityType) -> Set<EKCalendar> {
    Set(eventStore.calendars(for: entityType).filter { $0.record.sourceId == record.id })
  }

  /// Every calendar of the source.
  @available(*, deprecated, renamed: "calendars(for:)")
  open var calendars: Set<EKCalendar> {
    calendars(for: .event).union(calendars(for: .reminder))
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKSource else { return false }
    return other.record.id == record.id
  }

  open override var hash: Int { record.id.hashValue }

  open override var description: String {
    "EKSource(title: \(record.title), type: \(record.type), id: \(record.id))"
  }
}
