/// The iCalendar words for EventKit's values, one table each (``ICalendarValueTable``), read
/// by `ICalendarItemReader` and written by `ICalendarItemWriter`.
enum ICalendarValueTables {
  /// A VEVENT's STATUS (RFC 5545 §3.8.1.11). EventKit's `.none` is no STATUS at all.
  static let eventStatus = ICalendarValueTable<EKEventStatus>([
    "CONFIRMED": .confirmed, "TENTATIVE": .tentative, "CANCELLED": .canceled,
  ])

  /// TRANSP (RFC 5545 §3.8.2.7): transparent is free; every other availability blocks time.
  /// A missing TRANSP is OPAQUE.
  static let transparency = ICalendarValueTable<EKEventAvailability>(
    ["TRANSPARENT": .free, "OPAQUE": .busy],
    alsoWrite: [.tentative: "OPAQUE", .unavailable: "OPAQUE", .notSupported: "OPAQUE"])

  /// Microsoft's X-MICROSOFT-CDO-BUSYSTATUS ([MS-OXCICAL] §2.1.3.1.1.20.2), which says the
  /// tentative and away that TRANSP cannot; where a file has it, it overrides TRANSP.
  static let busyStatus = ICalendarValueTable<EKEventAvailability>(
    ["FREE": .free, "TENTATIVE": .tentative, "OOF": .unavailable, "BUSY": .busy],
    alsoWrite: [.notSupported: "BUSY"])

  /// An attendee's ROLE (RFC 5545 §3.2.16). Without one, an attendee is required
  /// (REQ-PARTICIPANT is the default) and an organizer chairs.
  static let role = ICalendarValueTable<EKParticipantRole>([
    "REQ-PARTICIPANT": .required, "OPT-PARTICIPANT": .optional, "CHAIR": .chair,
    "NON-PARTICIPANT": .nonParticipant,
  ])

  /// An attendee's PARTSTAT (RFC 5545 §3.2.12). Without one, an attendee has not answered
  /// (NEEDS-ACTION is the default) and an organizer has accepted.
  static let participationStatus = ICalendarValueTable<EKParticipantStatus>([
    "NEEDS-ACTION": .pending, "ACCEPTED": .accepted, "DECLINED": .declined,
    "TENTATIVE": .tentative, "DELEGATED": .delegated, "COMPLETED": .completed,
    "IN-PROCESS": .inProcess,
  ])

  /// An attendee's CUTYPE (RFC 5545 §3.2.3). Without one, an attendee is a person
  /// (INDIVIDUAL is the default), so a person's CUTYPE is not written.
  static let userType = ICalendarValueTable<EKParticipantType>([
    "INDIVIDUAL": .person, "GROUP": .group, "RESOURCE": .resource, "ROOM": .room,
  ])
}
