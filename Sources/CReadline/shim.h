// GNU readline (libreadline-dev) for REPLKit's line editing, history and completion.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// The C standard input stream, which Swift 6 cannot name as a global (shared mutable
// state): the line readers and Swift's own readLine() must share its buffer.
static inline FILE *oek_standard_input(void) { return stdin; }
