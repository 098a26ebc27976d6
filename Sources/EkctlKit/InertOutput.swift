import Foundation
import REPLKit

/// Prints a line of text for a person, made inert on one line first (REPLKit's `InertText`):
/// a title, a calendar's name or a server's message in it can neither clear the screen, set
/// the window's title, write the clipboard, fake a link nor reorder the line; its control,
/// escape and bidi characters, line feeds too, are shown as `\u{…}`.
///
/// Every line of text ekctl prints goes through it or through `say` and `printError` (which
/// keep line breaks, for the lines they join); `--json` lines go through `print` as they
/// are, since JSON escapes what it must and the values stay exact.
package func printInert(_ line: String) {
  print(InertText.of(line))
}

/// A line on standard output, written at once (`print` holds it in a buffer while piped, and
/// `sync --watch` is read as it goes), made inert but for its line breaks (`InertText`).
package func say(_ text: String) {
  FileHandle.standardOutput.write(Data((InertText.keepingLineBreaks(text) + "\n").utf8))
}

/// A line on standard error, as ArgumentParser writes an error, made inert but for its line
/// breaks: a server's message is data.
package func printError(_ message: String) {
  FileHandle.standardError.write(Data("Error: \(InertText.keepingLineBreaks(message))\n".utf8))
}
