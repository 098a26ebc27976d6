import Foundation
import ICalendar
import OpenEventKit
import REPLKit

/// `check`, `uncheck`, `due`, `near` and `repeat`: one item of a shopping list, changed and
/// saved with `commit: true` (one change, one write).
extension RecipeCommands {
  /// An item the person named, with its list and the recipe the list is for.
  struct NamedItem {
    let recipe: Recipe
    let store: EKEventStore
    let list: EKCalendar
    let item: EKReminder
  }

  func check(_ words: [String], done: Bool) throws {
    let (named, _) = try item(words, leaving: 0)
    let title = named.item.title ?? ""
    guard named.item.isCompleted != done else {
      return console.print(
        "\(title) is \(done ? "already checked off" : "not checked off") on \"\(named.list.title)\"."
      )
    }
    defer {  // written below: taken as the app's own (StoreChanges.swift)
      changes.noteOwnChange(on: named.recipe.name, items: [named.item.calendarItemIdentifier])
    }
    // Setting isCompleted sets completionDate to the system's now (false clears it); the app
    // keeps its own clock (`--now`), so the date is set from it after.
    named.item.isCompleted = done
    if done { named.item.completionDate = console.now }
    try named.store.save(named.item, commit: true)
    console.print(
      done
        ? "Checked off \(title) on \"\(named.list.title)\"."
        : "\(title) is back on \"\(named.list.title)\", to buy.")
  }

  /// A due date (components, as Reminders keeps them) and an absolute alarm at that time; a
  /// day alone is due all day, with the alarm at 09:00. Other absolute alarms are replaced.
  func due(_ words: [String]) throws {
    let (named, when) = try item(words, leaving: 1)
    let zone = console.timeZone
    guard let reading = WhenWords.read(when, now: console.now, in: zone) else {
      throw RecipeError(
        "'\(when.joined(separator: " "))' is not a day or a time I can read; say when as "
          + "2026-12-01, tomorrow, fri or \(WhenWords.examples)")
    }
    defer {  // written below: taken as the app's own (StoreChanges.swift)
      changes.noteOwnChange(on: named.recipe.name, items: [named.item.calendarItemIdentifier])
    }
    let alarmAt: CivilDateTime
    switch reading {
    case .day(let day):
      named.item.dueDateComponents = DateComponents(year: day.year, month: day.month, day: day.day)
      alarmAt = CivilDateTime(date: day, secondOfDay: 9 * 3600)
    case .time(let time):
      named.item.dueDateComponents = DateComponents(
        timeZone: zone, year: time.date.year, month: time.date.month, day: time.date.day,
        hour: time.hour, minute: time.minute)
      alarmAt = time
    }
    let alarm = EKAlarm(absoluteDate: DateReading.instant(local: alarmAt, in: zone))
    named.item.alarms = (named.item.alarms ?? []).filter { $0.absoluteDate == nil } + [alarm]
    try named.store.save(named.item, commit: true)
    let text = ItemText(timeZone: zone)
    let dueText = named.item.dueDateComponents.flatMap(text.due) ?? ""
    let alarmText =
      if case .day = reading { "an alarm at 09:00 that day" } else { "an alarm then" }
    console.print(
      "\(named.item.title ?? "") on \"\(named.list.title)\" is due \(dueText), with \(alarmText).")
  }

  /// A location alarm: on arriving at (proximity enter) a place with coordinates and a radius.
  /// Other location alarms are replaced.
  func near(_ words: [String]) throws {
    // The numbers come last: LAT LON, or LAT LON RADIUS when three words are numbers (a
    // place whose name ends in a number is quoted: "Shop 2").
    let numbers = words.reversed().prefix { Double($0) != nil }.count
    let taken = numbers >= 3 ? 3 : 2
    guard numbers >= 2 else {
      throw RecipeError(
        "Give the place's latitude and longitude after its name: "
          + "near crêpes milk \"Corner shop\" 48.8584 2.2945 [RADIUS]")
    }
    let values = words.suffix(taken).compactMap(Double.init)
    let (latitude, longitude) = (values[0], values[1])
    let radius = taken == 3 ? values[2] : 0
    guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
      throw RecipeError(
        "\(latitude) \(longitude) is not a place on Earth: the latitude is between -90 and 90, "
          + "the longitude between -180 and 180.")
    }
    guard radius >= 0, radius <= 100_000 else {
      throw RecipeError("The radius is in metres, between 1 and 100000 (none for the default).")
    }
    let (named, place) = try item(Array(words.dropLast(taken)), leaving: 1)
    defer {
      changes.noteOwnChange(on: named.recipe.name, items: [named.item.calendarItemIdentifier])
    }
    guard !place.isEmpty else {
      throw RecipeError("Name the place before its coordinates: near LIST ITEM PLACE LAT LON.")
    }
    let location = EKStructuredLocation(title: place.joined(separator: " "))
    location.geoLocation = CLLocation(latitude: latitude, longitude: longitude)
    location.radius = radius
    let alarm = EKAlarm()
    alarm.structuredLocation = location
    alarm.proximity = .enter
    named.item.alarms = (named.item.alarms ?? []).filter { $0.proximity == .none } + [alarm]
    try named.store.save(named.item, commit: true)
    let within = radius > 0 ? "within \(Int(radius)) m" : "within the default radius"
    console.print(
      "\(named.item.title ?? "") on \"\(named.list.title)\" will remind you on arriving at "
        + "\(location.title ?? "") (\(latitude), \(longitude), \(within)).")
  }

  /// A weekly or monthly rule, or none. EventKit refuses a repeating reminder without a due
  /// date (`EKError.recurringReminderRequiresDueDate`), said here in plain words.
  func repeatItem(_ words: [String]) throws {
    let how = words[words.count - 1].lowercased()
    let frequencies: [String: EKRecurrenceFrequency] = ["weekly": .weekly, "monthly": .monthly]
    guard how == "never" || frequencies[how] != nil else {
      throw RecipeError("'\(words[words.count - 1])' is not weekly, monthly or never.")
    }
    let (named, _) = try item(Array(words.dropLast()), leaving: 0)
    defer {
      changes.noteOwnChange(on: named.recipe.name, items: [named.item.calendarItemIdentifier])
    }
    let title = named.item.title ?? ""
    named.item.recurrenceRules = frequencies[how].map {
      [EKRecurrenceRule(recurrenceWith: $0, interval: 1, end: nil)]
    }
    do {
      try named.store.save(named.item, commit: true)
    } catch EKError.recurringReminderRequiresDueDate {
      // Drop the refused rule from this reminder alone: the store's reset() would make every
      // object fetched from the store stale, to undo one edit.
      named.item.rollback()
      throw RecipeError(
        "\(title) has no due date, and a repeating reminder needs one to repeat from. "
          + "Give it one first: due \(named.recipe.name) \(title) WHEN")
    }
    console.print(
      how == "never"
        ? "\(title) on \"\(named.list.title)\" no longer repeats."
        : "\(title) on \"\(named.list.title)\" now repeats \(how), from its due date.")
  }

  /// The list and item that `words` name (unquoted names of several words are read by
  /// ``NameWords``), with the `leaving` words after the item; the store is asked for once
  /// the recipe is known.
  private func item(_ words: [String], leaving: Int) throws -> (NamedItem, [String]) {
    let recipes = try book.recipes()
    let (listName, afterList) = NameWords.split(
      words, names: recipes.map(\.name), leaving: leaving + 1)
    let recipe = try book.recipe(named: listName, among: recipes)
    guard !afterList.isEmpty else { throw RecipeError("Name an item of the list too.") }
    let store = try store()
    let lists = ShoppingLists(book: book, store: store)
    let list = try lists.existingList(of: recipe)
    let itemName: String
    let rest: [String]
    if leaving == 0 {
      (itemName, rest) = (afterList.joined(separator: " "), [])
    } else {
      let titles = lists.items(in: [list]).map { $0.title ?? "" }
      (itemName, rest) = NameWords.split(afterList, names: titles, leaving: leaving)
    }
    let item = try lists.item(named: itemName, in: list)
    return (NamedItem(recipe: recipe, store: store, list: list, item: item), rest)
  }
}
