// How ServiceRunner hears SIGINT, SIGTERM and SIGHUP without changing what child processes inherit.
//
// Why C: a signal handler may only call async-signal-safe functions, and Swift cannot promise
// that its code is one (it may allocate, retain, take runtime locks). The handler here does two
// things only: it counts the signal with a C11 atomic and write()s its number to a self-pipe,
// which ServiceRunner reads on the main queue. Nothing is blocked and nothing is ignored, so a
// process that a service starts gets an empty signal mask and, since exec resets caught signals
// to their default action, SIGINT and SIGTERM end it as usual.

#ifndef CRESPONSEKITSERVICES_H
#define CRESPONSEKITSERVICES_H

/// Opens the self-pipe, once per process, and returns its read end: non-blocking and
/// close-on-exec, like its write end, so no child process inherits either.
///
/// Returns -1 (with errno set) when the pipe cannot be made.
int rks_signal_pipe_open(void);

/// Catches `signal_number` from now on: its handler writes the number, one byte, to the pipe.
///
/// A signal that arrives while an earlier one is still unhandled (read from the pipe but
/// `rks_signal_handled` not yet called, or not read at all) means the main queue is busy or
/// stuck; the handler then writes `forced_exit_line` (copied, at most 255 bytes) to standard
/// error and ends the process at once with `_exit(128 + signal_number)`.
///
/// With `forced_exit_line` NULL (a reload signal), the signal is only written to the pipe: it is
/// not counted, never forces the exit, and the reader does not call `rks_signal_handled` for it.
///
/// Call it after `rks_signal_pipe_open`, for signals below 65. Returns 0, or -1 with errno set.
int rks_signal_catch(int signal_number, const char *forced_exit_line);

/// Says that one signal caught with a forced-exit line and read from the pipe has been handled,
/// so the next one is handled by the reader again rather than by the handler's forced exit.
void rks_signal_handled(void);

/// Names the calling thread, for `ps -L`, `top -H` and debuggers: at most 15 bytes on Linux (a
/// longer name is cut there, rather than refused). Does nothing where threads cannot be named.
void rks_name_current_thread(const char *name);

/// How ChildProcess starts a program: `rks_spawn`.
#include "rks_spawn.h"

#endif
