// GNU readline (libreadline-dev) for REPLKit's line editing, history and completion.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// The C standard input stream, which Swift 6 cannot name as a global (shared mutable
// state): the line readers and Swift's own readLine() must share its buffer.
static inline FILE *oek_standard_input(void) { return stdin; }

// readline's settings are C globals, which Swift 6 cannot touch directly: small accessors.
static inline void oek_set_attempted_completion(rl_completion_func_t *function) {
  rl_attempted_completion_function = function;
}
static inline const char *oek_line_buffer(void) { return rl_line_buffer; }
static inline void oek_completion_over(void) { rl_attempted_completion_over = 1; }
