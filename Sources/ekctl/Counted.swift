/// A count with its noun, in the singular for one: "1 event", "2 events" (`import`, and
/// `calendars rm`'s question).
func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
