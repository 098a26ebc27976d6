import REPLKit

/// One input: a line as a person might type it at a sample's prompt, split into words as the
/// REPL splits it before choosing a command.
///
/// Besides not crashing, the split must keep what it returns: each word quoted again and the
/// quoted words split a second time give the same words. The first word is then looked up
/// among command names as a mistyped command is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let line = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  guard let words = try? CommandLineWords.split(line) else { return 0 }
  let requoted = words.map(quoted).joined(separator: " ")
  let again: [String]
  do {
    again = try CommandLineWords.split(requoted)
  } catch {
    fatalError("the quoted words of a line do not split again: \(error)")
  }
  guard again == words else { fatalError("the quoted words of a line split differently") }
  if let first = words.first {
    _ = NearestName.suggestion(for: first, among: commandNames)
  }
  return 0
}

/// A word in single quotes, its own single quotes written `'\''` as a shell would.
private func quoted(_ word: String) -> String {
  var result = "'"
  for scalar in word.unicodeScalars {
    if scalar == "'" { result += #"'\''"# } else { result.unicodeScalars.append(scalar) }
  }
  return result + "'"
}

/// Command names of the samples, for the "did you mean" lookup.
private let commandNames = [
  "help", "quit", "list", "new", "add", "delete", "schedule", "return", "vote", "reveal",
  "recipes", "remind", "plan", "guests", "tasks",
]
