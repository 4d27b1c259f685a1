/* report/text_mode.c — the mode line of report/text.h: the mode asked, the
 * mode in effect and how it was verified (the plugin's probe fields, or
 * the SDK's async state read from outside), or why it could not be, with
 * what the threads' CPU suggests then. */
#include "report/text.h"

#include <math.h>
#include <string.h>

/* Other threads than the callers busier than this share of the timed
 * window: "probably an extraction worker spinning". */
#define WORKER_BUSY_SHARE 0.5

static const char *how_verified(const struct cell_rec *c, const char *effect)
{
	int async = strcmp(effect, "async") == 0;

	if (strcmp(c->verified_by, "sdk-state") == 0)
		return async ? "the SDK's async slot of each instance waits for requests"
			     : "the SDK's async state of each instance is off";
	return async ? "Extract ran on another thread than the caller's" : "Extract ran on the calling thread";
}

/* A plugin whose mode cannot be read: other threads than the callers busy
 * through most of the timed window are probably its own worker spinning. */
static void spinning_line(FILE *out, const struct launch_rec *l)
{
	double busy;

	if (l->wall_ns == 0 || isnan(l->other_cpu_ns_per_extraction))
		return;
	busy = l->other_cpu_ns_per_extraction * (double)launch_requests(l) / (double)l->wall_ns;
	if (busy >= WORKER_BUSY_SHARE)
		fprintf(out,
			"# mode: probably an extraction worker spinning: threads other than the callers were busy %.0f%% of the timed window (%.2f cpu-ns/extraction)\n",
			100.0 * busy, l->other_cpu_ns_per_extraction);
}

void report_mode_text(FILE *out, const struct cell_rec *c, const struct launch_rec *l)
{
	const char *effect = l->mode_in_effect;

	if (!c->mode_verified || strcmp(effect, "unknown") == 0) {
		if (c->unverifiable[0] && strstr(c->unverifiable, "stripped") != NULL)
			fprintf(out, "# mode: %s requested; mode in effect: not verifiable (%s)\n", c->requested,
				c->unverifiable);
		else
			fprintf(out,
				"# mode: %s requested; mode in effect: not verifiable for this plugin (it exposes no cgocost probe fields%s%s)\n",
				c->requested, c->unverifiable[0] ? "; " : "", c->unverifiable);
		spinning_line(out, l);
	} else if (strcmp(effect, "mixed") == 0)
		fprintf(out, "# mode: %s requested, in effect per plugin (verified) below\n", c->requested);
	else if (c->by_plugin_config)
		fprintf(out,
			"# mode: set by the plugin's own configuration (--plugin-config), %s in effect (verified: %s)\n",
			effect, how_verified(c, effect));
	else
		fprintf(out, "# mode: %s requested, %s in effect (verified: %s)\n", c->requested, effect,
			how_verified(c, effect));
	if (c->reason[0])
		fprintf(out, "# async not in effect: %s\n", c->reason);
}
