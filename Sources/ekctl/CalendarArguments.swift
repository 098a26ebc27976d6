import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit

/// The calendar or reminder list that `argument` names: the one whose `calendarIdentifier` it
/// is, else the one titled so (ignoring case and accents, as ``calendars(titled:in:entity:)``
/// matches, with its did-you-mean error). A title that several calendars share is an error
/// listing their identifiers, never a guess: `rm` must not remove the wrong "Work".
func findCalendar(_ argument: String, in store: EKEventStore) throws -> EKCalendar {
  if let calendar = store.calendar(withIdentifier: argument) { return calendar }
  let titled = try calendars(titled: argument, in: store)
  guard titled.count == 1, let calendar = titled.first else {
    let listed = titled.map { "\($0.calendarIdentifier) (\(kind(of: $0)), \(sourceTitle($0)))" }
    throw CommandError(
      "\(titled.count) calendars are titled \"\(argument)\"; name one by its identifier: "
        + listed.joined(separator: ", "))
  }
  return calendar
}

/// Refuses to rename or remove a calendar that is not the person's to change, saying why.
/// A subscribed calendar comes from a feed, a read-only one from an account whose server lets
/// no one change it.
func checkChangeable(_ calendar: EKCalendar, doing action: String) throws {
  if calendar.isSubscribed || calendar.type == .subscription {
    throw CommandError(
      "cannot \(action) \"\(calendar.title)\": it is a subscribed calendar, which its feed "
        + "keeps as it is; `ekctl unsubscribe` removes one you subscribed to")
  }
  if !calendar.allowsContentModifications {
    throw CommandError(
      "cannot \(action) \"\(calendar.title)\": it is read-only, as its source, "
        + "\"\(sourceTitle(calendar))\", keeps it")
  }
}

/// The source a new calendar goes to: the one `argument` names, by identifier or by title
/// (ignoring case and accents), or else the one an EventKit app would choose, that of the
/// default calendar for `entity`, and failing that the Local source.
func chooseSource(_ argument: String?, for entity: EKEntityType, in store: EKEventStore) throws
  -> EKSource
{
  let sources = store.sources
  guard let argument else {
    let preferred =
      entity == .event
      ? store.defaultCalendarForNewEvents : store.defaultCalendarForNewReminders()
    guard let source = preferred?.source ?? sources.first(where: { $0.sourceType == .local })
    else { throw CommandError("there is no source to make it in; name one with --source") }
    return source
  }
  if let source = sources.first(where: { $0.sourceIdentifier == argument }) {
    return try checkHolds(entity, source)
  }
  let titled = sources.filter { NearestName.key($0.title) == NearestName.key(argument) }
  guard titled.count <= 1 else {
    throw CommandError(
      "\(titled.count) sources are titled \"\(argument)\"; name one by its identifier: "
        + titled.map(\.sourceIdentifier).joined(separator: ", "))
  }
  guard let source = titled.first else {
    let titles = sources.map(\.title)
    let nearest = NearestName.suggestion(for: argument, among: titles).map {
      "; did you mean \"\($0)\"?"
    }
    let listed = titles.map { "\"\($0)\"" }.joined(separator: ", ")
    throw CommandError("no source titled \"\(argument)\"\(nearest ?? "") (there are \(listed))")
  }
  return try checkHolds(entity, source)
}

/// `source`, when it can hold calendars of `entity`: subscriptions and birthdays are calendars
/// of events only. (A source that takes no new calendars at all is refused by the store.)
private func checkHolds(_ entity: EKEntityType, _ source: EKSource) throws -> EKSource {
  if entity == .reminder, [.subscribed, .birthdays].contains(source.sourceType) {
    throw CommandError("the source \"\(source.title)\" holds no reminder lists")
  }
  return source
}

/// "events" or "reminders": what a calendar holds, as `calendars list` says it.
func kind(of calendar: EKCalendar) -> String {
  calendar.allowedEntityTypes.contains(.event) ? "events" : "reminders"
}

private func sourceTitle(_ calendar: EKCalendar) -> String {
  calendar.source?.title ?? "no source"
}

/// `--color`: a calendar's colour as `#RRGGBB`, six hexadecimal digits. Nothing else is taken
/// (no names, no alpha), so that what is stored is what was typed.
struct ColorArgument {
  let color: CGColor

  init(_ text: String) throws {
    guard text.count == 7, text.first == "#", text.dropFirst().allSatisfy(\.isHexDigit),
      let value = Int(text.dropFirst(), radix: 16)
    else {
      throw CommandError("a colour is written #RRGGBB, six hexadecimal digits, like #1BADF8")
    }
    color = CGColor(
      red: CGFloat((value >> 16) & 0xFF) / 255, green: CGFloat((value >> 8) & 0xFF) / 255,
      blue: CGFloat(value & 0xFF) / 255, alpha: 1)
  }
}
