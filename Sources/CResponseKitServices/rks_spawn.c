#if defined(__linux__)
#define _GNU_SOURCE  // pipe2, F_DUPFD_CLOEXEC, close_range, NSIG
#endif

#include "rks_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#else
#include <spawn.h>
#endif

/// Whether `descriptor` is one of the first `count` of `targets`.
static int rks_is_target(int descriptor, const int *targets, int count) {
    for (int i = 0; i < count; i++) {
        if (targets[i] == descriptor) return 1;
    }
    return 0;
}

/// The lowest descriptor above every target and source, at least 3: where both branches move
/// the sources before placing them. Or minus an errno value: EINVAL for a bad count, EBADF for a
/// bad descriptor.
static int rks_descriptor_base(const int *targets, const int *sources, int count) {
    if (count < 0 || count > RKS_SPAWN_DESCRIPTOR_LIMIT) return -EINVAL;
    int base = 3;
    for (int i = 0; i < count; i++) {
        if (targets[i] < 0 || sources[i] < 0 || targets[i] == INT_MAX || sources[i] == INT_MAX) return -EBADF;
        if (targets[i] >= base) base = targets[i] + 1;
        if (sources[i] >= base) base = sources[i] + 1;
    }
    return base;
}

#if defined(__linux__)

/// In the child: tells the parent `error` through `report` (close-on-exec, so the parent reads end
/// of file when `execve` succeeds) and ends the child. Async-signal-safe.
__attribute__((noreturn)) static void rks_child_fail(int report, int error) {
    ssize_t written;
    do {
        written = write(report, &error, sizeof error);
    } while (written < 0 && errno == EINTR);
    _exit(127);
}

/// In the child: closes every descriptor from `first` up but `kept`. One or two `close_range`
/// calls (Linux 5.9, glibc 2.34); where there is none, one `close` per descriptor below `limit`.
static void rks_close_from(int first, int kept, int limit) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    int below = first >= kept || close_range((unsigned)first, (unsigned)kept - 1, 0) == 0;
    if (below && close_range((unsigned)kept + 1, ~0U, 0) == 0) return;
#endif
    for (int descriptor = first; descriptor < limit; descriptor++) {
        if (descriptor != kept) close(descriptor);
    }
}

/// In the child, between `fork` and `execve`: async-signal-safe calls only (the parent has other
/// threads, whose locks may be held for good here). Every signal arrives blocked (the parent
/// blocked them all around `fork`), so no handler of the parent's runs in the child.
__attribute__((noreturn)) static void rks_child(
    const char *path, char *const argv[], char *const envp[], const int *targets, const int *sources, int count,
    int parent_death_signal, pid_t parent, int report, int base, int limit) {
    // Every signal to its default action: caught ones would be reset by execve anyway, ignored
    // ones (SIG_IGN) would not. glibc's sigaction refuses its two internal signals (32 and 33,
    // below SIGRTMIN), which a parent may have ignored all the same (a test runner here had 32
    // ignored, and every child inherited it): for those, the system call itself, with the
    // kernel's structure, all zeros (SIG_DFL, no flags, an empty mask) whatever the
    // architecture's field order. SIGKILL and SIGSTOP refuse both ways; fine.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    unsigned long kernel_action[4] = {0, 0, 0, 0};
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (sigaction(signal_number, &action, NULL) == -1 && errno == EINVAL) {
            (void)syscall(SYS_rt_sigaction, signal_number, kernel_action, NULL, (size_t)(NSIG - 1) / 8);
        }
    }

    if (parent_death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, parent_death_signal) == -1) rks_child_fail(report, errno);
        // The parent may have died before prctl: then no signal will ever come.
        if (getppid() != parent) _exit(127);
    }

    // The report pipe and every source move above all targets first, so that placing one
    // descriptor never overwrites another that is still to be read.
    int kept = fcntl(report, F_DUPFD_CLOEXEC, base);
    if (kept == -1) rks_child_fail(report, errno);
    int moved[RKS_SPAWN_DESCRIPTOR_LIMIT];
    for (int i = 0; i < count; i++) {
        moved[i] = fcntl(sources[i], F_DUPFD_CLOEXEC, base);
        if (moved[i] == -1) rks_child_fail(kept, errno);
    }
    for (int i = 0; i < count; i++) {
        // dup2 clears close-on-exec on the target: it survives execve.
        if (dup2(moved[i], targets[i]) == -1) rks_child_fail(kept, errno);
    }
    if (!rks_is_target(0, targets, count)) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null == -1) rks_child_fail(kept, errno);
        if (null == 0 ? fcntl(0, F_SETFD, 0) == -1 : dup2(null, 0) == -1) rks_child_fail(kept, errno);
    }
    for (int descriptor = 3; descriptor < base; descriptor++) {
        if (!rks_is_target(descriptor, targets, count)) close(descriptor);
    }
    rks_close_from(base, kept, limit);

    // Last, the empty mask: a signal sent meanwhile (the parent-death signal) now has its default action.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    rks_child_fail(kept, errno);
}

int rks_spawn(
    const char *path, char *const argv[], char *const envp[], const int *targets, const int *sources, int count,
    int parent_death_signal, pid_t *pid) {
    int base = rks_descriptor_base(targets, sources, count);
    if (base < 0) return -base;
    long open_max = sysconf(_SC_OPEN_MAX);
    int limit = open_max < 0 || open_max > INT_MAX ? 65536 : (int)open_max;

    int report[2];
    if (pipe2(report, O_CLOEXEC) == -1) return errno;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        rks_child(path, argv, envp, targets, sources, count, parent_death_signal, parent, report[1], base, limit);
    }
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (child == -1) {
        close(report[0]);
        return fork_error;
    }

    // End of file: execve closed the child's end. Four bytes: why it failed.
    int child_error = 0;
    ssize_t got;
    do {
        got = read(report[0], &child_error, sizeof child_error);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got != 0) {
        while (waitpid(child, NULL, 0) == -1 && errno == EINTR) {}
        return got == sizeof child_error && child_error != 0 ? child_error : EIO;
    }
    *pid = child;
    return 0;
}

#else  // Apple platforms: posix_spawn, which has every attribute but the parent-death signal

int rks_spawn(
    const char *path, char *const argv[], char *const envp[], const int *targets, const int *sources, int count,
    int parent_death_signal, pid_t *pid) {
    (void)parent_death_signal;
    int base = rks_descriptor_base(targets, sources, count);
    if (base < 0) return -base;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);

    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    // CLOEXEC_DEFAULT: the child gets only the descriptors the actions below name.
    posix_spawnattr_setflags(
        &attributes, (short)(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT));
    // Every source above all targets first, then into place, as on Linux.
    for (int i = 0; i < count; i++) posix_spawn_file_actions_adddup2(&actions, sources[i], base + i);
    for (int i = 0; i < count; i++) posix_spawn_file_actions_adddup2(&actions, base + i, targets[i]);
    for (int i = 0; i < count; i++) posix_spawn_file_actions_addclose(&actions, base + i);
    if (!rks_is_target(0, targets, count)) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    for (int descriptor = 1; descriptor <= 2; descriptor++) {
        if (!rks_is_target(descriptor, targets, count)) posix_spawn_file_actions_addinherit_np(&actions, descriptor);
    }

    int error = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return error;
}

#endif
