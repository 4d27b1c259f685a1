/* plugin/library.h — one plugin library, built in or loaded with --plugin
 * (dlopen RTLD_NOW | RTLD_LOCAL): its symbol table, API version, declared
 * fields, identity, whether it carries a Go runtime, and what cgocost's
 * probe fields it exposes. Everything that is wrong with a library is bad
 * input, named, found here before anything is measured. */
#ifndef CGOCOST_PLUGIN_LIBRARY_H
#define CGOCOST_PLUGIN_LIBRARY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "plugin/fieldlist.h"
#include "plugin/symbols.h"

/* The -p limit of a plugin that states none (only cgocost's mock exports
 * cgo.MaxHandle): the Go SDK's own handle limit, documented in
 * docs/plugins.md. */
#define LIB_DEFAULT_MAX_INSTANCES 255

/* cgocost's probe fields, by name (plugin-mock/mock, plugin-c): which OS
 * thread and CPU ran the extraction, the extractions served, and for a Go
 * plugin GOMAXPROCS, the SDK's async switch and the Go heap allocations. */
enum probe_slot {
	PROBE_CALLS = 0,
	PROBE_TID,
	PROBE_CPU,
	PROBE_GOMAXPROCS,
	PROBE_ASYNC,
	PROBE_GOALLOCS,
	PROBE_HOSTCALLS, /* plugin_extract_fields calls served; PROBE_NOT_COUNTED: not counted */
	PROBE_GOROUTINE, /* the goroutine that ran Extract (the mock's runtime number) */
	PROBE_SLOTS
};
#define PROBE_NOT_COUNTED UINT64_MAX
extern const char *const probe_field_names[PROBE_SLOTS];

struct plugin_lib {
	char path[PATH_MAX]; /* as given to --plugin, or the built-in's file */
	char file[PATH_MAX]; /* the file that holds plugin_init */
	char label[64];	     /* its file name without ".so": names cells */
	int builtin;
	void *handle; /* dlopen's; NULL for the built-in */
	struct plugin_syms syms;
	struct field_list fields;
	char api_version[32];		      /* plugin_get_required_api_version */
	char name[64];			      /* plugin_get_name, or "" */
	int probe_ids[PROBE_SLOTS];	      /* -1: not declared */
	int cgocost_config;		      /* declares mock.calls: reads cgocost's JSON init config */
	char go_version[64], sdk_version[64]; /* "" when the plugin does not say */
	char runtime_file[PATH_MAX];	      /* the file holding its Go runtime; "" none */
	int max_instances;		      /* -p limit */
	int max_from_plugin;		      /* the plugin stated it (else the default cap) */
};

/* The header's API version, "3.11.0". */
const char *plugin_api_header_version(void);

/* Checks a plugin's required API version against the header's (same major,
 * minor and patch not newer). 0, or -1 with a message naming both. */
int api_version_check(const char *required, char *err, size_t errlen);

/* dlopen path and read it. 0, or -1 with a message (bad input). */
int library_open(struct plugin_lib *lib, const char *path, char *err, size_t errlen);
/* The built-in plugin; -1 when this executable has none (bench-host). */
int library_open_builtin(struct plugin_lib *lib, char *err, size_t errlen);
/* Frees what the library record owns; a loaded library stays loaded (a Go
 * runtime cannot be unloaded). */
void library_close(struct plugin_lib *lib);

/* The distinct Go runtimes the process holds: the built-in's (when it has
 * one) and those of the given libraries, counted by file. */
int go_runtimes_count(const struct plugin_lib *builtin, const struct plugin_lib *libs, int n);

#endif
