import ArgumentParser
import Foundation
import OpenEventKit
import REPLKit

/// `ekctl account`: add and remove CalDAV accounts, whose calendars then sync with
/// `ekctl sync` (OpenEventKit.docc/Sync.md).
struct AccountCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "account",
    abstract: "Add or remove a CalDAV account (Nextcloud, Fastmail, Radicale, Baïkal…).",
    discussion: """
      An account's calendars live on its server and in your store; `ekctl sync` keeps the \
      two in step. `ekctl accounts` lists them.
      """,
    subcommands: [Add.self, Remove.self])

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Find the calendars of a CalDAV account and add them to your store.",
      discussion: """
        URL may be the server's address alone (https://caldav.example.com: its \
        /.well-known/caldav is asked), your calendar home, or one calendar's URL. Plain \
        http:// is refused except to this machine (127.0.0.1, localhost). The password is \
        read from --password-file (refused when others can change it: chmod 600 it), or asked \
        on the terminal, and kept beside your store in a file only you can read (never in the \
        database); a URL with a user or password in it is refused. The calendars are fetched \
        by the first `ekctl sync`.
        """)

    @Option(help: "The server's or the calendar home's URL.")
    var url: String

    @Option(help: "Your user name on the server.")
    var user: String

    @Option(help: ArgumentHelp("A file holding the password.", valueName: "file"))
    var passwordFile: String?

    @Option(help: "What to call the account here (default: the server's host name).")
    var name: String?

    @OptionGroup var store: StoreOptions

    func run() throws {
      // Before the password is asked for, and without repeating the URL: its password would
      // be kept in the calendar database and shown by `accounts` and in errors.
      if let components = URLComponents(string: url), components.user != nil {
        throw CommandError(
          "the URL holds a user name or password (the part before @); give the URL without "
            + "them, the user with --user and the password with --password-file or on the terminal")
      }
      guard let url = URL(string: url), let scheme = url.scheme?.lowercased(),
        scheme == "https" || scheme == "http", url.host != nil
      else {
        throw CommandError("\(self.url) is not an http:// or https:// URL")
      }
      let password = try readPassword()
      let accounts = try store.accounts()
      let (user, name) = (self.user, self.name)
      let account = try syncFailing {
        try blocking {
          try await accounts.add(url: url, user: user, password: password, name: name)
        }
      }
      printInert("Added \(account.name) (\(account.url.absoluteString), user \(account.user)).")
      if account.calendars.isEmpty {
        print("It has no calendar yet; calendars made in it here are made on the server.")
      } else {
        print("Calendars found:")
        for calendar in account.calendars {
          let kind = calendar.entityType == .event ? "events" : "reminders"
          printInert("  \(calendar.title) (\(kind)\(calendar.isReadOnly ? ", read-only" : ""))")
        }
      }
      print("Run `ekctl sync` to fetch them.")
    }

    private func readPassword() throws -> String {
      if let passwordFile {
        // As ssh refuses a key file others can change: whoever can write the file chooses
        // the password sent, or learns it by the next add.
        var status = stat()
        if stat(passwordFile, &status) == 0, status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
          throw CommandError(
            "the password file \(passwordFile) can be changed by others (mode "
              + String(status.st_mode & 0o777, radix: 8)
              + "); make it yours alone with chmod 600 \(passwordFile)")
        }
        guard let data = FileManager.default.contents(atPath: passwordFile) else {
          throw CommandError("cannot read the password file \(passwordFile)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
      }
      guard let password = TerminalPassword.ask("Password for \(user): ") else {
        throw CommandError("no terminal to ask the password on: give --password-file")
      }
      return password
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove an account and everything of it from your store.",
      discussion: """
        Its calendars, their events and reminders, the changes not yet synced and the kept \
        password go from this machine; the server keeps its calendars. Asks first, unless \
        --yes.
        """)

    @Argument(help: "The account's name (`ekctl accounts` lists them).")
    var name: String

    @Flag(help: "Do not ask.")
    var yes = false

    @OptionGroup var store: StoreOptions

    func run() throws {
      let accounts = try store.accounts()
      let account = try syncFailing { try accounts.account(named: name) }
      if !yes {
        let pending =
          account.pendingChanges > 0
          ? " \(account.pendingChanges) change(s) not yet synced will be lost." : ""
        // Written at once: `print` would hold the question in its buffer while piped.
        FileHandle.standardOutput.write(
          Data(
            InertText.of(
              "Remove \(account.name) and its \(account.calendars.count) calendar(s) from this "
                + "machine? The server keeps them.\(pending) [y/N] "
            ).utf8))
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
          print("Kept.")
          return
        }
      }
      try syncFailing { try accounts.remove(named: account.name) }
      printInert("Removed \(account.name).")
    }
  }
}

/// `ekctl accounts`: the CalDAV accounts, where their servers are and how their sync stands.
struct AccountsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accounts",
    abstract: "List your CalDAV accounts, their calendars and their last sync.",
    discussion: """
      Each account's URL, its calendar home (where its calendars are, on the same server: the \
      password is sent to that server alone), its user, its last sync, and how many changes \
      wait to be sent.
      """)

  @OptionGroup var store: StoreOptions

  @Flag(help: "Print JSON Lines, one account a line, instead of text.")
  var json = false

  func run() throws {
    let accounts = try store.accounts()
    let all = try syncFailing { try accounts.accounts() }
    if json {
      for account in all { print(Self.jsonLine(account)) }
      return
    }
    guard !all.isEmpty else {
      print("No account. Add one with `ekctl account add --url URL --user USER`.")
      return
    }
    for account in all {
      let last = account.lastSync.map { "last synced \(OccurrenceText.utc($0))" } ?? "never synced"
      printInert("\(account.name)  \(account.url.absoluteString)  user \(account.user)  \(last)")
      printInert("  calendar home \(account.homeURL.absoluteString)")
      if let error = account.lastError { printInert("  last sync failed: \(error)") }
      if account.pendingChanges > 0 { print("  \(account.pendingChanges) change(s) to send") }
      for calendar in account.calendars {
        let kind = calendar.entityType == .event ? "events" : "reminders"
        printInert("  \(calendar.title) (\(kind)\(calendar.isReadOnly ? ", read-only" : ""))")
      }
    }
  }

  static func jsonLine(_ account: CalDAVAccount) -> String {
    var line = JSONLine()
    line.add("name", account.name)
    line.add("url", account.url.absoluteString)
    line.add("homeURL", account.homeURL.absoluteString)
    line.add("user", account.user)
    line.add("lastSync", account.lastSync.map(OccurrenceText.utc))
    line.add("lastError", account.lastError)
    line.add("pendingChanges", account.pendingChanges)
    line.add("calendars", account.calendars.count)
    return line.text
  }
}

/// Runs `body`, turning sync's and the store's errors into one clear line.
func syncFailing<T>(_ body: () throws -> T) throws -> T {
  do {
    return try failing(body)
  } catch let error as SyncError {
    throw CommandError(error.message)
  }
}
