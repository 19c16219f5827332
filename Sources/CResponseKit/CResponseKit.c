#include "CResponseKit.h"

#include <pthread.h>

#if !defined(__APPLE__)
#include <sched.h>
#include <sys/syscall.h>
#if defined(__linux__)
#include <linux/futex.h>
#endif
#include <unistd.h>
#endif

uint32_t rk_tracking_enabled_flag = 0;
uint32_t rk_main_jobs_flag = 0;
uint32_t rk_check_scopes_running = 0;
uint32_t rk_check_scopes_used = 0;
uint64_t rk_wait_identities = 0;
_Thread_local rk_deliveries rk_deliveries_here;

#if defined(__APPLE__)

bool rk_is_main_thread(void) {
    return pthread_main_np() != 0;
}

#else

/// How many times a waiter tries again before it sleeps: a lock is held for about a hundred
/// instructions, so a holder that is running releases it within this; one that was preempted will
/// not, and spinning longer only takes the processor from it.
#define RK_SPINS 100

static inline void rk_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/// Tries to take the lock for up to `RK_SPINS` rounds while it is held; `parked` says whether to
/// take it with the parked bit (a thread that has slept must, since others may sleep too).
static bool rk_spin_for_lock(rk_word *word, uint32_t parked) {
    for (unsigned spins = 0; spins < RK_SPINS; spins++) {
        uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
        if ((current & RK_LOCK_BIT) == 0) {
            if (__atomic_compare_exchange_n(
                    &word->state, &current, current | RK_LOCK_BIT | parked, true, __ATOMIC_ACQUIRE,
                    __ATOMIC_RELAXED)) {
                return true;
            }
            continue;
        }
        rk_cpu_relax();
    }
    return false;
}

/// How many times a waiter that spun in vain yields its processor, trying again after each, before
/// it sleeps. Yielding lets a holder that was preempted run again, and costs far less than a
/// sleep and a wake-up when the wait is short; sleeping bounds the processor time a long wait
/// (a holder descheduled for good) burns.
#define RK_YIELDS 8

void rk_lock_contended(rk_word *word) {
    if (rk_spin_for_lock(word, 0)) return;
    for (unsigned yields = 0; yields < RK_YIELDS; yields++) {
        sched_yield();
        uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
        if ((current & RK_PARKED_BIT) != 0) break;  // others sleep already: queue behind them
        if ((current & RK_LOCK_BIT) == 0
            && __atomic_compare_exchange_n(
                &word->state, &current, current | RK_LOCK_BIT, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
    }
    for (;;) {
        uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
        if ((current & RK_LOCK_BIT) == 0) {
            // Taken with the parked bit: other threads may still sleep, and only a release that
            // clears the bit wakes one of them (at worst, one wake-up finds nobody).
            if (__atomic_compare_exchange_n(
                    &word->state, &current, current | RK_LOCK_BIT | RK_PARKED_BIT, true, __ATOMIC_ACQUIRE,
                    __ATOMIC_RELAXED)) {
                return;
            }
            continue;
        }
        if ((current & RK_PARKED_BIT) == 0) {
            uint32_t parked = current | RK_PARKED_BIT;
            if (!__atomic_compare_exchange_n(
                    &word->state, &current, parked, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                continue;
            }
            current = parked;
        }
        // Sleeps only while the word still holds `current`: a release (or any other change:
        // a flag, a claim) in between makes the call return at once, and the loop looks again.
#if defined(__linux__)
        syscall(SYS_futex, &word->state, FUTEX_WAIT_PRIVATE, current, NULL, NULL, 0);
#else
        sched_yield();  // no futex here: the parked bit is set and cleared all the same
#endif
        // Woken: the holder that woke us has just released the lock; try for it briefly before
        // sleeping again.
        if (rk_spin_for_lock(word, RK_PARKED_BIT)) return;
    }
}

void rk_wake_parked(rk_word *word) {
#if defined(__linux__)
    syscall(SYS_futex, &word->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    (void)word;
#endif
}

/// Whether the calling thread is the main thread, by the kernel's account: its thread id is the
/// process id. A system call, so asked once.
static bool rk_ask_kernel_if_main_thread(void) {
    return (pid_t)syscall(SYS_gettid) == getpid();
}

/// The main thread, recorded when the library is loaded. Constructors of a program run on its main
/// thread; a library loaded later from another thread records nothing and asks the kernel instead.
static pthread_t rk_main_thread;
static bool rk_main_thread_known = false;

__attribute__((constructor)) static void rk_record_main_thread(void) {
    if (rk_ask_kernel_if_main_thread()) {
        rk_main_thread = pthread_self();
        __atomic_store_n(&rk_main_thread_known, true, __ATOMIC_RELEASE);
    }
}

bool rk_is_main_thread(void) {
    if (__atomic_load_n(&rk_main_thread_known, __ATOMIC_ACQUIRE)) {
        return pthread_equal(pthread_self(), rk_main_thread);
    }
    return rk_ask_kernel_if_main_thread();
}

#endif

// libdispatch's C entry points. Apple platforms declare them in <dispatch/dispatch.h>; on Linux
// that header is not on a C target's search path, so what it uses is declared here with
// their ABI: a `dispatch_queue_t` is a pointer to the queue object, `QOS_CLASS_DEFAULT` is 0x15.
#if defined(__APPLE__)
#include <dispatch/dispatch.h>

void rk_dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    dispatch_async_f((dispatch_queue_t)queue, context, work);
}

void *rk_dispatch_default_global_queue(void) {
    return (void *)dispatch_get_global_queue(QOS_CLASS_DEFAULT, 0);
}

void *rk_dispatch_main_queue(void) {
    return (void *)dispatch_get_main_queue();
}
#else
extern void dispatch_async_f(void *queue, void *context, void (*work)(void *));
extern void *dispatch_get_global_queue(long identifier, unsigned long flags);
// What the header's `dispatch_get_main_queue()` macro returns the address of.
extern char _dispatch_main_q;

void rk_dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    dispatch_async_f(queue, context, work);
}

void *rk_dispatch_default_global_queue(void) {
    return dispatch_get_global_queue(0x15, 0);
}

void *rk_dispatch_main_queue(void) {
    return &_dispatch_main_q;
}
#endif
