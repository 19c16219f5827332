// Stands in, for .ci/check-darwin-c on Linux, for what Darwin's <spawn.h> has and glibc's lacks.
// Declarations only: the check type-checks, it builds nothing.
#include <spawn.h>

#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000
int posix_spawn_file_actions_addinherit_np(posix_spawn_file_actions_t *actions, int descriptor);
