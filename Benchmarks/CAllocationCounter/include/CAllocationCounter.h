// Counts the heap allocations of the benchmark process, for the allocation figures and budgets of
// ResponseBenchmarks.
//
// On Linux with glibc this target defines malloc and its relatives, which the executable's
// definitions make the process's allocator for every library (the dynamic linker binds to the
// executable first). Each counts, then forwards to glibc's own implementation (`__libc_malloc`
// and kin). Elsewhere, and under a sanitizer (which brings its own allocator), nothing is
// interposed and `rk_allocation_counting_available` says so.

#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether allocations are counted in this build.
bool rk_allocation_counting_available(void);

/// Allocations (malloc, calloc, realloc of a new block, aligned allocations) since the process
/// started, on every thread.
uint64_t rk_allocation_count(void);

#endif
