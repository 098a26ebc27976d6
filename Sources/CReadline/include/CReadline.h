// GNU readline (libreadline-dev) for REPLKit's line editing, history and completion, and the
// few C functions REPLKit needs around it (shim.c).
//
// Only declarations here. The state these functions share (the idle function, the interrupt
// noted, whether a form is being read) lives once, in shim.c: a header's `static inline`
// functions with function-local statics would give every module that inlines them its own
// copy, and an optimized build then sets one copy while readline's key reader reads another
// (issue 41: the idle notice never came in release builds).
#ifndef OEK_CREADLINE_H
#define OEK_CREADLINE_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// The C standard input stream, which Swift 6 cannot name as a global (shared mutable
// state): the line readers and Swift's own readLine() must share its buffer.
FILE *oek_standard_input(void);

// readline's settings are C globals, which Swift 6 cannot touch directly: small accessors.
void oek_set_attempted_completion(rl_completion_func_t *function);
const char *oek_line_buffer(void);
void oek_completion_over(void);

// What runs while the command prompt waits for a key (REPLKit's TerminalLineReader.whileIdle):
// called every fifth of a second of silence, not while a form is read. NULL for nothing.
typedef void (*oek_idle_function)(void);
void oek_set_idle(oek_idle_function idle);

// Around what the idle function writes: the prompt and the line being typed are cleared, and
// drawn again below what was written.
void oek_clear_prompt_line(void);
void oek_redraw_prompt_line(void);

// Begins a read through readline that Ctrl-C can interrupt: at a command prompt (form 0) it
// clears the line, as in a shell; in a form (1) it cancels the read. Ends with
// oek_end_interruptible_read, which answers 1 when Ctrl-C cancelled a form's read.
void oek_begin_interruptible_read(int form);
int oek_end_interruptible_read(void);

#endif
