import Foundation

/// What `enumerateEvents(matching:using:)` calls for each event; set `stop.pointee = true` to
/// end the enumeration.
///
/// See <doc:FetchingEvents>.
public typealias EKEventSearchCallback = (EKEvent, UnsafeMutablePointer<ObjCBool>) -> Void

/// What an access request's completion receives: whether access is granted, and an error when
/// the request itself failed. `@Sendable`, as Apple's SDKs now declare it: the completion runs
/// on a background queue, never on the caller's.
///
/// See <doc:Privacy#Requesting-access>.
public typealias EKEventStoreRequestAccessCompletionHandler = @Sendable (Bool, (any Error)?) -> Void
