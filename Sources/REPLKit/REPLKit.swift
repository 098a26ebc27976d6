// REPLKit: the REPL every sample shares (commands, help, history, completion, piped
// transcripts).
//
// Built so far (issue #7): the loop over a command table with `help`, `help COMMAND`, `quit`,
// errors that leave the loop going and set the exit status, "did you mean" suggestions
// (REPL, REPLCommand, NearestName); command lines split into words with quotes
// (CommandLineWords); the line reader every input shares (LineReader): GNU readline with a
// capped history per app on a terminal (TerminalLineReader), plain lines echoed after their
// prompt otherwise (StreamLineReader), chosen by standardLineReader(app:); tab completion of
// command names and of the arguments a command declares completable. Not built yet: Ctrl-C
// clearing the line, colour and NO_COLOR, `--now`, and OpenEventKitUI.
