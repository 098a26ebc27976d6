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

// Ctrl-C while readline waits. At a command prompt it clears the line, as in a shell; in a
// form (a question a command asks) it leaves the form: the read returns as cancelled, and the
// command goes back to the prompt. readline's own signal catching is off (rl_catch_signals):
// the handler installed here only notes the interrupt, and readline reads its keys through
// oek_getc, which sees the read interrupted (EINTR) and acts on the note. The handler is
// installed only while readline waits, so that Ctrl-C during a command still stops the
// program, as it would any command-line program.
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// State lives in function-local statics: Swift emits the functions of this header, not its
// global variables.
static inline volatile sig_atomic_t *oek_interrupt_flag(void) {
  static volatile sig_atomic_t interrupted = 0;
  return &interrupted;
}

// Whether the read under way is a form's (1) or a command prompt's (0), and whether Ctrl-C
// cancelled it.
static inline int *oek_reading_form(void) {
  static int form = 0;
  return &form;
}

static inline int *oek_read_cancelled(void) {
  static int cancelled = 0;
  return &cancelled;
}

static inline struct sigaction *oek_saved_interrupt_action(void) {
  static struct sigaction saved;
  return &saved;
}

static inline void oek_note_interrupt(int signal) {
  (void)signal;
  *oek_interrupt_flag() = 1;
}

// What runs while the command prompt waits for a key (REPLKit's TerminalLineReader.whileIdle):
// called every oek_idle_interval milliseconds of silence, not while a form is read.
typedef void (*oek_idle_function)(void);
static inline oek_idle_function *oek_idle_slot(void) {
  static oek_idle_function idle = 0;
  return &idle;
}
static inline void oek_set_idle(oek_idle_function idle) { *oek_idle_slot() = idle; }
enum { oek_idle_interval = 200 };

// Around what the idle function writes: the prompt and the line being typed are cleared, and
// drawn again below what was written.
static inline void oek_clear_prompt_line(void) {
  rl_clear_visible_line();
  fflush(rl_outstream ? rl_outstream : stdout);
}
static inline void oek_redraw_prompt_line(void) {
  rl_on_new_line();
  rl_redisplay();
}

// readline's key reader: one byte from the terminal, acting on an interrupt noted meanwhile,
// and running the idle function while no key comes.
static inline int oek_getc(FILE *stream) {
  for (;;) {
    if (*oek_interrupt_flag()) {
      *oek_interrupt_flag() = 0;
      rl_replace_line("", 0);
      if (*oek_reading_form()) {
        // Accept the emptied line; the reader reports the read as cancelled.
        *oek_read_cancelled() = 1;
        return '\n';
      }
      rl_crlf();
      rl_on_new_line();
      rl_redisplay();
    }
    oek_idle_function idle = *oek_idle_slot();
    if (idle && !*oek_reading_form()) {
      struct pollfd input = {fileno(stream), POLLIN, 0};
      int ready = poll(&input, 1, oek_idle_interval);
      if (ready == 0) {
        idle();
        continue;
      }
      if (ready < 0 && errno == EINTR) continue;  // an interrupt: noted, acted on above
    }
    unsigned char c;
    ssize_t count = read(fileno(stream), &c, 1);
    if (count == 1) return c;
    if (count == 0 || errno != EINTR) return EOF;
  }
}

static inline void oek_begin_interruptible_read(int form) {
  rl_catch_signals = 0;
  rl_getc_function = oek_getc;
  *oek_reading_form() = form;
  *oek_read_cancelled() = 0;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  // No SA_RESTART: the interrupted read must return, so that oek_getc sees it.
  action.sa_handler = oek_note_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, oek_saved_interrupt_action());
  // A parent may have blocked SIGINT (test runners do); the person at the terminal expects
  // Ctrl-C to work, so this thread, the one waiting in readline, takes it.
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
}

// Ends the read; 1 when Ctrl-C cancelled it (a form's read only).
static inline int oek_end_interruptible_read(void) {
  sigaction(SIGINT, oek_saved_interrupt_action(), NULL);
  *oek_interrupt_flag() = 0;
  return *oek_read_cancelled();
}
