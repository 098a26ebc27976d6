import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import OpenEventKitSync
import REPLKit

/// `ekctl account`: add and remove CalDAV accounts, whose calendars then sync with
/// `ekctl sync` (OpenEventKit.docc/Sync.md).
struct AccountCommand: ParsableCommand {
  static let configuration = AccountWords.configuration(subcommands: [Add.self, Remove.self])

  struct Add: ParsableCommand {
    static let configuration = AccountAddOptions.configuration

    @OptionGroup var options: AccountAddOptions

    func run() throws {
      // Before the password is asked for, and without repeating the URL: its password would
      // be kept in the calendar database and shown by `accounts` and in errors.
      if let components = URLComponents(string: options.url), components.user != nil {
        throw CommandError(
          "the URL holds a user name or password (the part before @); give the URL without "
            + "them, the user with --user and the password with --password-file or on the terminal")
      }
      guard let url = URL(string: options.url), let scheme = url.scheme?.lowercased(),
        scheme == "https" || scheme == "http", url.host != nil
      else {
        throw CommandError("\(options.url) is not an http:// or https:// URL")
      }
      let password = try readPassword()
      let accounts = try options.store.accounts()
      let (user, name) = (options.user, options.name)
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
      if let passwordFile = options.passwordFile {
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
      guard let password = TerminalPassword.ask("Password for \(options.user): ") else {
        throw CommandError("no terminal to ask the password on: give --password-file")
      }
      return password
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = AccountRemoveOptions.configuration

    @OptionGroup var options: AccountRemoveOptions

    func run() throws {
      let accounts = try options.store.accounts()
      let account = try syncFailing { try accounts.account(named: options.name) }
      if !options.yes {
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
  static let configuration = AccountsOptions.configuration

  @OptionGroup var options: AccountsOptions

  func run() throws {
    let accounts = try options.store.accounts()
    let all = try syncFailing { try accounts.accounts() }
    if options.json {
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
    var line = JSONWriter()
    line.beginObject()
    line.member("name", account.name)
    line.member("url", account.url.absoluteString)
    line.member("homeURL", account.homeURL.absoluteString)
    line.member("user", account.user)
    line.member("lastSync", account.lastSync.map(OccurrenceText.utc))
    line.member("lastError", account.lastError)
    line.member("pendingChanges", account.pendingChanges)
    line.member("calendars", account.calendars.count)
    line.endObject()
    return line.text
  }
}
