import REPLKit

/// Prints a line of text for a person, made inert on one line first (REPLKit's `InertText`):
/// a title, a calendar's name or a server's message in it can neither clear the screen, set
/// the window's title, write the clipboard, fake a link nor reorder the line; its control,
/// escape and bidi characters, line feeds too, are shown as `\u{…}`.
///
/// Every line of text ekctl prints goes through it or through `say` and `printError` (which
/// keep line breaks, for the lines they join); `--json` lines go through `print` as they
/// are, since JSON escapes what it must and the values stay exact.
func printInert(_ line: String) {
  print(InertText.of(line))
}
