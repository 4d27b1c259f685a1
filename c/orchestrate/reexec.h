/* orchestrate/reexec.h — the preloads a run asks for (--malloc, and the
 * counter of --count-allocs) take effect by re-executing this very process
 * with LD_PRELOAD set (and --slot-offset's placer of the SDK's async slots,
 * which reads CGOCOST_SLOT_OFFSET): an exec in place, not a child, which is why it is not
 * in child.c. The process that comes back verifies what serves malloc. */
#ifndef CGOCOST_ORCHESTRATE_REEXEC_H
#define CGOCOST_ORCHESTRATE_REEXEC_H

#include <stddef.h>

/* Re-executes the driver when the preloads the options ask for are not in
 * effect yet. Returns only when nothing needs doing, or on error (-1 with a
 * message, 2 = bad input such as an allocator the loader cannot find). */
int preload_reexec(const char *malloc_name, int count_allocs, int slot_offset, char **argv, char *err, size_t errlen);

/* The same checks without the re-execution, for a parent whose child
 * launches preload for themselves: 0, or 2 with a message. */
int preload_check(const char *malloc_name, int count_allocs, int slot_offset, char *err, size_t errlen);

/* --slot-offset B for a parent whose children measure: the slot preload
 * and CGOCOST_SLOT_OFFSET in this process's environment, which every
 * child inherits (the textbook loop too). 0, or 2 with a message. */
int preload_export_slot(int slot_offset, char *err, size_t errlen);

#endif
