// The response lock on Apple platforms: `os_unfair_lock`, which donates the waiter's priority to
// the holder (a spin-then-yield lock can invert priorities, which is why OSSpinLock was retired).
//
// Only compiled on Apple platforms, and not built by this project's CI (Linux): it uses only the
// documented API of <os/lock.h> (OS_UNFAIR_LOCK_INIT, os_unfair_lock_lock, os_unfair_lock_unlock).

#ifndef CRESPONSEKIT_DARWIN_LOCK_H
#define CRESPONSEKIT_DARWIN_LOCK_H

#if defined(__APPLE__)
#include <os/lock.h>

typedef os_unfair_lock rk_darwin_lock;

static inline void rk_darwin_lock_init(rk_darwin_lock *lock) {
    *lock = OS_UNFAIR_LOCK_INIT;
}

static inline void rk_darwin_lock_lock(rk_darwin_lock *lock) {
    os_unfair_lock_lock(lock);
}

static inline void rk_darwin_lock_unlock(rk_darwin_lock *lock) {
    os_unfair_lock_unlock(lock);
}
#endif

#endif
