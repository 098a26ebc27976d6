import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import OpenEventKitSync

/// `ekctl subscribe`: fetches a feed and adds its read-only calendar (OpenEventKit.docc/Sync.md,
/// "Subscribed calendars").
struct SubscribeCommand: ParsableCommand {
  static let configuration = SubscribeOptions.configuration

  @OptionGroup var options: SubscribeOptions

  func run() throws {
    let subscriptions = try options.store.subscriptions()
    let (url, name, color, refresh) = (
      options.url, options.name, options.normalizedColor, options.refresh
    )
    let (subscription, replacement) = try syncFailing {
      try blocking {
        try await subscriptions.subscribe(
          url: url, name: name, color: color, refreshInterval: refresh)
      }
    }
    printInert(
      "Subscribed to \"\(subscription.title)\": \(replacement.added) event(s); refreshed every "
        + RefreshInterval.text(subscription.interval) + ".")
  }
}

/// `ekctl subscriptions`: each subscribed calendar, its feed and how its refreshes went.
struct SubscriptionsCommand: ParsableCommand {
  static let configuration = SubscriptionsOptions.configuration

  @OptionGroup var options: SubscriptionsOptions

  func run() throws {
    let all = try syncFailing { try options.store.subscriptions().subscriptions() }
    if options.json {
      for subscription in all { print(Self.jsonLine(subscription)) }
      return
    }
    guard !all.isEmpty else {
      print("No subscribed calendar. Add one with `ekctl subscribe URL`.")
      return
    }
    for subscription in all {
      printInert("\(subscription.title)  \(subscription.url)")
      let last = subscription.lastRefresh.map(OccurrenceText.utc) ?? "never"
      let next =
        subscription.nextRefresh == .distantPast
        ? "now" : OccurrenceText.utc(subscription.nextRefresh)
      let source =
        subscription.refreshInterval != nil
        ? "" : subscription.feedInterval != nil ? " (the feed's)" : " (default)"
      printInert(
        "  every \(RefreshInterval.text(subscription.interval))\(source), last refreshed \(last), "
          + "next \(next)")
      if let error = subscription.lastError { printInert("  last refresh failed: \(error)") }
    }
  }

  static func jsonLine(_ subscription: CalendarSubscriptions.Subscription) -> String {
    var line = JSONWriter()
    line.beginObject()
    line.member("name", subscription.title)
    line.member("url", subscription.url)
    line.member("calendarIdentifier", subscription.calendarIdentifier)
    line.member("color", subscription.color)
    line.member("interval", Int(subscription.interval))
    line.member("lastRefresh", subscription.lastRefresh.map(OccurrenceText.utc))
    line.member(
      "nextRefresh",
      subscription.nextRefresh == .distantPast ? nil : OccurrenceText.utc(subscription.nextRefresh))
    line.member("lastError", subscription.lastError)
    line.endObject()
    return line.text
  }
}

/// `ekctl unsubscribe`: removes a subscribed calendar and its events.
struct UnsubscribeCommand: ParsableCommand {
  static let configuration = UnsubscribeOptions.configuration

  @OptionGroup var options: UnsubscribeOptions

  func run() throws {
    let removed = try syncFailing {
      try options.store.subscriptions().unsubscribe(named: options.name)
    }
    printInert("Unsubscribed from \"\(removed.title)\".")
  }
}

extension SyncCommand {
  /// Refreshes the subscribed calendars (those due, or every one), a line for each that
  /// changed or failed; true when one failed.
  static func refreshSubscriptions(_ subscriptions: CalendarSubscriptions, all: Bool) -> Bool {
    let outcomes: [(CalendarSubscriptions.Subscription, CalendarSubscriptions.Outcome)]
    do {
      outcomes = try blocking { try await subscriptions.refresh(all: all) }
    } catch {
      printError((error as? SyncError)?.message ?? "\(error)")
      return true
    }
    var failed = false
    for (subscription, outcome) in outcomes {
      switch outcome {
      case .replaced(let replacement):
        var parts = ["\(replacement.added + replacement.kept) event(s)"]
        if replacement.added > 0 { parts.append("\(replacement.added) new") }
        if replacement.removed > 0 { parts.append("\(replacement.removed) gone") }
        printInert("\(subscription.title): refreshed, " + parts.joined(separator: ", "))
      case .unchanged:
        if all { printInert("\(subscription.title): up to date") }
      case .busy:
        break
      case .failed(let reason):
        failed = true
        printError("\(subscription.title): \(reason); its events are kept")
      }
    }
    return failed
  }
}
