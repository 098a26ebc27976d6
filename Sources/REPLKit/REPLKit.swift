// REPLKit: the read-eval-print loop every sample shares.
//
// - REPL, REPLCommand, NearestName: the loop over a command table, with `help`,
//   `help COMMAND`, `quit`, "did you mean" suggestions, errors that leave the loop going and an
//   exit status that says whether any command failed.
// - CommandLineWords: command lines split into words, with quotes; NamedArguments: the words
//   read into a command's (or a program's) arguments by swift-argument-parser, with its
//   errors, usage and help, as ekctl prints them.
// - LineReader: the one input stream that commands, prompts and editors share. On a terminal,
//   TerminalLineReader (GNU readline: line editing, Ctrl-C clears the line, a capped history
//   per app, tab completion); otherwise StreamLineReader, which echoes each line after its
//   prompt so that a piped session reads like a transcript.
// - Console: the reader, the output, the TerminalStyle (colour and box drawing only on a
//   terminal, NO_COLOR respected), the clock and the time zone, handed to every view.
// - SessionOptions, SessionArguments: `--now` and `OPENEVENTKIT_HOME`; DateReading: dates as
//   people type them.
