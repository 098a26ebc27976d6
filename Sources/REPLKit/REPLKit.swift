// REPLKit: the readline REPL every sample shares (commands, help, history, completion, piped
// transcripts).
//
// Not built yet: this module is empty until the terminal front end lands (issue #7).
