/* plugin/goruntime.h — the Go runtimes this process holds that cgocost can
 * ask about (through cgocost's exports of the mock): their allocations, the
 * raw C->Go no-op of the floors, and goroutine stacks for the watchdog. A
 * plugin that exports nothing of cgocost's is counted by library.c but
 * cannot be asked. */
#ifndef CGOCOST_PLUGIN_GORUNTIME_H
#define CGOCOST_PLUGIN_GORUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "plugin/symbols.h"

/* Remembers a library's exports (once per runtime, by function address). */
void goruntime_register(const struct plugin_syms *s);
/* Heap objects and bytes allocated since start, summed over the runtimes. */
void goruntime_allocs(uint64_t *objects, uint64_t *bytes);
/* The raw C->Go no-op of the first runtime, or NULL (no Go in reach). */
void (*goruntime_raw_noop(void))(void);
/* The reference handoff's worker starter of the first runtime, or NULL. */
void (*goruntime_ref_start(void))(struct ref_handoff *);
/* The goroutine stacks of the first runtime into buf; bytes written, or 0. */
int goruntime_stacks(char *buf, int n);
/* 1 when a runtime in reach can dump its goroutines (goruntime_stacks). */
int goruntime_can_dump(void);

#endif
