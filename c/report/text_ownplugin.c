/* report/text_ownplugin.c — your plugin's --compare (report/text.h): the
 * two configurations' cells, the mode each ran in as verified, and the
 * async decision for this plugin. */
#include "report/text.h"

#include <math.h>
#include <string.h>

static const char *verified_how(const struct cell_rec *c)
{
	if (!c->mode_verified)
		return c->unverifiable[0] ? c->unverifiable : "not verifiable";
	return strcmp(c->verified_by, "sdk-state") == 0 ? "verified: the SDK's async state of the instance"
							: "verified: the plugin's probe fields";
}

void report_plugin_compare_text(FILE *out, const struct doc *d)
{
	const struct decision_rec *r = d->ndecisions > DECISION_ASYNC ? &d->decisions[DECISION_ASYNC] : NULL;

	if (d->has_paired)
		report_paired_text(out, d);
	else
		report_compare_text(out, d);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		fprintf(out, "# cell %s: the plugin's %s configuration, %s in effect (%s)\n", c->name,
			i == 0 ? "sync" : "async", c->in_effect, verified_how(c));
	}
	if (r == NULL || !r->measured) {
		fprintf(out, "# decision: async for this plugin: not measured\n");
		return;
	}
	fprintf(out, "# decision: async for this plugin (%s): %s", r->figure[0] ? r->figure : "its async/sync",
		r->answer);
	if (isfinite(r->estimate))
		fprintf(out, ", async/sync %.3f", r->estimate);
	if (isfinite(r->low) && isfinite(r->high))
		fprintf(out, " [%.3f, %.3f]", r->low, r->high);
	fprintf(out, "; flips when: %s\n", r->flips_when);
}
