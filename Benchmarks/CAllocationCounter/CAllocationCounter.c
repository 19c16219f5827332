#include "CAllocationCounter.h"

// The sanitizers bring allocators of their own, which a second definition of malloc would clash
// with (or bypass): under them nothing is counted.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RK_UNDER_SANITIZER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(RK_UNDER_SANITIZER)
#include <errno.h>
#include <stddef.h>

// glibc's implementations, which its own malloc, calloc, … call. Declared here because no public
// header declares them; they are part of glibc's ABI.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations;

static inline void count_one(void) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
}

bool rk_allocation_counting_available(void) {
    return true;
}

uint64_t rk_allocation_count(void) {
    return __atomic_load_n(&allocations, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    // A realloc of nothing is an allocation; growing a block is not counted as a new one.
    if (pointer == NULL) count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    count_one();
    *result = pointer;
    return 0;
}
#else
bool rk_allocation_counting_available(void) {
    return false;
}

uint64_t rk_allocation_count(void) {
    return 0;
}
#endif
