/* plugin/symbols.c — see symbols.h: resolving a loaded library. */
#include "plugin/symbols.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *const plugin_required_symbols[6] = {
	"plugin_get_required_api_version", "plugin_get_fields",	    "plugin_init", "plugin_destroy",
	"plugin_get_last_error",	   "plugin_extract_fields",
};

/* dlsym returns void *; a function pointer is copied out of it. */
static void *sym(void *handle, const char *name)
{
	dlerror();
	return dlsym(handle, name);
}

#define RESOLVE(field, name)                                                                                           \
	do {                                                                                                           \
		void *p_ = sym(handle, name);                                                                          \
		memcpy(&s->field, &p_, sizeof(s->field));                                                              \
	} while (0)

int plugin_syms_resolve(void *handle, struct plugin_syms *s, char *missing, size_t len)
{
	memset(s, 0, sizeof(*s));
	RESOLVE(get_required_api_version, "plugin_get_required_api_version");
	RESOLVE(get_fields, "plugin_get_fields");
	RESOLVE(init, "plugin_init");
	RESOLVE(destroy, "plugin_destroy");
	RESOLVE(get_last_error, "plugin_get_last_error");
	RESOLVE(extract_fields, "plugin_extract_fields");
	RESOLVE(get_name, "plugin_get_name");
	RESOLVE(get_id, "plugin_get_id");
	RESOLVE(get_extract_event_sources, "plugin_get_extract_event_sources");
	RESOLVE(get_extract_event_types, "plugin_get_extract_event_types");
	RESOLVE(raw_noop, "cgocost_raw_noop");
	RESOLVE(go_version, "cgocost_go_version");
	RESOLVE(sdk_version, "cgocost_sdk_version");
	RESOLVE(max_handle, "cgocost_max_handle");
	RESOLVE(go_allocs, "cgocost_go_allocs");
	RESOLVE(go_alloc_bytes, "cgocost_go_alloc_bytes");
	RESOLVE(goroutines, "cgocost_goroutines");
	RESOLVE(ref_start, "cgocost_ref_start");
	{
		const void *req[6] = { (const void *)(uintptr_t)s->get_required_api_version,
				       (const void *)(uintptr_t)s->get_fields,
				       (const void *)(uintptr_t)s->init,
				       (const void *)(uintptr_t)s->destroy,
				       (const void *)(uintptr_t)s->get_last_error,
				       (const void *)(uintptr_t)s->extract_fields };
		for (int i = 0; i < 6; i++)
			if (req[i] == NULL) {
				snprintf(missing, len, "%s", plugin_required_symbols[i]);
				return -1;
			}
	}
	return 0;
}
