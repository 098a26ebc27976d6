import EkctlKit
import OpenEventKit
import REPLKit

/// The calendars titled `title` (any entity), or every calendar when nil. Titles match
/// ignoring case and accents (`work` finds "Work", `cafe` finds "Café"); an unknown title is an error that suggests the nearest
/// one, within a slip, and lists the titles there are.
func calendars(titled title: String?, in store: EKEventStore, entity: EKEntityType? = nil) throws
  -> [EKCalendar]
{
  let all =
    entity.map { store.calendars(for: $0) }
    ?? store.calendars(for: .event) + store.calendars(for: .reminder)
  guard let title else { return all }
  let chosen = all.filter { NearestName.key($0.title) == NearestName.key(title) }
  guard !chosen.isEmpty else {
    let titles = Array(Set(all.map(\.title))).sorted()
    let nearest = NearestName.suggestion(for: title, among: titles).map {
      "; did you mean \"\($0)\"?"
    }
    let listed = titles.map { "\"\($0)\"" }.joined(separator: ", ")
    throw CommandError(
      "no calendar titled \"\(title)\"\(nearest ?? "") (there are \(listed))")
  }
  return chosen
}
