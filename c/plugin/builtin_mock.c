/* plugin/builtin_mock.c — the built-in plugin of bench and bench-shared:
 * the Go mock linked in (c-archive or c-shared), its symbols taken by
 * address. Linked only into those executables and the unit tests; bench-host
 * links builtin_none.c instead. */
#include "plugin/symbols.h"

#include <string.h>

/* Plugin API symbols, exported by the SDK inside the Go library. */
const char *plugin_get_required_api_version(void);
const char *plugin_get_fields(void);
ss_plugin_t *plugin_init(const ss_plugin_init_input *in, ss_plugin_rc *rc);
void plugin_destroy(ss_plugin_t *s);
const char *plugin_get_last_error(ss_plugin_t *s);
ss_plugin_rc plugin_extract_fields(ss_plugin_t *s, const ss_plugin_event_input *evt,
				   const ss_plugin_field_extract_input *in);
const char *plugin_get_name(void);
uint32_t plugin_get_id(void);
const char *plugin_get_extract_event_sources(void);
uint16_t *plugin_get_extract_event_types(uint32_t *numtypes, ss_plugin_t *s);

/* Raw cgo exports of plugin-mock/main.go (no SDK code on their path). */
void cgocost_raw_noop(void);
char *cgocost_go_version(void);
char *cgocost_sdk_version(void);
int cgocost_max_handle(void);
uint64_t cgocost_go_allocs(void);
uint64_t cgocost_go_alloc_bytes(void);
int cgocost_goroutines(char *buf, int n);
void cgocost_ref_start(struct ref_handoff *h);

int plugin_syms_builtin(struct plugin_syms *s)
{
	memset(s, 0, sizeof(*s));
	s->get_required_api_version = plugin_get_required_api_version;
	s->get_fields = plugin_get_fields;
	s->init = plugin_init;
	s->destroy = plugin_destroy;
	s->get_last_error = plugin_get_last_error;
	s->extract_fields = plugin_extract_fields;
	s->get_name = plugin_get_name;
	s->get_id = plugin_get_id;
	s->get_extract_event_sources = plugin_get_extract_event_sources;
	s->get_extract_event_types = plugin_get_extract_event_types;
	s->raw_noop = cgocost_raw_noop;
	s->go_version = cgocost_go_version;
	s->sdk_version = cgocost_sdk_version;
	s->max_handle = cgocost_max_handle;
	s->go_allocs = cgocost_go_allocs;
	s->go_alloc_bytes = cgocost_go_alloc_bytes;
	s->goroutines = cgocost_goroutines;
	s->ref_start = cgocost_ref_start;
	return 0;
}
