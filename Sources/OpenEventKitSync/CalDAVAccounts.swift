import CalDAV
import Foundation
import Logging
import OpenEventKit

/// The CalDAV accounts of a calendar database, as the person's tools see them (`ekctl
/// account`, `ekctl sync`): adding one discovers its calendars, syncing one brings the store
/// and the server in step (OpenEventKit's article Sync). An OpenEventKit addition, in a
/// library of its own so that apps link no network stack: an app sees an account as an
/// `EKSource` of type `.calDAV`, and its `refreshSourcesIfNecessary()` asks the sync agent.
///
/// Every method that fails throws a ``SyncError``, whose ``SyncError/code`` says what the
/// person can do about it and whose ``SyncError/message`` says it in words
/// (OpenEventKit's article Sync, "When things go wrong").
///
/// ```swift
/// let accounts = try CalDAVAccounts()
/// let password = "the account's password"  // asked of the person
/// let home = try await accounts.add(
///   url: URL(string: "https://caldav.example.com")!, user: "alice", password: password)
/// print(home.calendars.map(\.title))
/// do {
///   for report in try await accounts.sync() { print(report.received, report.sent) }
/// } catch let error as SyncError where error.code == .unreachable {
///   print(error.message)  // nothing is lost: the next sync sends what this one did not
/// }
/// ```
public final class CalDAVAccounts: Sendable {
  let store: SyncStore
  let passwords: AccountPasswords

  /// The accounts of the user's store (`OPENEVENTKIT_HOME` and the XDG folders apply, as for
  /// `EKEventStore()`).
  ///
  /// Opens the calendar database, creating it (mode 0600) when missing.
  ///
  /// ```swift
  /// let accounts = try CalDAVAccounts()
  /// print(try accounts.accounts().map(\.name))  // ["home", "work"], say
  /// ```
  ///
  /// - Throws: `EKError` with code `EKError.Code.internalFailure` when the calendar database
  ///   cannot be opened: its folder cannot be made or written, the file is a symbolic link,
  ///   read-only, damaged, or changed by a newer version of OpenEventKit; the message says which,
  ///   and what to do.
  public convenience init() throws {
    try self.init(store: .current())
  }

  /// The accounts of the calendar database file at `databaseFile`.
  ///
  /// Passwords kept for these accounts are in the `Accounts` folder beside the file.
  ///
  /// ```swift
  /// let accounts = try CalDAVAccounts(databaseFile: URL(fileURLWithPath: "work.sqlite"))
  /// ```
  ///
  /// - Parameter databaseFile: The calendar database, as `EKEventStore` opens it; created
  ///   when missing.
  /// - Throws: `EKError` with code `EKError.Code.internalFailure` when the database cannot be
  ///   opened, as for ``init()``.
  public convenience init(databaseFile: URL) throws {
    try self.init(store: SyncStore(databaseFile: databaseFile))
  }

  /// The accounts of a store: one just opened, or the database an `EKEventStore` has open.
  init(store: SyncStore) {
    self.store = store
    passwords = AccountPasswords(store: store)
  }

  // MARK: Listing

  /// Every account, by name.
  ///
  /// ```swift
  /// for account in try accounts.accounts() {
  ///   let when = account.lastSync.map { "\($0)" } ?? "never"
  ///   print(account.name, account.user, "last synced:", when)
  /// }
  /// ```
  ///
  /// - Returns: The accounts, sorted by name; empty when there is none.
  /// - Throws: ``SyncError`` with the code ``SyncError/Code/store`` when the calendar
  ///   database cannot be read.
  public func accounts() throws -> [CalDAVAccount] {
    try read { try store.accountStates().map(Self.account) }
  }

  /// The account named `name` (ignoring case).
  ///
  /// ```swift
  /// do {
  ///   let account = try accounts.account(named: "Work")  // finds "work" too
  ///   print(account.url, account.pendingChanges)
  /// } catch let error as SyncError where error.code == .noSuchAccount {
  ///   print(error.message)  // names the accounts there are
  /// }
  /// ```
  ///
  /// - Parameter name: The account's name, as ``CalDAVAccount/name`` gives it, in any case.
  /// - Returns: The account, as the database has it now.
  /// - Throws: ``SyncError`` with the code ``SyncError/Code/noSuchAccount`` when no account
  ///   has that name (the message lists those there are), or ``SyncError/Code/store`` when
  ///   the calendar database cannot be read.
  public func account(named name: String) throws -> CalDAVAccount {
    switch try read({ try store.accountState(named: name) }) {
    case .found(let state): return Self.account(state)
    case .missing(let names): throw Self.noSuchAccount(name, known: names)
    }
  }

  private static func account(_ state: SyncStore.AccountState) -> CalDAVAccount {
    let record = state.record
    let base = URL(string: record.homeURL)
    let calendars = state.calendars.map {
      CalDAVAccount.Calendar(
        title: $0.calendar.title, calendarIdentifier: $0.calendar.id,
        entityType: $0.calendar.entityMask.contains(.event) ? .event : .reminder,
        isReadOnly: !$0.calendar.allowsContentModifications,
        url: URL(string: $0.collection.href, relativeTo: base)?.absoluteURL
          ?? URL(fileURLWithPath: $0.collection.href))
    }
    return CalDAVAccount(
      name: record.name, sourceIdentifier: record.sourceId,
      url: URL(string: record.url) ?? URL(fileURLWithPath: "/"),
      homeURL: base ?? URL(fileURLWithPath: "/"), user: record.user,
      calendars: calendars, lastSync: record.lastSync.map(Date.init(timeIntervalSince1970:)),
      lastError: record.lastError, pendingChanges: state.pendingChanges)
  }

  // MARK: Adding and removing

  /// Adds the account at `url` after discovering its calendars (RFC 6764: a bare host is
  /// asked at `/.well-known/caldav`; then the principal and its calendar home). `name`
  /// defaults to the URL's host. With `keepPassword`, the password is kept in a file of mode
  /// 0600 beside the database, so that syncs need not ask; never in the database.
  ///
  /// Only the discovery talks to the server; the calendars' items come with the first
  /// ``sync(named:password:deadline:progress:)``. Plain HTTP is refused except to this machine.
  ///
  /// ```swift
  /// let password = "the account's password"  // asked of the person
  /// let account = try await accounts.add(
  ///   url: URL(string: "https://caldav.example.com")!, user: "alice",
  ///   password: password, name: "work")
  /// ```
  ///
  /// - Parameters:
  ///   - url: The server: a bare host (`https://caldav.example.com`), or the URL of the
  ///     principal, of the calendar home or of one of its calendars.
  ///   - user: The user name to log in with (HTTP Basic, or Digest when the server asks).
  ///   - password: The password for `user`.
  ///   - name: The account's name, unique in the store; nil for the URL's host.
  ///   - keepPassword: Whether to keep the password for later syncs (and for
  ///     `refreshSourcesIfNecessary()`'s background syncs, which sync only accounts that
  ///     keep one).
  /// - Returns: The account as added, with the calendars found.
  /// - Throws: ``SyncError``, by its ``SyncError/code``:
  ///   - ``SyncError/Code/accountExists`` when an account has that name already;
  ///     ``SyncError/Code/noSuchAccount`` when the name is blank;
  ///   - ``SyncError/Code/unauthorized``, ``SyncError/Code/unreachable``,
  ///     ``SyncError/Code/notFound``, ``SyncError/Code/insecure`` or
  ///     ``SyncError/Code/server`` when the discovery fails; nothing is added then;
  ///   - ``SyncError/Code/store`` when the calendar database cannot be read or written, or
  ///     the password cannot be kept (the account is added then, without it).
  public func add(
    url: URL, user: String, password: String, name: String? = nil, keepPassword: Bool = true
  ) async throws -> CalDAVAccount {
    let name = name ?? url.host ?? url.absoluteString
    guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw SyncError(.noSuchAccount, "an account needs a name")
    }
    if try read({ try store.account(named: name) }) != nil {
      throw SyncError(
        .accountExists,
        "there is an account named \"\(name)\" already; give another with --name")
    }
    let discovery = try await Self.withClient(url: url, user: user, password: password) {
      try await $0.discover()
    }
    let sourceId = try write {
      try store.addAccount(
        name: name, url: url.absoluteString, homeURL: discovery.homeURL.absoluteString,
        user: user, calendars: discovery.calendars.map(ServerCalendar.init))
    }
    if keepPassword { try passwords.keep(password, sourceId: sourceId) }
    return try account(named: name)
  }

  /// Removes an account with everything of it kept here: its calendars, their items, the
  /// changes not yet sent, and the kept password. The server is not touched.
  ///
  /// Sync first, when the server can be reached: the changes not yet sent are lost with the
  /// account.
  ///
  /// ```swift
  /// // Send what is waiting first; stop here if that fails, or the changes are lost.
  /// _ = try await accounts.sync(named: "old-server")
  /// try accounts.remove(named: "old-server")
  /// print(try accounts.accounts().contains { $0.name == "old-server" })  // false
  /// ```
  ///
  /// - Parameter name: The account's name, in any case.
  /// - Throws: ``SyncError`` with the code ``SyncError/Code/noSuchAccount`` when no account
  ///   has that name, or ``SyncError/Code/store`` when the calendar database cannot be read
  ///   or written.
  public func remove(named name: String) throws {
    let account = try account(named: name)
    try write { try store.removeAccount(sourceId: account.sourceIdentifier) }
    passwords.forget(sourceId: account.sourceIdentifier)
  }

  /// Whether a password is kept for the account.
  ///
  /// A tool asks for the password before ``sync(named:password:deadline:progress:)`` when none is
  /// kept.
  /// A kept password that cannot be read counts as none.
  ///
  /// ```swift
  /// let account = try accounts.account(named: "home")
  /// var asked: String?
  /// if !accounts.keepsPassword(of: account) {
  ///   print("Password for \(account.user) at \(account.url):")
  ///   asked = readLine()
  /// }
  /// let password = asked
  /// _ = try await accounts.sync(named: account.name, password: { _ in password })
  /// ```
  ///
  /// - Parameter account: The account, from ``accounts()`` or ``account(named:)``.
  /// - Returns: True when a readable password is kept for it.
  public func keepsPassword(of account: CalDAVAccount) -> Bool {
    (try? passwords.password(sourceId: account.sourceIdentifier)) != nil
  }

  /// The accounts a background sync takes on now (`SyncStore.dueAccounts(now:age:)`): those
  /// keeping a password, not synced in the last minute. What `ekctl sync --due` syncs, and
  /// the agent when a store asks.
  ///
  /// - Throws: ``SyncError`` with the code ``SyncError/Code/store`` when the calendar
  ///   database cannot be read.
  package func dueAccounts(now: Date = Date()) throws -> [CalDAVAccount] {
    let due = Set(
      try read { try store.dueAccounts(now: now, age: SyncStore.refreshAge) }.map(\.sourceId))
    return try accounts().filter { due.contains($0.sourceIdentifier) }
  }

  // MARK: Syncing

  /// Syncs one account (`name`) or every one, one after the other. `password` is asked for
  /// an account that keeps none (nil: that account fails with ``SyncError/Code/noPassword``).
  /// `progress` hears (account, resources done, resources to fetch) while resources come in.
  ///
  /// Each account's sync is a whole: the first error stops it, and what it did not send
  /// stays in the outbox. The error of an account is thrown after the others were synced.
  ///
  /// What a sync writes reaches every store as `EKEventStoreChanged`, like any commit. The
  /// outcome of each account's sync is recorded on it (``CalDAVAccount/lastSync``,
  /// ``CalDAVAccount/lastError``). Conflicts are resolved without losing either side
  /// (OpenEventKit's article Sync, "Conflicts").
  ///
  /// ```swift
  /// let reports = try await accounts.sync(
  ///   named: "home", password: { _ in readLine() },  // asked of the person
  ///   progress: { account, done, total in print("\(account): \(done) of \(total)") })
  /// for conflict in reports.flatMap(\.conflicts) { print(conflict.title, conflict.resolution) }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The account to sync (in any case); nil for every account.
  ///   - password: Gives the password of an account that keeps none, or nil for no password;
  ///     called before that account's sync starts. Nil: such an account fails.
  ///   - deadline: The longest one account's sync may take (``defaultSyncDeadline``, an
  ///     hour, unless given). Past it the sync stops with ``SyncError/Code/unreachable`` and
  ///     lets go of the account: what it recorded stays, what it did not send stays in the
  ///     outbox, and the next sync goes on from there. Each request has a deadline of its
  ///     own too, ten minutes for its whole answer (OpenEventKit's article Sync, "When
  ///     things go wrong").
  ///   - progress: Called with the account's name, the resources fetched so far and the
  ///     resources to fetch, as they come in; on any thread.
  /// - Returns: A report for each account synced, in order of name. When an account fails,
  ///   the others are synced all the same, but no report is returned: the error is thrown.
  /// - Throws: ``SyncError``, the first account's error when several fail, by its
  ///   ``SyncError/code``:
  ///   - ``SyncError/Code/noSuchAccount`` when `name` names no account (nothing is synced);
  ///   - ``SyncError/Code/noPassword`` when the account keeps no password and `password`
  ///     gives none;
  ///   - ``SyncError/Code/busy`` when another sync of the account is running, in this process
  ///     or another;
  ///   - ``SyncError/Code/unauthorized``, ``SyncError/Code/unreachable``,
  ///     ``SyncError/Code/notFound``, ``SyncError/Code/insecure`` or
  ///     ``SyncError/Code/server`` when the server fails or refuses;
  ///   - ``SyncError/Code/store`` when the calendar database fails.
  public func sync(
    named name: String? = nil, password: (@Sendable (CalDAVAccount) -> String?)? = nil,
    deadline: Duration = CalDAVAccounts.defaultSyncDeadline,
    progress: (@Sendable (String, Int, Int) -> Void)? = nil
  ) async throws -> [SyncReport] {
    let chosen = try name.map { [try account(named: $0)] } ?? accounts()
    var reports: [SyncReport] = []
    var firstError: (any Error)?
    for account in chosen {
      do {
        reports.append(
          try await sync(account, password: password, deadline: deadline, progress: progress))
      } catch {
        firstError = firstError ?? error
      }
    }
    if let firstError { throw firstError }
    return reports
  }

  /// The longest one account's sync may take unless the caller says otherwise: an hour.
  ///
  /// Each request is bounded (ten minutes for its whole answer), but a server answering
  /// every request slowly, or without end, would otherwise hold the account's sync lock,
  /// and refuse every other sync of it as busy, for as long as it likes. An hour is room
  /// for a first sync of 100,000 events (docs/Reliability.md); a sync stopped by it keeps
  /// what it recorded, and the next one goes on from there.
  ///
  /// ```swift
  /// _ = try await accounts.sync(named: "home", deadline: .seconds(300))
  /// ```
  public static let defaultSyncDeadline: Duration = .seconds(3600)

  private func sync(
    _ account: CalDAVAccount, password: (@Sendable (CalDAVAccount) -> String?)?,
    deadline: Duration, progress: (@Sendable (String, Int, Int) -> Void)?
  ) async throws -> SyncReport {
    guard
      let secret = try passwords.password(sourceId: account.sourceIdentifier)
        ?? password?(account)
    else {
      throw SyncError(
        .noPassword,
        "no password for the account \"\(account.name)\": run ekctl sync on a terminal, or "
          + "add the account again with --password-file")
    }
    let lock = try SyncLock(
      file: passwords.folder.appendingPathComponent("\(account.sourceIdentifier).lock"),
      account: account.name)
    defer { lock.release() }
    let sourceId = account.sourceIdentifier
    let store = self.store
    guard let record = try read({ try store.account(sourceId: sourceId) }) else {
      throw Self.noSuchAccount(account.name, known: [])
    }
    let name = account.name
    var told: (@Sendable (Int, Int) -> Void)?
    if let progress {
      told = { done, total in progress(name, done, total) }
    }
    let progressReport = told
    let home: URL = URL(string: record.homeURL) ?? account.url
    do {
      try Self.checkHome(home, of: record)
      let report: SyncReport = try await Self.withClient(
        url: home, user: record.user, password: secret
      ) { (client: CalDAVClient) async throws -> SyncReport in
        do {
          // Cancelled at the deadline between two requests or writes, never within a write:
          // each transaction either happened or did not.
          return try await CalDAVClient.within(deadline) {
            var run = AccountSync(
              store: store, account: record, client: client, progress: progressReport)
            return try await run.run()
          }
        } catch is CalDAVClient.DeadlinePassed {
          throw SyncError(
            .unreachable,
            "the sync of \(name) did not finish within \(Self.words(deadline)); what it "
              + "recorded is kept, what it did not send stays to send, and the next sync goes "
              + "on from there")
        }
      }
      try write { try store.recordSync(sourceId: sourceId, failure: nil) }
      let summary =
        "\(name): \(report.received) in, \(report.receivedRemovals) removed here, "
        + "\(report.sent) out, \(report.sentRemovals) removed on the server, "
        + "\(report.conflicts.count) conflicts"
      Log.sync.debug("\(summary)")
      return report
    } catch {
      let message = (error as? SyncError)?.message ?? "\(error)"
      // The caller gets the error: the sync agent, for a background sync, says it.
      Log.sync.debug("\(name): \(message)")
      try? write { try store.recordSync(sourceId: sourceId, failure: message) }
      throw error
    }
  }

  // MARK: Helpers

  /// Refuses to sync an account whose calendar home is on another server than the URL it
  /// was added with: a version that followed a server there stored it, and the password
  /// would go where the person never pointed it.
  private static func checkHome(_ home: URL, of record: AccountRecord) throws {
    guard let named = URL(string: record.url), Origin(home) != Origin(named) else { return }
    let there = Origin(home)?.description ?? home.absoluteString
    throw SyncError(
      .insecure,
      "the calendar home of \"\(record.name)\" is at \(there), another server than the "
        + "\(Origin(named)?.description ?? record.url) it was added with; the password is sent "
        + "only to the server you named, so nothing was sent. If you trust \(there), add the "
        + "account again by that URL: ekctl account remove \(CalDAVError.shellWord(record.name)), "
        + "then ekctl account add --url \(CalDAVError.shellWord(home.absoluteString)) --user "
        + "\(CalDAVError.shellWord(record.user)) (changes not yet synced go with the removal)")
  }

  /// Runs `body` with a client of the server, shut down after; its errors in words.
  static func withClient<T: Sendable>(
    url: URL, user: String, password: String, _ body: (CalDAVClient) async throws -> T
  ) async throws -> T {
    let client: CalDAVClient
    do {
      client = try CalDAVClient(baseURL: url, user: user, password: password)
    } catch {
      throw SyncError(translating: error)
    }
    do {
      let result = try await body(client)
      await client.shutdown()
      return result
    } catch {
      await client.shutdown()
      throw SyncError(translating: error)
    }
  }

  /// A deadline as the errors say it: "90 s", "60 min".
  static func words(_ duration: Duration) -> String {
    let seconds = duration.components.seconds
    return seconds < 120 || seconds % 60 != 0 ? "\(seconds) s" : "\(seconds / 60) min"
  }

  private static func noSuchAccount(_ name: String, known: [String]) -> SyncError {
    let list = known.isEmpty ? "there is none" : "there are " + known.joined(separator: ", ")
    return SyncError(.noSuchAccount, "no account is named \"\(name)\" (\(list))")
  }

  /// Runs `body`, a read of the store, with its failure in words.
  private func read<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SyncError {
      throw error
    } catch {
      throw SyncError(.store, "cannot read the calendar database: \(DatabaseFailure.reason(error))")
    }
  }

  /// Runs `body`, a write of the store, with its failure in words.
  private func write<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SyncError {
      throw error
    } catch {
      throw SyncError(
        .store, "cannot write the calendar database: \(DatabaseFailure.reason(error))")
    }
  }
}
