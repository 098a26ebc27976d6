// REPLKit: the REPL every sample shares (commands, help, history, completion, piped
// transcripts).
//
// Built so far (issue #7): the loop over a command table with `help`, `help COMMAND`, `quit`,
// errors that leave the loop going and set the exit status, "did you mean" suggestions
// (REPL, REPLCommand, NearestName); command lines split into words with quotes
// (CommandLineWords); the shared line reader (LineReader) with a scripted reader that echoes
// each line after its prompt. Not built yet: readline line editing, history, completion,
// colour, and the reader over standard input and the terminal.
