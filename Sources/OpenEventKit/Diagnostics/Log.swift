import Logging

/// The store's loggers, one label for each part, so that an app can route, filter or
/// silence each with its swift-log handler (`LoggingSystem.bootstrap`). The library never
/// bootstraps a handler and never writes to standard error itself: with no handler set,
/// swift-log's default writes records of level `info` and above to standard error.
///
/// What each says:
/// - `org.openeventkit.store`: failures an API without `throws` must swallow (`error`), and
///   at `debug` every SQL statement with its time.
/// - `org.openeventkit.changes`: at `debug`, each change seen (a burst of commits by this
///   process or another) and the `EKEventStoreChanged` it posts.
/// - `org.openeventkit.privacy`: the access question when it is asked on standard input, and
///   a request not asked (`OPENEVENTKIT_PROMPT=none`), at `notice`.
/// - `org.openeventkit.sync`: at `debug`, what each CalDAV sync sent and received, and why
///   one failed (the caller gets the error; a background sync's failure is the store's).
/// - `org.openeventkit.alarms`: at `debug`, each round of an alarm agent once its firings are
///   handed over: its time, how many it delivered and told as missed, and its next wake.
///
/// Routine work logs at `debug` only, so that a program that bootstraps nothing sees no line
/// of ours unless something failed.
///   The CalDAV traffic itself is `org.openeventkit.caldav`, at `debug`.
package enum Log {
  static let store = Logger(label: "org.openeventkit.store")
  static let changes = Logger(label: "org.openeventkit.changes")
  static let privacy = Logger(label: "org.openeventkit.privacy")
  package static let sync = Logger(label: "org.openeventkit.sync")
  static let alarms = Logger(label: "org.openeventkit.alarms")
}
