#if defined(__linux__)
#define _GNU_SOURCE  // pipe2
#endif

#include "CResponseKitServices.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/// Signal numbers the handler knows: the standard signals and Linux's real-time ones.
#define RKS_SIGNAL_LIMIT 65
#define RKS_LINE_LIMIT 256

/// The pipe's ends; -1 until `rks_signal_pipe_open`. Atomics, so that the handler, on whatever
/// thread the signal lands, sees what the opening thread stored.
static int rks_read_end = -1;
static int rks_write_end = -1;

/// Signals received and not yet handled by the reader.
static int rks_unhandled = 0;

/// Per signal: the line the handler writes before a forced exit, and its length. The length is
/// stored with release after the line and loaded with acquire before it is used, so the handler
/// reads a whole line.
static char rks_forced_exit_lines[RKS_SIGNAL_LIMIT][RKS_LINE_LIMIT];
static size_t rks_forced_exit_lengths[RKS_SIGNAL_LIMIT];

/// Per signal: 1 when it counts toward the forced exit (a shutdown signal), 0 when it does not
/// (a reload signal, which must never end the process). Stored before the handler is installed.
static int rks_counted[RKS_SIGNAL_LIMIT];

#if !defined(__linux__)
static int rks_make_nonblocking_and_cloexec(int descriptor) {
    int status = fcntl(descriptor, F_GETFL);
    if (status == -1 || fcntl(descriptor, F_SETFL, status | O_NONBLOCK) == -1) return -1;
    return fcntl(descriptor, F_SETFD, FD_CLOEXEC);
}
#endif

int rks_signal_pipe_open(void) {
    int existing = __atomic_load_n(&rks_read_end, __ATOMIC_ACQUIRE);
    if (existing != -1) return existing;
    int ends[2];
#if defined(__linux__)
    // Both flags at once: a thread that forks and execs meanwhile cannot inherit the ends.
    if (pipe2(ends, O_NONBLOCK | O_CLOEXEC) == -1) return -1;
#else
    // Darwin has no pipe2: there is a moment when an exec on another thread inherits the ends.
    if (pipe(ends) == -1) return -1;
    if (rks_make_nonblocking_and_cloexec(ends[0]) == -1 || rks_make_nonblocking_and_cloexec(ends[1]) == -1) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
#endif
    __atomic_store_n(&rks_write_end, ends[1], __ATOMIC_RELEASE);
    __atomic_store_n(&rks_read_end, ends[0], __ATOMIC_RELEASE);
    return ends[0];
}

/// The handler: async-signal-safe calls only (atomics, write, _exit), and errno kept.
static void rks_handle_signal(int signal_number) {
    int saved = errno;
    if (__atomic_load_n(&rks_counted[signal_number], __ATOMIC_ACQUIRE)
        && __atomic_fetch_add(&rks_unhandled, 1, __ATOMIC_ACQ_REL) > 0) {
        // The reader has not finished with an earlier signal: the main queue is busy or stuck,
        // and this second signal must end the process all the same.
        size_t length = __atomic_load_n(&rks_forced_exit_lengths[signal_number], __ATOMIC_ACQUIRE);
        (void)write(STDERR_FILENO, rks_forced_exit_lines[signal_number], length);
        _exit(128 + signal_number);
    }
    unsigned char byte = (unsigned char)signal_number;
    // Non-blocking: with 65,536 bytes unread the byte is dropped, and the count above already
    // makes the next signal a forced exit.
    (void)write(__atomic_load_n(&rks_write_end, __ATOMIC_ACQUIRE), &byte, 1);
    errno = saved;
}

int rks_signal_catch(int signal_number, const char *forced_exit_line) {
    if (signal_number <= 0 || signal_number >= RKS_SIGNAL_LIMIT
        || __atomic_load_n(&rks_write_end, __ATOMIC_ACQUIRE) == -1) {
        errno = EINVAL;
        return -1;
    }
    if (forced_exit_line != NULL) {
        size_t length = strlen(forced_exit_line);
        if (length >= RKS_LINE_LIMIT) length = RKS_LINE_LIMIT - 1;
        memcpy(rks_forced_exit_lines[signal_number], forced_exit_line, length);
        __atomic_store_n(&rks_forced_exit_lengths[signal_number], length, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&rks_counted[signal_number], forced_exit_line != NULL, __ATOMIC_RELEASE);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = rks_handle_signal;
    // Interrupted system calls (reads, writes, waits) restart, in every thread, so the signal
    // changes nothing for code that does not expect EINTR.
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(signal_number, &action, NULL);
}

void rks_signal_handled(void) {
    __atomic_fetch_sub(&rks_unhandled, 1, __ATOMIC_ACQ_REL);
}

void rks_name_current_thread(const char *name) {
#if defined(__linux__)
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    (void)pthread_setname_np(pthread_self(), cut);
#elif defined(__APPLE__)
    (void)pthread_setname_np(name);
#else
    (void)name;
#endif
}
