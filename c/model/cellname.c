/* model/cellname.c — see cellname.h. */
#include "model/cellname.h"

#include <stdio.h>
#include <string.h>

void cell_name(char *buf, size_t len, const char *lib, int async_requested, const char *in_effect, const char *scenario,
	       const char *work, unsigned plugins, unsigned fields, const char *malloc_name)
{
	const char *mode = in_effect;
	char scen[40] = "", flds[32] = "", alloc[40] = "";

	if (async_requested && strcmp(in_effect, "sync") == 0)
		mode = "sync-fallback";
	if (scenario && strcmp(scenario, "extract") != 0)
		snprintf(scen, sizeof(scen), "/scenario=%s", scenario);
	if (fields != 1)
		snprintf(flds, sizeof(flds), "/fields=%u", fields);
	if (malloc_name)
		snprintf(alloc, sizeof(alloc), "/malloc=%s", malloc_name);
	snprintf(buf, len, "lib=%s/mode=%s%s/work=%s%s/p=%u%s", lib, mode, scen, work, flds, plugins, alloc);
}

void cell_name_with(char *buf, size_t len, const char *role, const char *label)
{
	size_t used = strlen(buf);
	snprintf(buf + used, len > used ? len - used : 0, "/with=%s:%s", role, label);
}
