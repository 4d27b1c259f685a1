/* report/text_perevent.c — --per-event K: what one event of K fields cost
 * the host, as it asked for them (--host-calls), in the mode in effect. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/text.h"
#include "stats/stats.h"

void report_per_event_text(FILE *out, const struct cell_rec *c, const struct launch_rec *l)
{
	const struct per_event_rec *p = &l->per_event;
	int batched = strcmp(p->host_calls, "batched") == 0;

	if (!l->has_per_event)
		return;
	if (batched)
		fprintf(out, "# per event: %u fields in one call of %u (batched)", p->fields, p->fields);
	else
		fprintf(out,
			"# per event: %u fields as %u calls of one field (per-field, as libsinsp's filter check asks)",
			p->fields, p->fields);
	if (isnan(p->calls_per_event))
		fprintf(out, "; calls not counted by the plugin\n");
	else
		fprintf(out, "; %.2f plugin_extract_fields calls per event, counted by the plugin\n",
			p->calls_per_event);
	fprintf(out, "# per event: %s, %.2f ns per event, %.2f ns per field\n", c->in_effect, p->ns_per_event,
		p->ns_per_field);
}

/* The value of key= in a cell name ("lib=archive/mode=sync/..."), into buf. */
static const char *name_part(const char *name, const char *key, char *buf, size_t len)
{
	const char *at = strstr(name, key);
	size_t n;

	buf[0] = '\0';
	if (at == NULL)
		return buf;
	at += strlen(key);
	n = strcspn(at, "/");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), at);
	return buf;
}

void report_per_event_paired_text(FILE *out, const struct doc *d)
{
	const struct paired_rec *p = &d->paired;
	uint32_t k = d->options.per_event ? d->options.per_event : 1;
	char a[32], b[32], lib[64], mode[16], hc[16];

	report_paired_text(out, d);
	if (!d->has_paired)
		return;
	fprintf(out, "\nper event of %u fields (medians over blocks):\n%-12s %-6s %-10s %12s %12s\n", k, "library",
		"mode", "host calls", "ns/event", "ns/field");
	for (size_t i = 0; i < p->ncells; i++) {
		const struct pair_cell_rec *c = &p->cells[i];
		double med = c->nblocks ? stats_median(c->block_ns, c->nblocks) : NAN;
		fprintf(out, "%-12s %-6s %-10s %12s %12s\n", name_part(c->name, "lib=", lib, sizeof(lib)),
			name_part(c->name, "mode=", mode, sizeof(mode)),
			name_part(c->name, "host-calls=", hc, sizeof(hc)), fmt_ns(a, sizeof(a), med),
			fmt_ns(b, sizeof(b), med / k));
	}
	for (size_t r = 0; r < p->nratios; r++) {
		const struct pair_ratio_rec *x = &p->ratios[r];
		if (strncmp(x->name, "batched/per-field", 17) != 0 || !isfinite(x->estimate))
			continue;
		fprintf(out, "%s: %.4f [%.4f, %.4f]: one call of %u fields costs %.1f%% %s than %u calls of one\n",
			x->name, x->estimate, x->low, x->high, k, fabs(1.0 - x->estimate) * 100.0,
			x->estimate <= 1.0 ? "less" : "more", k);
	}
}
