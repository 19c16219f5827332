#include "CResponseKit.h"

#include <pthread.h>
#include <sched.h>

#if !defined(__APPLE__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

uint32_t rk_tracking_enabled_flag = 0;
uint32_t rk_main_jobs_flag = 0;
uint32_t rk_check_scopes_running = 0;
uint32_t rk_check_scopes_used = 0;
_Thread_local rk_deliveries rk_deliveries_here;

#if defined(__APPLE__)

bool rk_is_main_thread(void) {
    return pthread_main_np() != 0;
}

#else

void rk_lock_contended(rk_word *word) {
    unsigned spins = 0;
    for (;;) {
        uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
        if ((current & RK_LOCK_BIT) == 0
            && __atomic_compare_exchange_n(
                &word->state, &current, current | RK_LOCK_BIT, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        if (++spins > 64) {
            sched_yield();
        }
    }
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
