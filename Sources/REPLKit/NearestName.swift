import Foundation

/// Names as people type them: matched ignoring case and accents, and the closest of some
/// names to what a person typed, for "did you mean …?" answers.
///
/// The ``REPL`` uses it for an unknown command; apps use it for names of their own (a
/// calendar, a recipe).
///
/// ```swift
/// NearestName.key(" Crêpes ")                                        // "crepes"
/// NearestName.suggestion(for: "agnda", among: ["agenda", "month"])   // "agenda"
/// NearestName.suggestion(for: "xyz", among: ["agenda", "month"])     // nil
/// ```
public enum NearestName {
  /// What two names are compared by: lower case, without accents, spaces trimmed, so that
  /// `crepes` finds "Crêpes".
  ///
  /// Spaces and tabs are trimmed from the ends only (not newlines); those inside are kept.
  ///
  /// ```swift
  /// print(NearestName.key("  Fête DES Mères\t"))  // fete des meres
  /// print(NearestName.key("Café") == NearestName.key("cafe"))  // true
  /// ```
  ///
  /// - Parameter name: A name as stored or typed.
  /// - Returns: The name folded for comparison; two names are the same to a person when their
  ///   keys are equal.
  public static func key(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespaces)
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
  }

  /// The candidate at the smallest edit distance from `typed` (ignoring case and accents),
  /// when that distance is small enough to be a slip: at most a third of the longer word,
  /// and 2 or less for short ones.
  ///
  /// The distance is Levenshtein's (insertions, deletions, substitutions), counted in
  /// characters of the keys (``key(_:)``). Of candidates at the same distance the first in
  /// `candidates` wins. An exact match (by key) is suggested too: look for one before asking.
  ///
  /// ```swift
  /// let calendars = ["Work", "Home", "Crêpes club"]
  /// if let guess = NearestName.suggestion(for: "crepe club", among: calendars) {
  ///   print("No calendar 'crepe club'. Did you mean '\(guess)'?")  // … 'Crêpes club'?
  /// }
  /// print(NearestName.suggestion(for: "garden", among: calendars) as Any)  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - typed: What the person typed.
  ///   - candidates: The names that exist, as they are to be shown.
  /// - Returns: The closest candidate, as given in `candidates`, or nil when none is close
  ///   enough (or there are none).
  public static func suggestion(for typed: String, among candidates: [String]) -> String? {
    let typed = key(typed)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, key(candidate))
      if distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = max(2, max(typed.count, best.name.count) / 3)
    return best.distance <= limit ? best.name : nil
  }

  /// Levenshtein distance, with one row of memory.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let saved = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = saved
      }
    }
    return row[b.count]
  }
}
