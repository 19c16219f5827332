// How ChildProcess starts a program: with no blocked signal, every signal at its default action,
// only the descriptors it is given, and (on Linux) a parent-death signal.
//
// Why C: on Linux the parent-death signal (prctl PR_SET_PDEATHSIG) must be set in the child
// between fork and exec, where only async-signal-safe calls are allowed; posix_spawn has no
// attribute for it. Swift cannot promise that its code is async-signal-safe.

#ifndef RKS_SPAWN_H
#define RKS_SPAWN_H

#include <sys/types.h>

/// The most descriptors one child may be given (`count` of `rks_spawn`).
#define RKS_SPAWN_DESCRIPTOR_LIMIT 64

/// Starts `path` with `argv` and `envp` (both NULL-terminated) as a child process of the calling
/// thread, and returns once the child has called `execve`.
///
/// The child gets:
/// - descriptor `targets[i]` as a copy of this process's `sources[i]`, for each i below `count`
///   (at most `RKS_SPAWN_DESCRIPTOR_LIMIT`; a source may also be a target of another pair);
/// - standard input from /dev/null unless 0 is a target; standard output and error inherited
///   unless 1 or 2 is a target;
/// - no other descriptor, whether or not it is close-on-exec;
/// - an empty signal mask and the default action for every signal;
/// - on Linux, `parent_death_signal` (unless 0) when the calling *thread* ends: call it from a
///   thread that lives as long as the process. Elsewhere the argument is ignored.
///
/// Returns 0 with the child's id in `*pid`, or an errno value: that of `fork`/`posix_spawn`, or of
/// the child's `execve` (ENOENT, EACCES…), in which case the child has been reaped already.
int rks_spawn(
    const char *path, char *const argv[], char *const envp[], const int *targets, const int *sources, int count,
    int parent_death_signal, pid_t *pid);

#endif
