import Foundation

/// Where calendars come from: the Local source on this machine, the Subscribed Calendars source, or
/// a CalDAV account.
///
/// See <doc:Learn> and <doc:Sync>.
open class EKSource: EKObject, @unchecked Sendable {
  let eventStore: EKEventStore
  let record: SourceRecord

  init(eventStore: EKEventStore, record: SourceRecord) {
    self.eventStore = eventStore
    self.record = record
  }

  /// See <doc:Identifiers>.
  open var sourceIdentifier: String { record.id }
  /// `.local` for the store's own source, `.subscribed` for Subscribed Calendars, `.calDAV` for
  /// each account added with `CalDAVAccounts` or `ekctl account add`. See <doc:Sync>.
  open var sourceType: EKSourceType { record.type }
  /// The source's name as the person sees it. See <doc:Learn>.
  open var title: String { record.title }
  /// Delegated accounts do not exist here.
  ///
  /// Differs from Apple's: always false. See <doc:Learn>.
  open var isDelegate: Bool { false }

  /// The source's calendars that hold `entityType`.
  ///
  /// Only the calendars the app's access lets it see. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - entityType: `.event` for calendars, `.reminder` for reminder lists.
  /// - Returns: The calendars, as a set.
  ///
  /// ```swift
  /// for source in store.sources {
  ///   print(source.title, source.calendars(for: .event).map(\.title))
  /// }
  /// ```
  open func calendars(for entityType: EKEntityType) -> Set<EKCalendar> {
    Set(eventStore.calendars(for: entityType).filter { $0.record.sourceId == record.id })
  }

  /// Every calendar of the source.
  ///
  /// Deprecated, as Apple's is. See <doc:Learn>.
  @available(*, deprecated, renamed: "calendars(for:)")
  open var calendars: Set<EKCalendar> {
    calendars(for: .event).union(calendars(for: .reminder))
  }

  /// Whether `object` is a source with the same identifier.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for the same source.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKSource else { return false }
    return other.record.id == record.id
  }

  /// A hash of the identifier, matching ``isEqual(_:)``.
  open override var hash: Int { record.id.hashValue }

  /// A short summary for debugging: title, type and identifier.
  open override var description: String {
    "EKSource(title: \(record.title), type: \(record.type), id: \(record.id))"
  }
}
