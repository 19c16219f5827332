// The few primitives of ResponseKit that Swift cannot spell on every platform it supports:
// atomic operations on a response's state word, its lock, and "is this the main thread?".
//
// Why C: `Synchronization.Atomic` needs macOS 15 / iOS 18, and `Synchronization.Mutex` is not seen
// by the thread sanitizer on Linux. The compiler builtins below are C11 atomics (the sanitizer
// instruments them), are available on every platform, and inline into Swift callers.
//
// Every function takes a pointer to an `rk_word` that lives inside a response object: Swift code
// never reads or writes its fields directly.

#ifndef CRESPONSEKIT_H
#define CRESPONSEKIT_H

#include <stdbool.h>
#include <stdint.h>

#include "CResponseKitDarwinLock.h"

/// A response's state word: its flags and claim count, and its lock.
///
/// On Apple platforms the lock is an `os_unfair_lock` of its own (it donates priority to the
/// holder); elsewhere it lives in `state`: bit 0 is the lock (one compare-and-swap to take, one
/// atomic operation to release, and flags and lock can change together), and `RK_PARKED_BIT`
/// says a thread sleeps waiting for it (a futex wait on `state`), so the unlock must wake one.
typedef struct {
    uint32_t state;
#if defined(__APPLE__)
    rk_darwin_lock lock;
#endif
} rk_word;

/// Bit 0 of `state`: the lock, where it lives in the state word.
#define RK_LOCK_BIT 1u

/// Bit 12 of `state`: a thread sleeps (or is about to) until the lock is released. Only set while
/// `RK_LOCK_BIT` is; the release that clears both wakes one sleeper. The bits between the two are
/// the response's flags, and the claim count starts above it (`ResponseFlags` in Swift).
#define RK_PARKED_BIT (1u << 12)

/// A word with `flags` set and the lock free.
static inline rk_word rk_word_make(uint32_t flags) {
    rk_word word;
    word.state = flags;
#if defined(__APPLE__)
    rk_darwin_lock_init(&word.lock);
#endif
    return word;
}

/// The flags, with acquire ordering: what was written before a flag was set with release
/// ordering is visible once the flag is seen.
static inline uint32_t rk_load_acquire(rk_word *word) {
    return __atomic_load_n(&word->state, __ATOMIC_ACQUIRE);
}

/// The flags, with no ordering: for decisions that the lock or a later acquire confirms.
static inline uint32_t rk_load_relaxed(rk_word *word) {
    return __atomic_load_n(&word->state, __ATOMIC_RELAXED);
}

/// Sets `bits` (release ordering); returns the flags before.
static inline uint32_t rk_fetch_or(rk_word *word, uint32_t bits) {
    return __atomic_fetch_or(&word->state, bits, __ATOMIC_RELEASE);
}

/// Adds `amount` (no ordering: a claim count); returns the flags before.
static inline uint32_t rk_fetch_add(rk_word *word, uint32_t amount) {
    return __atomic_fetch_add(&word->state, amount, __ATOMIC_RELAXED);
}

/// Subtracts `amount` (acquire and release, as a reference count's release does); returns the
/// flags before.
static inline uint32_t rk_fetch_sub(rk_word *word, uint32_t amount) {
    return __atomic_fetch_sub(&word->state, amount, __ATOMIC_ACQ_REL);
}

/// Replaces `*expected` with `desired` if the flags still equal it (release on success); on
/// failure, `*expected` receives the current flags.
static inline bool rk_compare_exchange(rk_word *word, uint32_t *expected, uint32_t desired) {
    return __atomic_compare_exchange_n(
        &word->state, expected, desired, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/// Sets `bits` (release ordering) if neither the lock nor any of `unless` is set at that moment;
/// returns whether it did. The holder of the lock therefore never sees the flags change under it
/// this way. Where the lock is not in the state word (Apple platforms) it cannot be checked in the
/// same operation, so this always returns `false` and the caller takes the lock instead.
static inline bool rk_set_if_unlocked_and_clear(rk_word *word, uint32_t unless, uint32_t bits) {
#if defined(__APPLE__)
    (void)word;
    (void)unless;
    (void)bits;
    return false;
#else
    uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
    while ((current & (unless | RK_LOCK_BIT)) == 0) {
        if (__atomic_compare_exchange_n(
                &word->state, &current, current | bits, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
            return true;
        }
    }
    return false;
#endif
}

#if !defined(__APPLE__)
/// Takes the lock bit once it is free: spins briefly (a holder keeps the lock for a few field
/// swaps: holders never run user code under it), yields the processor a few times (a holder that
/// was preempted runs again), then sleeps on the word until a release wakes it, so that waiters
/// never keep burning the processor a descheduled holder needs.
void rk_lock_contended(rk_word *word);

/// Wakes one thread sleeping in `rk_lock_contended`: called by a release that cleared
/// `RK_PARKED_BIT`.
void rk_wake_parked(rk_word *word);
#endif

/// Takes the response's lock.
static inline void rk_lock(rk_word *word) {
#if defined(__APPLE__)
    rk_darwin_lock_lock(&word->lock);
#else
    uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED) & ~RK_LOCK_BIT;
    if (!__atomic_compare_exchange_n(
            &word->state, &current, current | RK_LOCK_BIT, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        rk_lock_contended(word);
    }
#endif
}

/// Releases the response's lock (and wakes a sleeping waiter, if any).
static inline void rk_unlock(rk_word *word) {
#if defined(__APPLE__)
    rk_darwin_lock_unlock(&word->lock);
#else
    uint32_t before = __atomic_fetch_and(&word->state, ~(RK_LOCK_BIT | RK_PARKED_BIT), __ATOMIC_RELEASE);
    if (__builtin_expect((before & RK_PARKED_BIT) != 0, 0)) rk_wake_parked(word);
#endif
}

/// Releases the response's lock, sets `flags` and adds `amount` to the word (release ordering),
/// in one atomic operation where the lock lives in the state word: a registration that also
/// records a claim (a derived response, a blocking read) or marks the response observed (a
/// callback) costs no atomic operation of its own. With `amount` 0, it only sets the flags.
static inline void rk_unlock_setting_adding(rk_word *word, uint32_t flags, uint32_t amount) {
#if defined(__APPLE__)
    uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(
        &word->state, &current, (current | flags) + amount, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
    rk_darwin_lock_unlock(&word->lock);
#else
    uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(
        &word->state, &current, ((current | flags) & ~(RK_LOCK_BIT | RK_PARKED_BIT)) + amount, true,
        __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
    if (__builtin_expect((current & RK_PARKED_BIT) != 0, 0)) rk_wake_parked(word);
#endif
}

/// How many test scopes that check responses (`ResponseCheckScope`) run now: while none does,
/// making a response reads this one word and nothing else of the checks.
extern uint32_t rk_check_scopes_running;
/// Non-zero once any such scope has run: from then on a diagnostic asks which scope, if any, its
/// response was made in.
extern uint32_t rk_check_scopes_used;

/// Whether a test scope that checks responses runs now.
static inline bool rk_check_scopes_are_running(void) {
    return __atomic_load_n(&rk_check_scopes_running, __ATOMIC_RELAXED) != 0;
}

/// Whether a test scope that checks responses has ever run.
static inline bool rk_check_scopes_were_used(void) {
    return __atomic_load_n(&rk_check_scopes_used, __ATOMIC_RELAXED) != 0;
}

/// A scope starts (`delta` 1) or ends (`delta` -1).
static inline void rk_check_scopes_count(int32_t delta) {
    __atomic_store_n(&rk_check_scopes_used, 1u, __ATOMIC_RELAXED);
    __atomic_fetch_add(&rk_check_scopes_running, (uint32_t)delta, __ATOMIC_RELAXED);
}

/// Gives up one claim (`one_claim`, the count above `claim_shift`), in one atomic operation.
/// `wants_cancel` says whether the holder letting go wants the response cancelled (a derived
/// response that finished early, an awaiting task that was cancelled) or merely stops waiting (a
/// blocking read that gave up); a wish that cannot be granted yet, because others still hold
/// claims, is kept in the `cancel_wanted` bit. Returns whether the response should now be
/// cancelled: this was the last claim, no callback waits for it (`observed`), and this release or
/// an earlier one wanted it cancelled.
static inline bool rk_release_claim(
    rk_word *word, uint32_t one_claim, uint32_t claim_shift, uint32_t observed, uint32_t cancel_wanted,
    bool wants_cancel) {
    uint32_t current = __atomic_load_n(&word->state, __ATOMIC_RELAXED);
    uint32_t next;
    do {
        next = current - one_claim;
        if (wants_cancel) next |= cancel_wanted;
    } while (!__atomic_compare_exchange_n(&word->state, &current, next, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    return (current >> claim_shift) == 1 && (current & observed) == 0 && (wants_cancel || (current & cancel_wanted) != 0);
}

/// How many completions on this thread record which response they deliver (deeper ones nest
/// unrecorded: chains hand deep steps back to a loop, so this depth is rarely reached).
#define RK_DELIVERIES_RECORDED 32

/// The responses whose completion (cancellation handlers, claims, callbacks) runs on this thread
/// now, outermost first, and how deep they nest. A blocking read on the main queue asks it, so
/// that a read inside the delivery of the very response it reads returns instead of waiting for
/// that delivery, which is further up its own stack.
typedef struct {
    uintptr_t responses[RK_DELIVERIES_RECORDED];
    uint32_t depth;
} rk_deliveries;

extern _Thread_local rk_deliveries rk_deliveries_here;

/// Records that this thread is completing `response` (its address; until `rk_delivery_end`). An
/// integer rather than a pointer: Swift then sees no object escape into C, and keeps moving the
/// completion's values instead of copying them around the call.
static inline void rk_delivery_begin(uintptr_t response) {
    rk_deliveries *here = &rk_deliveries_here;
    if (here->depth < RK_DELIVERIES_RECORDED) here->responses[here->depth] = response;
    here->depth += 1;
}

/// Ends what the matching `rk_delivery_begin` recorded.
static inline void rk_delivery_end(void) {
    rk_deliveries_here.depth -= 1;
}

/// The response this thread completes `level` completions up from the innermost one recorded
/// (0: the innermost), or 0 when there is none that deep. The response checks ask it for a
/// response made inside a completion, on a thread that runs no test: such a response belongs to
/// the test whose response is being completed.
static inline uintptr_t rk_delivery_recorded(uint32_t level) {
    const rk_deliveries *here = &rk_deliveries_here;
    uint32_t recorded = here->depth < RK_DELIVERIES_RECORDED ? here->depth : RK_DELIVERIES_RECORDED;
    return level < recorded ? here->responses[recorded - 1 - level] : 0;
}

/// Whether this thread is completing `response` (its address) now, at any depth recorded.
static inline bool rk_is_delivering(uintptr_t response) {
    const rk_deliveries *here = &rk_deliveries_here;
    uint32_t recorded = here->depth < RK_DELIVERIES_RECORDED ? here->depth : RK_DELIVERIES_RECORDED;
    for (uint32_t index = 0; index < recorded; index++) {
        if (here->responses[index] == response) return true;
    }
    return false;
}

/// Whether the caller runs on the process's main thread. Cheap: no system call.
bool rk_is_main_thread(void);

/// Sends `work(context)` to the Dispatch queue `queue` (a `dispatch_queue_t`) through libdispatch's
/// `dispatch_async_f`: no block to copy and release per job, unlike `DispatchQueue.async`.
void rk_dispatch_async_f(void *queue, void *context, void (*work)(void *));

/// The default quality-of-service global queue (libdispatch's `dispatch_get_global_queue` for
/// `QOS_CLASS_DEFAULT`): how `DispatchJobs` checks, once, where `DispatchQueue` keeps its queue.
void *rk_dispatch_default_global_queue(void);

/// The main queue (libdispatch's `dispatch_get_main_queue()`), whose jobs ResponseKit keeps in
/// its own queue rather than sending them to Dispatch one by one.
void *rk_dispatch_main_queue(void);

/// Non-zero while pending responses are tracked (`ResponseTracking`). Read on every response's
/// creation, so a relaxed load of one global: tracking is free when off.
extern uint32_t rk_tracking_enabled_flag;

/// Whether pending responses are tracked.
static inline bool rk_tracking_enabled(void) {
    return __atomic_load_n(&rk_tracking_enabled_flag, __ATOMIC_RELAXED) != 0;
}

/// Turns tracking on or off.
static inline void rk_set_tracking_enabled(bool enabled) {
    __atomic_store_n(&rk_tracking_enabled_flag, enabled ? 1u : 0u, __ATOMIC_RELAXED);
}

/// The last identity handed to a task awaiting a response (`Response.get()`).
extern uint64_t rk_wait_identities;

/// A number no other wait of this process had: how a cancelled task finds its own entry among
/// a response's callbacks. Relaxed: only uniqueness matters, which the atomic add gives.
static inline uint64_t rk_next_wait_identity(void) {
    return __atomic_add_fetch(&rk_wait_identities, 1, __ATOMIC_RELAXED);
}

/// Non-zero while ResponseKit's main-queue jobs may be waiting to run (a drain is scheduled or
/// under way): written under `MainQueueJobs`' lock, read without it by blocking reads, so that a
/// read off the main queue, or with nothing queued, never asks Dispatch where it runs.
extern uint32_t rk_main_jobs_flag;

/// Whether ResponseKit's main-queue jobs may be waiting to run. A `true` can be stale (the
/// drain is ending); a `false` read after seeing a delivery's effects (acquire) is not.
static inline bool rk_main_jobs_maybe_pending(void) {
    return __atomic_load_n(&rk_main_jobs_flag, __ATOMIC_RELAXED) != 0;
}

/// Records whether ResponseKit's main-queue jobs may be waiting to run (under their lock).
static inline void rk_set_main_jobs_maybe_pending(bool pending) {
    __atomic_store_n(&rk_main_jobs_flag, pending ? 1u : 0u, __ATOMIC_RELAXED);
}

#endif
