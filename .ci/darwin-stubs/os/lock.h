// A stand-in for Apple's <os/lock.h>, written from its documentation (os_unfair_lock,
// OS_UNFAIR_LOCK_INIT, os_unfair_lock_lock, os_unfair_lock_unlock), so that CI on Linux can
// type-check CResponseKit's Darwin branch. Never compiled into anything.
#pragma once
#include <stdint.h>
typedef struct os_unfair_lock_s {
    uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;
#define OS_UNFAIR_LOCK_INIT ((os_unfair_lock){0})
void os_unfair_lock_lock(os_unfair_lock_t lock);
void os_unfair_lock_unlock(os_unfair_lock_t lock);
// Declared by Darwin's <pthread.h>; glibc's has no such function.
int pthread_main_np(void);
