// REPLKit: the REPL every sample shares (commands, help, history, completion, piped
// transcripts).
//
// Built so far (issue #7): splitting command lines into words with quotes
// (CommandLineWords) and "did you mean" suggestions (NearestName). The loop, readline line
// editing, history and completion are not built yet.
