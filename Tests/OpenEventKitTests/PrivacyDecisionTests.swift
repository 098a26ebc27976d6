import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// The app's identity from its Info.plist, and the person's decisions in Privacy.sqlite.
@Suite struct PrivacyDecisionTests {
  func writePlist(_ values: [String: String], to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .xml, options: 0)
    try data.write(to: url)
  }

  @Test func theIdentityComesFromTheInfoPlistBesideTheExecutable() throws {
    let folder = try TemporaryFolder()
    let executable = folder.url.appendingPathComponent("loans")
    try writePlist(
      [
        "CFBundleIdentifier": "org.example.loans", "CFBundleDisplayName": "Loans",
        "NSCalendarsFullAccessUsageDescription": "Payments go on your calendar.",
      ], to: folder.url.appendingPathComponent("Info.plist"))
    let identity = AppIdentity(executable: executable)
    #expect(identity.bundleIdentifier == "org.example.loans")
    #expect(identity.displayName == "Loans")
    #expect(
      identity.usageDescriptions == [
        AppIdentity.UsageKey.calendarsFullAccess: "Payments go on your calendar."
      ])
  }

  /// An Info.plist from before iOS 17: its keys give no usage description to the new
  /// requests, and are noted only to say why a request fails.
  @Test func theKeysOfOlderAppsAreNotedButNotUsed() throws {
    let folder = try TemporaryFolder()
    try writePlist(
      [
        "CFBundleIdentifier": "org.example.old",
        "NSCalendarsUsageDescription": "Events go on your calendar.",
      ], to: folder.url.appendingPathComponent("Info.plist"))
    let identity = AppIdentity(executable: folder.url.appendingPathComponent("old"))
    #expect(identity.usageDescriptions.isEmpty)
    #expect(identity.olderUsageKeys == [AppIdentity.UsageKey.calendars])
  }

  @Test func theIdentityComesFromTheResourceBundleOtherwise() throws {
    let folder = try TemporaryFolder()
    let executable = folder.url.appendingPathComponent("recipes")
    try writePlist(
      [
        "CFBundleIdentifier": "org.example.recipes", "CFBundleName": "Recipes",
        "NSRemindersFullAccessUsageDescription": "Shopping lists become reminders.",
      ],
      to: folder.url.appendingPathComponent("OpenEventKit_recipes.resources/Info.plist"))
    // Another target's bundle is not this executable's.
    try writePlist(
      ["CFBundleIdentifier": "org.example.other"],
      to: folder.url.appendingPathComponent("OpenEventKit_other.resources/Info.plist"))
    let identity = AppIdentity(executable: executable)
    #expect(identity.bundleIdentifier == "org.example.recipes")
    #expect(identity.displayName == "Recipes")
    #expect(identity.usageDescriptions.keys.sorted() == [AppIdentity.UsageKey.remindersFullAccess])
  }

  @Test func theResourceBundleIsFoundInAFolderWhoseNameIsAPattern() throws {
    // The folder and the program are matched as written, not as glob(3) patterns.
    let folder = try TemporaryFolder()
    let programs = folder.url.appendingPathComponent("bin [1]*?")
    let executable = programs.appendingPathComponent("wed[d]ing")
    try writePlist(
      ["CFBundleIdentifier": "org.example.wedding"],
      to: programs.appendingPathComponent("Samples_wed[d]ing.resources/Bundle/Info.plist"))
    // Would match if the brackets were read as a pattern.
    try writePlist(
      ["CFBundleIdentifier": "org.example.other"],
      to: programs.appendingPathComponent("Samples_wedding.resources/Info.plist"))
    #expect(AppIdentity(executable: executable).bundleIdentifier == "org.example.wedding")
  }

  @Test func theRunningProgramIsTheFileBundleMainNames() throws {
    let expected = try #require(Bundle.main.executableURL).resolvingSymlinksInPath()
    #expect(AppIdentity.runningExecutable().path == expected.path)
  }

  @Test func withoutAnInfoPlistTheExecutableNamesTheApp() throws {
    let folder = try TemporaryFolder()
    let identity = AppIdentity(executable: folder.url.appendingPathComponent("poker-vote"))
    #expect(identity.bundleIdentifier == "poker-vote" && identity.displayName == "poker-vote")
    #expect(identity.usageDescriptions.isEmpty)
    // What a request for access will say: none was found, and where it was looked for.
    let folderPath = folder.url.path
    #expect(
      identity.infoPlistProblem
        == "no Info.plist was found for it (looked in \(folderPath) and in the poker-vote "
        + "resource bundle there)")
    // A file that is no property list counts as none, and is named.
    try Data("not a plist".utf8).write(to: folder.url.appendingPathComponent("Info.plist"))
    let unreadable = AppIdentity(executable: folder.url.appendingPathComponent("x"))
    #expect(unreadable.bundleIdentifier == "x")
    #expect(
      unreadable.infoPlistProblem
        == "its Info.plist, \(folderPath)/Info.plist, is not a property list")
  }

  @Test func decisionsAreKeptPerAppAndEntityInAPrivateFile() throws {
    let folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    let attributes = try FileManager.default.attributesOfItem(atPath: settings.path)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
    #expect(settings.path.hasSuffix("/Privacy.sqlite"))

    #expect(try settings.status(of: "org.example.loans", for: .event) == .notDetermined)
    try settings.set(.fullAccess, for: "org.example.loans", entityType: .event, how: "prompt")
    try settings.set(.denied, for: "org.example.loans", entityType: .reminder)
    try settings.set(.writeOnly, for: "org.example.poker", entityType: .event)
    expectEKError(.invalidEntityType) {
      try settings.set(.writeOnly, for: "org.example.poker", entityType: .reminder)
    }
    // Another process (another settings object) sees them.
    let other = try PrivacySettings(folder: folder.url)
    #expect(try other.status(of: "org.example.loans", for: .event) == .fullAccess)
    #expect(try other.status(of: "org.example.loans", for: .reminder) == .denied)
    let decisions = try other.decisions()
    #expect(
      decisions.map(\.bundleIdentifier) == [
        "org.example.loans", "org.example.loans", "org.example.poker",
      ])
    #expect(decisions.first?.how == "prompt" && decisions.last?.how == "ekctl")

    // A new decision replaces the old one; forgetting brings back the question.
    try settings.set(.denied, for: "org.example.loans", entityType: .event)
    #expect(try other.status(of: "org.example.loans", for: .event) == .denied)
    try settings.set(.notDetermined, for: "org.example.loans", entityType: .event)
    #expect(try other.status(of: "org.example.loans", for: .event) == .notDetermined)
    try settings.reset(bundleIdentifier: "org.example.loans")
    #expect(try other.decisions().map(\.bundleIdentifier) == ["org.example.poker"])
    try settings.reset(bundleIdentifier: nil)
    #expect(try other.decisions().isEmpty)
  }
}

/// Access requests from another process (`oek-store-helper`, whose Info.plist names it
/// "Store Helper"), answered through piped standard input.
@Suite struct AccessRequestTests {
  /// Runs a request; returns what the helper printed and what it showed on standard error.
  func request(_ folder: URL, _ kind: String, answering input: String?) throws -> (String, String) {
    let helper = try HelperProcess(["request", folder.path, kind], input: input)
    let output = try helper.readAll()
    let (status, errors) = helper.finish()
    #expect(status == 0, "\(errors)")
    return (output.trimmingCharacters(in: .whitespacesAndNewlines), errors)
  }

  @Test func thePersonIsAskedOnceAndTheAnswerIsKept() throws {
    let folder = try TemporaryFolder()
    let (first, alert) = try request(folder.url, "full", answering: "1\n")
    #expect(first == "granted")
    #expect(alert.contains("\"Store Helper\" Would Like Full Access to Your Calendar"))
    #expect(alert.contains("The tests read and write events."))
    #expect(alert.contains("Allow Full Access") && alert.contains("Don't Allow"))
    let settings = try PrivacySettings(folder: folder.url)
    #expect(try settings.status(of: "org.openeventkit.store-helper", for: .event) == .fullAccess)
    #expect(try settings.decisions().first?.how == "prompt")
    // Asked again: answered at once, no alert.
    let (again, noAlert) = try request(folder.url, "full", answering: nil)
    #expect(again == "granted" && noAlert.isEmpty)
  }

  /// Full access refused at the prompt to a write-only app: the decision says so, and so does
  /// `ekctl privacy list` (it showed write-only alone, so nobody could tell why no prompt came).
  @Test func aRefusedUpgradeIsKeptAndListed() throws {
    let folder = try TemporaryFolder()
    #expect(try request(folder.url, "write-only", answering: "1\n").0 == "granted")
    #expect(try request(folder.url, "full", answering: "2\n").0 == "refused")
    let decision = try #require(try PrivacySettings(folder: folder.url).decisions().first)
    #expect(decision.status == .writeOnly && decision.fullAccessRefused)
    let database = folder.url.appendingPathComponent("Calendar.sqlite").path
    let listed = try runEkctl(["privacy", "list", "--db", database])
    #expect(listed.stdout.contains("write-only (full access refused)"), "\(listed.stdout)")
  }

  /// OPENEVENTKIT_PROMPT=none: a daemon's request is not asked and reads nothing from its
  /// standard input; =tty with no terminal: no answer either; =stdin: answered from it.
  @Test func thePromptModeChoosesWhereTheAnswerComesFrom() throws {
    let folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    for mode in ["none", "tty"] {
      let helper = try HelperProcess(
        ["request", folder.url.path, "full"], input: "1\n",
        environment: ["OPENEVENTKIT_PROMPT": mode])
      let output = try helper.readAll()
      let (status, errors) = helper.finish()
      #expect(status == 0, "\(errors)")
      #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "refused", "\(mode)")
      #expect(!errors.contains("Choose 1 or 2"), "\(mode)")
      if mode == "none" { #expect(errors.contains("not asked (OPENEVENTKIT_PROMPT=none)")) }
      #expect(try settings.decisions().isEmpty, "\(mode)")
    }
    let helper = try HelperProcess(
      ["request", folder.url.path, "full"], input: "1\n",
      environment: ["OPENEVENTKIT_PROMPT": "stdin"])
    let output = try helper.readAll()
    let (_, errors) = helper.finish()
    #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "granted")
    #expect(errors.contains("Choose 1 or 2"))
  }

  /// `requestAccess(to:)`, as code from before iOS 17 calls it: refused with the requests to
  /// use instead, as Apple's store refuses it to apps built for iOS 17; nothing is asked.
  @Test func theDeprecatedRequestIsRefusedNamingItsReplacements() throws {
    let folder = try TemporaryFolder()
    let (answer, errors) = try request(folder.url, "deprecated", answering: "1\n")
    #expect(answer.hasPrefix("error: requestAccess(to:) is deprecated and no longer allowed"))
    #expect(answer.contains("requestFullAccessToEvents()"))
    #expect(!errors.contains("Choose 1 or 2"))
    #expect(try PrivacySettings(folder: folder.url).decisions().isEmpty)
  }

  @Test func aRefusalIsKeptAndEndOfInputDecidesNothing() throws {
    let folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    #expect(try request(folder.url, "write-only", answering: "").0 == "refused")
    #expect(try settings.decisions().isEmpty)
    #expect(try request(folder.url, "write-only", answering: "2\n").0 == "refused")
    #expect(try settings.status(of: "org.openeventkit.store-helper", for: .event) == .denied)
    // Reset brings the prompt back.
    try settings.reset(bundleIdentifier: "org.openeventkit.store-helper")
    let (granted, alert) = try request(folder.url, "write-only", answering: "add events only\n")
    #expect(granted == "granted" && alert.contains("Would Like to Add Events to Your Calendar"))
    #expect(try settings.status(of: "org.openeventkit.store-helper", for: .event) == .writeOnly)
  }

  /// Apple's systems prompt once for each access level: a write-only app refused full access
  /// keeps write-only and is not asked again; a decision set afterwards starts over.
  @Test func aRefusedUpgradeFromWriteOnlyIsNotAskedAgain() throws {
    let folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    let app = "org.openeventkit.store-helper"
    #expect(try request(folder.url, "write-only", answering: "add events only\n").0 == "granted")
    let (refused, alert) = try request(folder.url, "full", answering: "2\n")
    #expect(refused == "refused" && alert.contains("Would Like Full Access to Your Calendar"))
    #expect(try settings.status(of: app, for: .event) == .writeOnly)
    // Asked again, with an answer that would allow: no alert, still refused, still write-only.
    let (again, noAlert) = try request(folder.url, "full", answering: "1\n")
    #expect(again == "refused" && noAlert.isEmpty, "\(noAlert)")
    #expect(try settings.status(of: app, for: .event) == .writeOnly)
    #expect(try request(folder.url, "write-only", answering: nil).0 == "granted")
    // The person's own setting starts over: the upgrade is asked once more.
    try settings.set(.writeOnly, for: app, entityType: .event)
    let (granted, asked) = try request(folder.url, "full", answering: "1\n")
    #expect(granted == "granted" && asked.contains("Would Like Full Access to Your Calendar"))
    #expect(try settings.status(of: app, for: .event) == .fullAccess)
  }

  @Test func anInstalledPresenterAsksInsteadOfTheTerminal() throws {
    let folder = try TemporaryFolder()
    let helper = try HelperProcess(["present", folder.url.path, "yes"], input: nil)
    let output = try helper.readAll()
    _ = helper.finish()
    #expect(
      output == """
        asked: "Store Helper" Would Like Full Access to Your Calendar \
        [Allow Full Access / Don't Allow]
        granted

        """)
    #expect(
      try PrivacySettings(folder: folder.url).status(
        of: "org.openeventkit.store-helper", for: .event) == .fullAccess)
    let refused = try HelperProcess(["present", folder.url.path, "no"], input: nil)
    // Already decided: answered at once, without asking.
    #expect(try refused.readAll() == "granted\n")
    _ = refused.finish()
  }

  @Test func askingWithoutAUsageDescriptionNamesTheMissingKey() throws {
    let folder = try TemporaryFolder()
    let (answer, _) = try request(folder.url, "reminders", answering: "1\n")
    #expect(answer.hasPrefix("error:") && answer.contains("NSRemindersFullAccessUsageDescription"))
    #expect(try PrivacySettings(folder: folder.url).decisions().isEmpty)
  }
}

/// The prompt on a controlling terminal: the helper runs on a pseudo-terminal, shows the alert
/// there and reads the answer typed there.
@Suite struct TerminalPromptTests {
  @Test func theAlertIsShownAndAnsweredOnTheTerminal() throws {
    let folder = try TemporaryFolder()
    let run = try PseudoTerminal.run(
      BuildProducts.executable("oek-store-helper"),
      arguments: ["request", folder.url.path, "full"],
      steps: [.after("Choose 1 or 2", send: "2\n")], deadline: .seconds(20))
    #expect(run.ending == .exited(0), "\(run.shown)")
    let text = run.shown
    #expect(text.contains("\"Store Helper\" Would Like Full Access to Your Calendar"))
    #expect(text.contains("The tests read and write events."))
    #expect(text.contains("refused"))
    #expect(
      try PrivacySettings(folder: folder.url).status(
        of: "org.openeventkit.store-helper", for: .event) == .denied)
  }
}

extension TerminalPromptTests {
  /// The person decides with `ekctl privacy set` while the alert waits: that decision
  /// stands; the answer typed later neither replaces it nor grants anything, and the person is
  /// told so on the terminal.
  @Test func aDecisionMadeWhileTheAlertWaitsIsNotReplacedByItsLateAnswer() throws {
    let folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    let app = "org.openeventkit.store-helper"
    let run = try PseudoTerminal.run(
      BuildProducts.executable("oek-store-helper"),
      arguments: ["request", folder.url.path, "full"],
      steps: [
        .after(
          "Choose 1 or 2",
          .run { try? settings.set(.denied, for: app, entityType: .event) }),
        .after(nil, send: "1\n"),
        .after("refused", send: ""),
      ], deadline: .seconds(20))
    #expect(run.ending == .exited(0), "\(run.shown)")
    #expect(!run.shown.contains("granted"), "\(run.shown)")
    #expect(
      run.shown.contains(
        "Meanwhile, access was decided elsewhere (ekctl privacy, or another window of this "
          + "app): not allowed. That decision stands, not this answer."), "\(run.shown)")
    #expect(try settings.status(of: app, for: .event) == .denied)
    #expect(try settings.decisions().first?.how == "ekctl")
  }
}

extension PrivacyDecisionTests {
  /// The person's own store (ekctl's) has full access whatever apps were told, and opens no
  /// privacy database: it makes no `Privacy.sqlite`, and a denial there does not reach it.
  @Test func theOwnersStoreNeedsNoDecision() throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("Calendar.sqlite")
    let owner = try EKEventStore(ownerOf: file, create: true)
    #expect(owner.access(to: .event) == .fullAccess)
    let privacy = folder.url.appendingPathComponent("Privacy.sqlite")
    #expect(!FileManager.default.fileExists(atPath: privacy.path))
    let settings = try PrivacySettings(folder: folder.url)
    try settings.set(.denied, for: PrivacySettings.currentAppIdentifier, entityType: .event)
    let again = try EKEventStore(ownerOf: file)
    #expect(again.access(to: .event) == .fullAccess)
    #expect(EKEventStore(folder: folder.url).access(to: .event) == .denied)
  }
}
