// The C side of REPLKit's readline reader: readline's key reader, Ctrl-C while readline
// waits, and the idle function run while the prompt waits for a key.
//
// Ctrl-C while readline waits: at a command prompt it clears the line, as in a shell; in a
// form (a question a command asks) it leaves the form: the read returns as cancelled, and the
// command goes back to the prompt. readline's own signal catching is off (rl_catch_signals):
// the handler installed here only notes the interrupt, and readline reads its keys through
// oek_getc, which sees the read interrupted (EINTR) and acts on the note. The handler is
// installed only while readline waits, so that Ctrl-C during a command still stops the
// program, as it would any command-line program. The key reader waits for a key at most
// idle_interval at a time, so that a note made by another thread's handler is acted on
// within that time.
#include "CReadline.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// The one copy of the reader's state, shared by every module that calls these functions.
static volatile sig_atomic_t interrupted = 0;
// Whether the read under way is a form's (1) or a command prompt's (0), and whether Ctrl-C
// cancelled it.
static int reading_form = 0;
static int read_cancelled = 0;
static struct sigaction saved_interrupt_action;
static oek_idle_function idle_function = NULL;
// How long a silence runs the idle function, in milliseconds.
enum { idle_interval = 200 };

FILE *oek_standard_input(void) { return stdin; }

void oek_set_attempted_completion(rl_completion_func_t *function) {
  rl_attempted_completion_function = function;
}

const char *oek_line_buffer(void) { return rl_line_buffer; }

void oek_completion_over(void) { rl_attempted_completion_over = 1; }

void oek_set_idle(oek_idle_function idle) { idle_function = idle; }

void oek_clear_prompt_line(void) {
  rl_clear_visible_line();
  fflush(rl_outstream ? rl_outstream : stdout);
}

void oek_redraw_prompt_line(void) {
  rl_on_new_line();
  rl_redisplay();
}

static void note_interrupt(int signal) {
  (void)signal;
  interrupted = 1;
}

// readline's key reader: one byte from the terminal, acting on an interrupt noted meanwhile,
// and running the idle function while no key comes.
static int oek_getc(FILE *stream) {
  for (;;) {
    if (interrupted) {
      interrupted = 0;
      rl_replace_line("", 0);
      if (reading_form) {
        // Accept the emptied line; the reader reports the read as cancelled.
        read_cancelled = 1;
        return '\n';
      }
      rl_crlf();
      rl_on_new_line();
      rl_redisplay();
    }
    // Wait for a key a while at a time, not in one blocking read: the kernel gives Ctrl-C's
    // signal to any thread that takes it, often the main thread, which waits while a prompt
    // asks on another (the access alert); then this read is not interrupted, and the
    // interrupt would be acted on only after the next key, which it would swallow.
    struct pollfd input = {fileno(stream), POLLIN, 0};
    int ready = poll(&input, 1, idle_interval);
    if (ready == 0) {
      oek_idle_function idle = idle_function;
      if (idle && !reading_form) idle();
      continue;
    }
    if (ready < 0 && errno == EINTR) continue;  // an interrupt: noted, acted on above
    unsigned char c;
    ssize_t count = read(fileno(stream), &c, 1);
    if (count == 1) return c;
    if (count == 0 || errno != EINTR) return EOF;
  }
}

void oek_begin_interruptible_read(int form) {
  rl_catch_signals = 0;
  rl_getc_function = oek_getc;
  reading_form = form;
  read_cancelled = 0;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  // No SA_RESTART: the interrupted read must return, so that oek_getc sees it.
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved_interrupt_action);
  // A parent may have blocked SIGINT (test runners do); the person at the terminal expects
  // Ctrl-C to work, so this thread, the one waiting in readline, takes it.
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
}

int oek_end_interruptible_read(void) {
  sigaction(SIGINT, &saved_interrupt_action, NULL);
  interrupted = 0;
  return read_cancelled;
}
