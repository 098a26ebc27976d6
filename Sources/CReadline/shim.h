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

// Ctrl-C at the prompt clears the line, as in a shell. readline catches SIGINT itself
// (rl_catch_signals), tidies the terminal and re-raises it to the handler installed here,
// which only notes it; when the interrupted read returns, readline calls the signal event
// hook, which empties the line and starts a fresh prompt. The handler is installed only while
// readline waits, so that Ctrl-C during a command still stops the program.
#include <pthread.h>
#include <signal.h>
#include <string.h>

// State lives in function-local statics: Swift emits the functions of this header, not its
// global variables.
static inline volatile sig_atomic_t *oek_interrupt_flag(void) {
  static volatile sig_atomic_t interrupted = 0;
  return &interrupted;
}

static inline struct sigaction *oek_saved_interrupt_action(void) {
  static struct sigaction saved;
  return &saved;
}

static inline void oek_note_interrupt(int signal) {
  (void)signal;
  *oek_interrupt_flag() = 1;
}

static inline int oek_clear_line_after_interrupt(void) {
  if (*oek_interrupt_flag()) {
    *oek_interrupt_flag() = 0;
    rl_replace_line("", 0);
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
  }
  return 0;
}

static inline void oek_begin_interruptible_read(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = oek_note_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, oek_saved_interrupt_action());
  // A parent may have blocked SIGINT (test runners do); the person at the terminal expects
  // Ctrl-C to work, so this thread, the one waiting in readline, takes it.
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
  rl_signal_event_hook = oek_clear_line_after_interrupt;
}

static inline void oek_end_interruptible_read(void) {
  sigaction(SIGINT, oek_saved_interrupt_action(), NULL);
  rl_signal_event_hook = NULL;
  *oek_interrupt_flag() = 0;
}
