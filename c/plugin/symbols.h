/* plugin/symbols.h — the plugin API as a table of function pointers, one
 * table per library: the built-in mock (linked into bench and bench-shared)
 * and a library loaded with --plugin fill the same table, and the driver
 * calls a plugin only through it. */
#ifndef CGOCOST_PLUGIN_SYMBOLS_H
#define CGOCOST_PLUGIN_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include <plugin_api.h> /* from the plugin SDK's module directory */

struct ref_handoff; /* timing/refhandoff.h */

struct plugin_syms {
	/* required for field extraction */
	const char *(*get_required_api_version)(void);
	const char *(*get_fields)(void);
	ss_plugin_t *(*init)(const ss_plugin_init_input *in, ss_plugin_rc *rc);
	void (*destroy)(ss_plugin_t *s);
	const char *(*get_last_error)(ss_plugin_t *s);
	ss_plugin_rc (*extract_fields)(ss_plugin_t *s, const ss_plugin_event_input *evt,
				       const ss_plugin_field_extract_input *in);
	/* optional in the plugin API */
	const char *(*get_name)(void);
	uint32_t (*get_id)(void);
	const char *(*get_extract_event_sources)(void);
	uint16_t *(*get_extract_event_types)(uint32_t *numtypes, ss_plugin_t *s);
	/* cgocost's own exports (plugin-mock/main.go); NULL for other plugins */
	void (*raw_noop)(void);
	char *(*go_version)(void);
	char *(*sdk_version)(void);
	int (*max_handle)(void);
	uint64_t (*go_allocs)(void);
	uint64_t (*go_alloc_bytes)(void);
	int (*goroutines)(char *buf, int n);
	void (*ref_start)(struct ref_handoff *h); /* the reference handoff's worker */
};

/* The symbols a library must define for field extraction, in the table's
 * order ("plugin_get_required_api_version", ...). */
extern const char *const plugin_required_symbols[6];

/* Resolves the table from a dlopen handle. 0, or -1 with the name of the
 * first required symbol the library lacks in missing. */
int plugin_syms_resolve(void *handle, struct plugin_syms *s, char *missing, size_t len);

/* The built-in plugin: the mock linked into this executable (bench,
 * bench-shared), or -1 when there is none (bench-host). */
int plugin_syms_builtin(struct plugin_syms *s);

#endif
