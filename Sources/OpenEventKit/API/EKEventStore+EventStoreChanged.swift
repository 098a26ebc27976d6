import Foundation

#if compiler(>=6.2)
  extension EKEventStore {
    /// `EKEventStoreChanged` as a typed message (Apple's, iOS 26 and macOS 26): posted on the
    /// main actor whenever the store's database changed, by this store, another store or
    /// another process.
    ///
    /// ```swift
    /// let observation = NotificationCenter.default.addObserver(of: store, for: .changed) {
    ///   _ in refetch()
    /// }
    /// ```
    ///
    /// It arrives only while the main actor runs: an `async` main, `RunLoop.main.run()` or
    /// `dispatchMain()`. A program whose main thread does other work observes the
    /// `EKEventStoreChanged` notification, posted at once on a background queue
    /// (<doc:ObservingChanges>).
    public struct EventStoreChanged: NotificationCenter.MainActorMessage {
      public typealias Subject = EKEventStore

      public static var name: Notification.Name { .EKEventStoreChanged }

      public init() {}

      @MainActor
      public static func makeMessage(_ notification: Notification) -> EventStoreChanged? {
        notification.name == name ? EventStoreChanged() : nil
      }

      @MainActor
      public static func makeNotification(_ message: EventStoreChanged) -> Notification {
        Notification(name: name)
      }
    }

    /// Posts the message on the main actor, after the notification.
    func postChangedMessage() {
      Task { @MainActor [self] in
        NotificationCenter.default.post(EventStoreChanged(), subject: self)
      }
    }
  }

  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<EKEventStore.EventStoreChanged> {
    /// ``EKEventStore/EventStoreChanged``, for `addObserver(of:for:)`.
    public static var changed: Self { .init() }
  }
#else
  extension EKEventStore {
    func postChangedMessage() {}
  }
#endif
