// Stands in, for .ci/check-darwin-c on Linux, for Darwin's one-argument pthread_setname_np (it
// names the calling thread), which glibc declares with two arguments, and only with _GNU_SOURCE.
// A declaration only: the check type-checks, it builds nothing.
int pthread_setname_np(const char *name);
