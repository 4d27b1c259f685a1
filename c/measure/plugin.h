/* measure/plugin.h — the Go mock plugin as the C driver sees it: the SDK's plugin API
 * symbols, the raw cgo exports, and what the library says about itself. */
#ifndef CGOCOST_MEASURE_PLUGIN_H
#define CGOCOST_MEASURE_PLUGIN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <plugin_api.h> /* from the plugin SDK's module directory */

/* Plugin API symbols, exported by the SDK inside the Go library. */
ss_plugin_t *plugin_init(const ss_plugin_init_input *in, ss_plugin_rc *rc);
void plugin_destroy(ss_plugin_t *s);
ss_plugin_rc plugin_extract_fields(ss_plugin_t *s, const ss_plugin_event_input *evt,
				   const ss_plugin_field_extract_input *in);
const char *plugin_get_last_error(ss_plugin_t *s);
const char *plugin_get_fields(void);

/* Raw cgo exports of plugin-mock/main.go (no SDK code on their path). */
void cgocost_raw_noop(void);
char *cgocost_go_version(void);
char *cgocost_sdk_version(void);
int cgocost_max_handle(void);
uint64_t cgocost_go_allocs(void);
uint64_t cgocost_go_alloc_bytes(void);
int cgocost_goroutines(char *buf, int n);

/* What the linked plugin library is, read from the process itself. */
struct plugin_info {
	const char *lib_kind;	 /* "archive" or "shared", from where plugin_init lives */
	char lib_path[PATH_MAX]; /* the file that holds plugin_init */
	const char *go_version;	 /* runtime.Version() of the plugin */
	const char *sdk_version; /* plugin SDK module version from the build info */
	int max_handle;		 /* the SDK's cgo handle limit: instances alive at once */
};

int plugin_info_read(struct plugin_info *info);

#endif
