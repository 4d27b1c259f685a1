/* report/text_plugins.c — the plugin-library lines of report/text.h: the
 * libraries of a launch with their load costs, the Go runtimes of the
 * process, and --repeat-load's outcomes. */
#include "report/text.h"

#include <string.h>

#include "report/format.h"

static void library_line(FILE *out, const char *prefix, size_t i, const struct library_rec *lib)
{
	char maxs[64];

	snprintf(maxs, sizeof(maxs), "-p limit %d%s", lib->max_instances,
		 lib->max_from_plugin ? "" : " (cgocost's cap: the plugin states none)");
	fprintf(out, "%slibrary %zu: %s (%s), %s, plugin API %s, %u fields, plugin id %u, event source %s, %s%s\n",
		prefix, i + 1, lib->path, lib->role,
		lib->go_runtime ? (lib->go_version[0] ? lib->go_version : "a Go runtime") : "no Go runtime of its own",
		lib->api_version, lib->fields_declared, lib->plugin_id, lib->event_source, maxs,
		lib->probe_fields ? ", cgocost probe fields" : "");
	if (lib->has_load)
		fprintf(out,
			"%slibrary %zu: load %.3f ms (dlopen to the first successful extraction), RSS %lld -> %lld kB (%+lld), OS threads %lld -> %lld (%+lld)\n",
			prefix, i + 1, (double)lib->load_ns / 1e6, (long long)lib->rss_before_kb,
			(long long)lib->rss_after_kb, (long long)(lib->rss_after_kb - lib->rss_before_kb),
			(long long)lib->threads_before, (long long)lib->threads_after,
			(long long)(lib->threads_after - lib->threads_before));
	if (strcmp(lib->role, "busy") == 0)
		fprintf(out, "%slibrary %zu: %llu extractions on its own thread while the callers were timed\n", prefix,
			i + 1, (unsigned long long)lib->extractions);
}

void report_libraries_text(FILE *out, const char *prefix, const struct launch_rec *l)
{
	if (l->go_runtimes >= 0)
		fprintf(out, "%sgo runtimes in this process: %d\n", prefix, l->go_runtimes);
	for (size_t i = 0; i < l->nlibraries; i++)
		library_line(out, prefix, i, &l->libraries[i]);
}

void report_repeat_text(FILE *out, const struct doc *d)
{
	const struct repeat_rec *r = &d->repeat;

	fprintf(out,
		"repeat-load: %u loads in fresh processes: %u finished, %u crashed, %u panicked, %u hung, %u failed\n",
		r->loads, r->ok, r->crashed, r->panicked, r->hung, r->failed);
	if (r->crash[0])
		fprintf(out, "# first crash: %s\n", r->crash);
	if (r->panic[0])
		fprintf(out, "# first panic: %s\n", r->panic);
	if (r->hang[0])
		fprintf(out, "# first hang: %s\n", r->hang);
	if (r->failure[0])
		fprintf(out, "# first failure: %s\n", r->failure);
	if (r->go_runtimes >= 0)
		fprintf(out, "# go runtimes in each process: %d\n", r->go_runtimes);
	if (r->nlibraries)
		fprintf(out, "# libraries (load time: median over the finished loads; RSS and threads: the first):\n");
	for (size_t i = 0; i < r->nlibraries; i++)
		library_line(out, "#   ", i, &r->libraries[i]);
}
