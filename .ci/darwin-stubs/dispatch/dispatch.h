// A stand-in for Darwin's <dispatch/dispatch.h>, for .ci/check-darwin-c only: the declarations
// CResponseKit's Darwin branch uses, with their C types (a queue is a pointer to its object).
#include <stdint.h>
typedef struct dispatch_queue_s *dispatch_queue_t;
typedef void (*dispatch_function_t)(void *);
void dispatch_async_f(dispatch_queue_t queue, void *context, dispatch_function_t work);
dispatch_queue_t dispatch_get_global_queue(intptr_t identifier, uintptr_t flags);
#define QOS_CLASS_DEFAULT 0x15
dispatch_queue_t dispatch_get_main_queue(void);
