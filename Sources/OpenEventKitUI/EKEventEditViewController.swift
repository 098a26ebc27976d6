import Foundation
import OpenEventKit
import REPLKit

/// How an edit ended (EventKitUI's names).
///
/// The cases and raw values are those of EventKitUI's `EKEventEditViewAction`, which Apple's
/// editor hands its delegate; here ``EKEventEditViewController/run(on:)`` returns it.
///
/// ```swift
/// switch EKEventEditViewController(eventStore: store, event: event).run(on: console) {
/// case .saved: console.print("The event is saved.")
/// case .deleted: console.print("The event is deleted.")
/// case .canceled: console.print("Nothing changed.")
/// }
/// ```
public enum EKEventEditViewAction: Int, Sendable {
  /// The person cancelled, or the input ended: nothing was saved, and the event was restored
  /// (an existing one to its saved values; a new one dropped).
  case canceled = 0
  /// The event was saved in the store.
  case saved = 1
  /// The event (or, for an occurrence of a repeating event, the span chosen) was removed
  /// from the store.
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
///
/// **Like EventKitUI's:** the class's name, ``eventStore`` and ``event`` (nil to create an
/// event), the actions of ``EKEventEditViewAction``, the defaults of a new event, and the
/// editor saving or removing the event in the store itself, so the action reports what was
/// done.
///
/// **Unlike EventKitUI's:** it is not a view controller presented in a window but a form on a
/// REPLKit `Console`: each field (title, location, all day, starts, ends, repeat, alarms,
/// calendar, URL, notes) is a question. It has no delegate (`editViewDelegate`,
/// `EKEventEditViewDelegate`): ``run(on:)`` blocks until the edit ends and returns the action
/// that `eventEditViewController(_:didCompleteWith:)` would receive. A new event goes in the
/// store's default calendar unless ``event`` already has one (there is no
/// `eventEditViewControllerDefaultCalendar(forNewEvents:)`), and there is no
/// `cancelEditing()`: the person types `cancel`. Attendees and the time zone are not fields
/// (a new event without a start takes the console's zone).
///
/// ```swift
/// let editor = EKEventEditViewController(eventStore: store)  // a new event
/// if editor.run(on: console) == .saved, let event = editor.event {
///   console.print("Saved \"\(event.title ?? "")\".")
/// }
/// ```
///
/// <doc:TerminalUI> shows a whole edit.
public final class EKEventEditViewController {
  /// The store the event is saved in, or removed from.
  public let eventStore: EKEventStore
  /// The event being edited; set before running, or left nil to create one. After a save it
  /// is the saved event.
  public var event: EKEvent?

  /// An editor of `event`, or of a new event when it is nil; EventKitUI's properties, given at
  /// once.
  ///
  /// ```swift
  /// let draft = EKEvent(eventStore: store)
  /// draft.title = "Dentist"
  /// let editor = EKEventEditViewController(eventStore: store, event: draft)  // title filled in
  /// _ = editor.run(on: console)
  /// ```
  ///
  /// - Parameters:
  ///   - eventStore: The store to save the event in; without access to events, saving
  ///     fails, the editor says why, and the edit ends unsaved.
  ///   - event: The event to edit, from `eventStore`, or a new one already partly filled in;
  ///     nil (the default) to create one.
  public init(eventStore: EKEventStore, event: EKEvent? = nil) {
    self.eventStore = eventStore
    self.event = event
  }

  /// Runs the editor on the console and returns what was done. A cancelled or unfinished edit
  /// (the input ended) restores the event to what it was.
  ///
  /// The fields are asked in turn, each showing its current value: Return keeps it, `-`
  /// clears it, `cancel` stops. Then the editor asks `Save, edit or cancel?` (and `delete`
  /// for an existing event); saving or deleting an occurrence of a repeating event asks
  /// which occurrences the change is for (``SpanChoice``). Three answers that fit no choice
  /// end the edit, unsaved (`Not saved.`).
  ///
  /// ```swift
  /// let editor = EKEventEditViewController(eventStore: store, event: event)
  /// let action = editor.run(on: console)
  /// if action == .saved, let saved = editor.event {
  ///   let calendar = saved.calendar?.title ?? "no calendar"
  ///   console.print("Saved \"\(saved.title ?? "")\" in \(calendar).")
  /// }
  /// ```
  ///
  /// - Parameter console: Where the fields are asked and answered, on the console's clock
  ///   and time zone (a new event starts at the next whole hour after `console.now`).
  /// - Returns: ``EKEventEditViewAction/saved`` (``event`` is then the saved event),
  ///   ``EKEventEditViewAction/deleted``, or ``EKEventEditViewAction/canceled`` (``event`` is
  ///   then restored, or nil for a new event).
  public func run(on console: Console) -> EKEventEditViewAction {
    let event = self.event ?? EKEvent(eventStore: eventStore)
    self.event = event
    fillDefaults(event, now: console.now, zone: console.timeZone)
    let isNew = event.isNew
    let title = event.title.flatMap { $0.isEmpty ? nil : InertText.of($0) }
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
        case .unanswered:
          console.print("Not saved.")
          return cancel(event)
        case .refused(let field):
          guard fields.ask(field.map { [$0] } ?? fields.all) else { return cancel(event) }
        }
      case "edit":
        guard fields.ask(fields.all) else { return cancel(event) }
      case "delete":
        switch delete(event, on: console) {
        case .saved: return .deleted
        case .unanswered:
          console.print("Not deleted.")
          return cancel(event)
        case .canceled, .refused: continue
        }
      default:
        return cancel(event)
      }
    }
  }

  /// How a save (or a deletion) went.
  private enum SaveOutcome {
    case saved, canceled
    /// The edit ends unsaved: the span question got no answer (three that fit nothing, or
    /// the end of input), as when the save question gets none, or the app may not save.
    case unanswered
    /// Refused by the store; the field to ask again, or nil for all of them.
    case refused(EventFields.Field?)
  }

  /// The span for a change to `event`: `.thisEvent` unless it is a saved occurrence of a
  /// series, which asks.
  private func span(
    of change: SpanChoice.Change, for event: EKEvent, on console: Console
  ) -> SpanChoice.Answer {
    guard !event.isNew && !event.isDetached && isSeries(event) else { return .span(.thisEvent) }
    return SpanChoice.choose(change, on: console)
  }

  private func save(_ event: EKEvent, on console: Console) -> SaveOutcome {
    // A saved occurrence of a series: which occurrences does the change reach? A change of the
    // rules themselves can only be for the future.
    let span: EKSpan
    switch self.span(of: .save, for: event, on: console) {
    case .span(let chosen): span = chosen
    case .cancel: return .canceled
    case .unanswered: return .unanswered
    }
    do {
      try eventStore.save(event, span: span)
      console.print("Saved.")
      return .saved
    } catch {
      console.print("Could not save: \(EditorMessages.plain(error))")
      // No field the person could change makes an app without access able to save.
      if (error as? EKError)?.code == .eventStoreNotAuthorized { return .unanswered }
      return .refused(EventFields.field(at: error))
    }
  }

  private func delete(_ event: EKEvent, on console: Console) -> SaveOutcome {
    let span: EKSpan
    switch self.span(of: .delete, for: event, on: console) {
    case .span(let chosen): span = chosen
    case .cancel: return .canceled
    case .unanswered: return .unanswered
    }
    do {
      try eventStore.remove(event, span: span)
      console.print("Deleted.")
      return .saved
    } catch {
      console.print("Could not delete: \(EditorMessages.plain(error))")
      return .canceled
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
