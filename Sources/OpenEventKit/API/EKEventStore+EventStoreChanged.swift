import Foundation

#if compiler(>=6.2)
  extension EKEventStore {
    /// `EKEventStoreChanged` as a typed message (Apple's, iOS 26 and macOS 26): posted on the
    /// main actor whenever the store's database changed, by this store, another store or
    /// another process.
    ///
    /// ```swift
    /// let observation = NotificationCenter.default.addObserver(of: store, for: .changed) {
    ///   _ in print("The calendars changed: fetch what is shown again.")
    /// }
    /// ```
    ///
    /// It arrives only while the main actor runs: an `async` main, `RunLoop.main.run()` or
    /// `dispatchMain()`. A program whose main thread does other work observes the
    /// `EKEventStoreChanged` notification, posted at once on a background queue
    /// (<doc:ObservingChanges>).
    ///
    /// Differs from Apple's: this toolchain's Foundation does not turn the posted notification into
    /// the message, so the store posts both, the message after the notification. See
    /// <doc:ObservingChanges#The-typed-message>.
    public struct EventStoreChanged: NotificationCenter.MainActorMessage {
      /// The type of the object the message is about: the store whose database changed.
      ///
      /// See <doc:ObservingChanges#The-typed-message>.
      public typealias Subject = EKEventStore

      /// The notification the message stands for, `.EKEventStoreChanged`.
      ///
      /// See <doc:ObservingChanges#The-typed-message>.
      public static var name: Notification.Name { .EKEventStoreChanged }

      /// A message; it carries nothing but the store it is posted for.
      ///
      /// See <doc:ObservingChanges#The-typed-message>.
      public init() {}

      /// The message for an `EKEventStoreChanged` notification.
      ///
      /// See <doc:ObservingChanges#The-typed-message>.
      ///
      /// - Parameters:
      ///   - notification: A posted notification.
      /// - Returns: A message, or nil when the notification has another name.
      @MainActor
      public static func makeMessage(_ notification: Notification) -> EventStoreChanged? {
        notification.name == name ? EventStoreChanged() : nil
      }

      /// The `EKEventStoreChanged` notification for a message.
      ///
      /// See <doc:ObservingChanges#The-typed-message>.
      ///
      /// - Parameters:
      ///   - message: The message to post as a notification.
      /// - Returns: A notification named ``name``, without an object.
      @MainActor
      public static func makeNotification(_ message: EventStoreChanged) -> Notification {
        Notification(name: name)
      }
    }

    /// Posts the message on the main actor, after the notification.
    ///
    /// The task holds the store weakly: the main actor may not run for as long as the program
    /// lives (a command-line tool or a REPL keeps its main thread busy), and a task holding
    /// the store would keep every store that saw a commit alive until then, each with its
    /// change watcher's inotify instance, of which a user may have 128
    /// (`StoreLifetimeTests`). A store freed meanwhile has nobody to tell.
    func postChangedMessage() {
      Task { @MainActor [weak self] in
        guard let self else { return }
        NotificationCenter.default.post(EventStoreChanged(), subject: self)
      }
    }
  }

  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<EKEventStore.EventStoreChanged> {
    /// ``EKEventStore/EventStoreChanged``, for `addObserver(of:for:)`.
    ///
    /// See <doc:ObservingChanges#The-typed-message>.
    public static var changed: Self { .init() }
  }
#else
  extension EKEventStore {
    func postChangedMessage() {}
  }
#endif
