/* plugin/sdkslot.h — where the Go plugin SDK's async request slot of one
 * plugin instance lies, found and checked, never assumed.
 *
 * The SDK (plugin-sdk-go, pkg/sdk/symbols/extract) mallocs its async slots
 * once, an array of 56-byte records indexed by the instance's handle minus
 * one, and keeps the array in a static pointer, s_async_ctx_batch. An async
 * extraction is the caller writing its slot and the worker answering in
 * it, so the cache lines the slot spans are the lines every extraction
 * moves between the two CPUs; where the array starts is whatever the
 * allocator returned (glibc and jemalloc differ by 32 bytes here).
 *
 * The pointer is a local symbol: it is read from the library file's own
 * symbol table (.symtab, which Go's linker keeps), relocated by where the
 * object is loaded. The layout is the SDK's, checked on the slot itself:
 * after an async extraction, the slot's instance field holds the handle
 * and its lock reads "waiting". Anything else is "not found", with why. */
#ifndef CGOCOST_PLUGIN_SDKSLOT_H
#define CGOCOST_PLUGIN_SDKSLOT_H

#include <stddef.h>
#include <stdint.h>

/* The SDK's slot record, as plugin-sdk-go v0.8.3 lays it out (extract.h):
 * the lock at 0, the instance at 8, the answer at 48, 56 bytes in all. */
#define SDK_SLOT_BYTES	     56u
#define SDK_SLOT_LOCK_AT     0u
#define SDK_SLOT_INSTANCE_AT 8u
#define SDK_SLOT_LOCK_UNUSED 0	  /* no async instance in this slot */
#define SDK_SLOT_LOCK_WAIT   1	  /* the worker waits for a request */
#define SDK_SLOTS	     256u /* the array's records: cgo.MaxHandle + 1 */
#define SDK_SLOTS_SYMBOL     "s_async_ctx_batch"
/* --slot-offset's: set for every process of the run, read by the placer
 * (c/preload/slot_place.c) and by the checks */
#define SDK_SLOT_OFFSET_ENV  "CGOCOST_SLOT_OFFSET"

struct sdk_slot {
	uintptr_t addr;	       /* the slot's address */
	unsigned line_bytes;   /* the L1 data cache's line (sysconf; 64 if unknown) */
	unsigned line_offset;  /* addr % line_bytes */
	unsigned lines;	       /* lines its SDK_SLOT_BYTES span */
	unsigned array_offset; /* the slot array's address % line_bytes (what --slot-offset places) */
};

/* The data object `name` in an ELF64 image of `size` bytes (a file's
 * bytes: every offset is checked against the size): its value and size
 * from the symbol table, and whether the image is position-independent
 * (ET_DYN). 0, or -1 with why. */
int elf_object_in_image(const unsigned char *img, size_t size, const char *name, uint64_t *value, uint64_t *bytes,
			int *is_dyn, char *why, size_t whylen);

/* The address a local data symbol of the ELF file `file` has in this
 * process, the object being loaded at `base` (dladdr's dli_fbase). 0, or
 * -1 with why (no such file, not ELF64, no symbol table, no such object). */
int elf_local_object(const char *file, uintptr_t base, const char *name, uintptr_t *addr, char *why, size_t whylen);

/* The slot of the instance `handle` of the library whose plugin_init is
 * `init`: found in the file that holds it, checked (call it after an
 * async extraction of that instance, while no other is under way). 0, or
 * -1 with why. */
int sdk_slot_locate(const void *init, const void *handle, struct sdk_slot *out, char *why, size_t whylen);

/* The array offset --slot-offset asked for this process (from
 * SDK_SLOT_OFFSET_ENV), or -1. */
int sdk_slot_offset_asked(void);

/* Whether --slot-offset was asked for this process and the slot (found:
 * *s, else not found for why) does not bear it out: 1 with a message in
 * msg (a failed run), else 0. */
int sdk_slot_misplaced(const struct sdk_slot *s, int found, const char *why, char *msg, size_t msglen);

/* The same from a slot array's address (for the check's own test). */
int sdk_slot_of(uintptr_t slots, const void *handle, struct sdk_slot *out, char *why, size_t whylen);

/* The async workers the SDK starts for this many callers of one library
 * (extract/async.go, getMaxWorkers): ceil(log2 GOMAXPROCS), no more than
 * the callers; none below GOMAXPROCS 2, where it calls Extract directly.
 * The rule, for what a run will spin; the probes count what ran. */
uint32_t sdk_async_workers(int gomaxprocs, uint32_t callers);

/* The SDK's async mode in effect for the instance `handle` of the library
 * whose plugin_init is `init`, read from outside (any plugin built with
 * plugin-sdk-go, probe fields or not): its slot array is found by symbol in
 * the library's own symbol table, as sdk_slot_locate does. No array (the
 * switch was off when the instance started) or the instance's slot unused:
 * 0, sync. The slot holding the instance and waiting for a request: 1,
 * async. Call it while no extraction of the instance is under way. -1 when
 * it cannot tell, with why: "stripped: no symbol table", "not built with
 * the plugin SDK for Go (...)", or a layout not the SDK's. */
int sdk_async_in_effect(const void *init, const void *handle, char *why, size_t whylen);

/* The same from a slot array's address (for its own test); the lock and
 * instance read as sdk_slot_of reads them. */
int sdk_async_of(uintptr_t slots, const void *handle, char *why, size_t whylen);

#endif
