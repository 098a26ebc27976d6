import Foundation
import OpenEventKit
import REPLKit

/// How an edit ended (EventKitUI's names).
public enum EKEventEditViewAction: Int, Sendable {
  case canceled = 0
  case saved = 1
  case deleted = 2
}

/// The terminal counterpart of EventKitUI's `EKEventEditViewController`: creates or edits an
/// event field by field, then saves, deletes or cancels.
///
/// Each prompt shows the current value; Return keeps it and `-` clears it. A new event starts
/// at the next whole hour, lasts an hour and goes to the default calendar. On a repeating
/// event the person is asked whether a change is for this occurrence only or for future ones.
/// When the store refuses the event, its reason is shown in plain words and the field at
/// fault is asked again, every other answer kept.
public final class EKEventEditViewController {
  public let eventStore: EKEventStore
  /// The event being edited; set before running, or left nil to create one. After a save it
  /// is the saved event.
  public var event: EKEvent?

  public init(eventStore: EKEventStore, event: EKEvent? = nil) {
    self.eventStore = eventStore
    self.event = event
  }

  /// Runs the editor on the console and returns what was done. A cancelled or unfinished edit
  /// (the input ended) restores the event to what it was.
  public func run(on console: Console) -> EKEventEditViewAction {
    let event = self.event ?? EKEvent(eventStore: eventStore)
    self.event = event
    fillDefaults(event, now: console.now, zone: console.timeZone)
    let isNew = event.isNew
    let title = event.title.flatMap { $0.isEmpty ? nil : $0 }
    console.print(
      isNew ? "New event" : "Editing \"\(title ?? "(no title)")\"",
      console.style.dim("Return keeps a value, - clears it, cancel stops without saving."))
    let fields = EventFields(event: event, store: eventStore, console: console)
    guard fields.ask(fields.all) else { return cancel(event) }
    while true {
      let choices = isNew ? ["save", "edit", "cancel"] : ["save", "edit", "delete", "cancel"]
      guard
        let index = console.choose(
          "Save, \(Console.list(Array(choices.dropFirst()), or: true))? [save]: ",
          among: choices, aliases: ["": 0])
      else {
        // Three answers that fit no choice, or the end of input: nothing is saved, and the
        // person is told so rather than left to guess.
        console.print("Not saved.")
        return cancel(event)
      }
      switch choices[index] {
      case "save":
        switch save(event, on: console) {
        case .saved: return .saved
        case .canceled: continue
        case .refused(let field):
          guard fields.ask(field.map { [$0] } ?? fields.all) else { return cancel(event) }
        }
      case "edit":
        guard fields.ask(fields.all) else { return cancel(event) }
      case "delete":
        if delete(event, on: console) { return .deleted }
      default:
        return cancel(event)
      }
    }
  }

  private enum SaveOutcome {
    case saved, canceled
    /// Refused by the store; the field to ask again, or nil for all of them.
    case refused(EventFields.Field?)
  }

  private func save(_ event: EKEvent, on console: Console) -> SaveOutcome {
    var span = EKSpan.thisEvent
    // A saved occurrence of a series: which occurrences does the change reach? A change of the
    // rules themselves can only be for the future.
    if !event.isNew && !event.isDetached && isSeries(event) {
      guard let chosen = SpanChoice.ask(.save, on: console) else { return .canceled }
      span = chosen
    }
    do {
      try eventStore.save(event, span: span)
      console.print("Saved.")
      return .saved
    } catch {
      console.print("Could not save: \(EditorMessages.plain(error))")
      return .refused(EventFields.field(at: error))
    }
  }

  private func delete(_ event: EKEvent, on console: Console) -> Bool {
    var span = EKSpan.thisEvent
    if isSeries(event) && !event.isDetached {
      guard let chosen = SpanChoice.ask(.delete, on: console) else { return false }
      span = chosen
    }
    do {
      try eventStore.remove(event, span: span)
      console.print("Deleted.")
      return true
    } catch {
      console.print("Could not delete: \(EditorMessages.plain(error))")
      return false
    }
  }

  private func cancel(_ event: EKEvent) -> EKEventEditViewAction {
    if event.isNew {
      self.event = nil
    } else {
      event.rollback()
    }
    return .canceled
  }

  /// Whether the saved event repeats (as stored, whatever the person has typed since).
  private func isSeries(_ event: EKEvent) -> Bool {
    guard let identifier = event.eventIdentifier,
      let stored = eventStore.event(withIdentifier: identifier)
    else { return false }
    return stored.hasRecurrenceRules
  }

  /// EventKitUI's defaults for what a new event leaves unset: the next whole hour, one hour
  /// long, the default calendar, the viewer's zone.
  private func fillDefaults(_ event: EKEvent, now: Date, zone: TimeZone) {
    guard event.isNew else { return }
    if event.startDate == nil {
      // A blank event keeps time on the viewer's clock; a partly filled one keeps its zone.
      if !event.isAllDay { event.timeZone = zone }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      event.startDate = calendar.dateInterval(of: .hour, for: now)?.end ?? now
    }
    if event.endDate == nil { event.endDate = event.startDate.addingTimeInterval(3600) }
    if event.calendar == nil { event.calendar = eventStore.defaultCalendarForNewEvents }
  }
}
