/* cli/usage.c — the usage text (--help), made from the option table. */
#include "cli/usage.h"

#include <string.h>

static const char *const group_titles[] = { NULL, "Samples, comparisons and verdicts:", "Objects and allocators:",
					    "Plugin libraries (plugin events only; syscall events are out of scope):" };

/* "-a, --async", "-n <number>", "    --work <w>". */
void option_label(const struct optdef *d, char *buf, size_t len)
{
	const char *arg = d->arg ? d->arg : "";
	const char *sp = d->arg ? " " : "";

	if (d->shortname && d->name)
		snprintf(buf, len, "-%c, --%s%s%s", d->shortname, d->name, sp, arg);
	else if (d->shortname)
		snprintf(buf, len, "-%c%s%s", d->shortname, sp, arg);
	else
		snprintf(buf, len, "    --%s%s%s", d->name, sp, arg);
}

void options_usage(const char *prog, FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"Measures what a C host pays to call plugin_extract_fields of a Go plugin\n"
		"built with the Falco plugin SDK for Go, sync or async, or of any plugin\n"
		"library given with --plugin (field extraction from plugin events; syscall\n"
		"events are out of scope).\n",
		prog);
	for (int g = GROUP_RUN; g <= GROUP_PLUGINS; g++) {
		fprintf(out, "\n%s%s", group_titles[g] ? group_titles[g] : "", group_titles[g] ? "\n" : "");
		for (size_t i = 0; i < OPT_COUNT; i++) {
			const struct optdef *d = &options_table[i];
			char label[64];
			const char *h = d->help, *nl;
			if (d->group != g || h == NULL)
				continue;
			option_label(d, label, sizeof(label));
			if (strlen(label) <= 18)
				fprintf(out, "  %-18s  ", label);
			else
				fprintf(out, "  %s  ", label);
			for (; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
				fprintf(out, "%.*s\n%22s", (int)(nl - h), h, "");
			fprintf(out, "%s\n", h);
		}
	}
	fprintf(out, "\nOutput: one line per plugin on stdout,\n"
		     "  plugin 1: 251.21 ns/extraction (elapsed time 25121098ns, extractions 100000)\n"
		     "then '#' lines: the aggregate, the machine, the mode in effect (verified),\n"
		     "cold costs, batches, stalls and floors. Warnings go to stderr.\n"
		     "--format json prints the document (docs/schema.json) with the run's command\n"
		     "and its six decisions; --format markdown the same decisions first, then the\n"
		     "machine, the command, the cells, the ratios and the verdicts, as tables.\n"
		     "Exit status: 0 success (no regression), 1 a detected performance regression,\n"
		     "2 bad input, 3 a failed run (also a run whose --export could not be written,\n"
		     "even when it found a regression: its data is lost).\n"
		     "--export html runs cgocost-report beside bench, or $CGOCOST_REPORT, which\n"
		     "gets the JSON on stdin and may take $CGOCOST_REPORT_TIMEOUT seconds (60).\n");
}
