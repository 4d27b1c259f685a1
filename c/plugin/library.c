/* plugin/library.c — see library.h. */
#include "plugin/library.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const probe_field_names[PROBE_SLOTS] = {
	"mock.calls", "mock.tid",      "mock.cpu",	 "mock.gomaxprocs",
	"mock.async", "mock.goallocs", "mock.hostcalls", "mock.goroutine",
};

const char *plugin_api_header_version(void)
{
	return PLUGIN_API_VERSION_STR;
}

static int version_parse(const char *s, unsigned v[3])
{
	char tail;
	return s && sscanf(s, "%u.%u.%u%c", &v[0], &v[1], &v[2], &tail) == 3 ? 0 : -1;
}

int api_version_check(const char *required, char *err, size_t errlen)
{
	unsigned want[3], have[3] = { PLUGIN_API_VERSION_MAJOR, PLUGIN_API_VERSION_MINOR, PLUGIN_API_VERSION_PATCH };

	if (required == NULL || version_parse(required, want) != 0) {
		snprintf(
			err, errlen,
			"plugin_get_required_api_version returned %s%s%s, not a version: cgocost is built with plugin API %s",
			required ? "'" : "", required ? required : "nothing", required ? "'" : "",
			PLUGIN_API_VERSION_STR);
		return -1;
	}
	if (want[0] != have[0] || want[1] > have[1] || (want[1] == have[1] && want[2] > have[2])) {
		snprintf(err, errlen, "the plugin requires plugin API %s; cgocost is built with plugin API %s",
			 required, PLUGIN_API_VERSION_STR);
		return -1;
	}
	return 0;
}

/* "build/libmock-b.so" -> "libmock-b". */
static void label_of(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && strcmp(base + n - 3, ".so") == 0)
		n -= 3;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* The file that defines the object at addr; -1 if none. */
static int file_of(const void *addr, char *buf, size_t len)
{
	Dl_info dl;
	char *real;

	if (addr == NULL || dladdr(addr, &dl) == 0 || dl.dli_fname == NULL)
		return -1;
	real = realpath(dl.dli_fname, NULL);
	if (real == NULL)
		real = realpath("/proc/self/exe", NULL); /* the main program, under its argv[0] */
	if (real == NULL)
		return -1;
	snprintf(buf, len, "%s", real);
	free(real);
	return 0;
}

/* Fields, identity, probes, versions and limits: the same for both kinds. */
static int library_read(struct plugin_lib *lib, char *err, size_t errlen)
{
	const char *req = lib->syms.get_required_api_version();
	char msg[600];

	if (api_version_check(req, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "--plugin %s: %s", lib->path, msg);
		return -1;
	}
	snprintf(lib->api_version, sizeof(lib->api_version), "%s", req);
	if (fieldlist_parse(lib->syms.get_fields(), &lib->fields, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "--plugin %s: %s", lib->path, msg);
		return -1;
	}
	if (lib->syms.get_name && lib->syms.get_name())
		snprintf(lib->name, sizeof(lib->name), "%s", lib->syms.get_name());
	for (int i = 0; i < PROBE_SLOTS; i++)
		lib->probe_ids[i] = fieldlist_find(&lib->fields, probe_field_names[i]);
	lib->cgocost_config = lib->probe_ids[PROBE_CALLS] >= 0;
	if (lib->syms.go_version)
		snprintf(lib->go_version, sizeof(lib->go_version), "%s", lib->syms.go_version());
	if (lib->syms.sdk_version)
		snprintf(lib->sdk_version, sizeof(lib->sdk_version), "%s", lib->syms.sdk_version());
	lib->max_from_plugin = lib->syms.max_handle != NULL;
	lib->max_instances = lib->syms.max_handle ? lib->syms.max_handle() : LIB_DEFAULT_MAX_INSTANCES;
	file_of((const void *)(uintptr_t)lib->syms.init, lib->file, sizeof(lib->file));
	return 0;
}

int library_open(struct plugin_lib *lib, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char missing[64];
	void *topofstack;

	memset(lib, 0, sizeof(*lib));
	snprintf(lib->path, sizeof(lib->path), "%s", path);
	label_of(path, lib->label, sizeof(lib->label));
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "--plugin %s: %s", path, errno == ENOENT ? "no such file" : strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--plugin %s: not a regular file (%s)", path,
			 S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
		return -1;
	}
	/* a path without a slash would make dlopen search the library path */
	lib->handle = strchr(path, '/') ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (lib->handle == NULL) {
		char rel[PATH_MAX + 2];
		if (strchr(path, '/') == NULL && snprintf(rel, sizeof(rel), "./%s", path) < (int)sizeof(rel))
			lib->handle = dlopen(rel, RTLD_NOW | RTLD_LOCAL);
	}
	if (lib->handle == NULL) {
		const char *why = dlerror();
		snprintf(err, errlen, "--plugin %s: not a loadable shared library (%s)", path,
			 why ? why : "dlopen failed");
		return -1;
	}
	if (plugin_syms_resolve(lib->handle, &lib->syms, missing, sizeof(missing)) != 0) {
		snprintf(err, errlen, "--plugin %s: not a plugin: it lacks the required symbol %s", path, missing);
		return -1;
	}
	if (library_read(lib, err, errlen) != 0)
		return -1;
	/* a Go runtime, whoever's: cgo's own symbol, found in this library */
	topofstack = dlsym(lib->handle, "_cgo_topofstack");
	if (topofstack)
		file_of(topofstack, lib->runtime_file, sizeof(lib->runtime_file));
	return 0;
}

int library_open_builtin(struct plugin_lib *lib, char *err, size_t errlen)
{
	memset(lib, 0, sizeof(*lib));
	lib->builtin = 1;
	if (plugin_syms_builtin(&lib->syms) != 0) {
		snprintf(err, errlen, "this executable has no built-in plugin: name one with --plugin PATH");
		return -1;
	}
	file_of((const void *)(uintptr_t)lib->syms.init, lib->path, sizeof(lib->path));
	label_of(lib->path, lib->label, sizeof(lib->label));
	if (library_read(lib, err, errlen) != 0)
		return -1;
	if (lib->syms.go_version)
		file_of((const void *)(uintptr_t)lib->syms.go_version, lib->runtime_file, sizeof(lib->runtime_file));
	return 0;
}

void library_close(struct plugin_lib *lib)
{
	fieldlist_free(&lib->fields);
}

int go_runtimes_count(const struct plugin_lib *builtin, const struct plugin_lib *libs, int n)
{
	const char *seen[65];
	int count = 0;

	for (int i = -1; i < n && count < 64; i++) {
		const struct plugin_lib *l = i < 0 ? builtin : &libs[i];
		int dup = 0;
		if (l == NULL || l->runtime_file[0] == '\0')
			continue;
		for (int k = 0; k < count; k++)
			dup |= strcmp(seen[k], l->runtime_file) == 0;
		if (!dup)
			seen[count++] = l->runtime_file;
	}
	return count;
}
