/* report/text_fit.c — --fit: each saved --compare document's round trip and
 * async in round trips, one row each, then per library the line through
 * every document's generations, or why there is none. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/text.h"

/* "260.10 ns, 2.650 [2.500, 2.800]"; "-" when the document lacks the
 * library. */
static const char *lib_cell(const struct roundtrip_rec *rt, const char *lib, char *buf, size_t len)
{
	for (size_t k = 0; k < rt->nlibs; k++)
		if (strcmp(rt->libs[k].lib, lib) == 0) {
			if (isfinite(rt->libs[k].rts_low))
				snprintf(buf, len, "%.2f ns, %.3f [%.3f, %.3f]", rt->libs[k].async_ns, rt->libs[k].rts,
					 rt->libs[k].rts_low, rt->libs[k].rts_high);
			else
				snprintf(buf, len, "%.2f ns, %.3f (no interval)", rt->libs[k].async_ns,
					 rt->libs[k].rts);
			return buf;
		}
	snprintf(buf, len, "-");
	return buf;
}

void report_fit_text(FILE *out, const char *const *files, const struct roundtrip_rec *const *rts, int ndocs,
		     const struct fit_line *lines, int nlines)
{
	char span[64], a[64], s[64];

	fprintf(out,
		"# fit: async against the cache-line round trip over %d document%s (paired --compare runs), each "
		"generation a point; per document its round trip (median [smallest, largest generation]) and per "
		"library async and async in round trips [95%% interval]\n",
		ndocs, ndocs == 1 ? "" : "s");
	fprintf(out, "%-32s %5s  %-28s %-36s %s\n", "document", "gens", "round trip ns", "archive: async, round trips",
		"shared: async, round trips");
	for (int i = 0; i < ndocs; i++) {
		snprintf(span, sizeof(span), "%.2f [%.2f, %.2f]", rts[i]->ns, rts[i]->ns_min, rts[i]->ns_max);
		fprintf(out, "%-32s %5zu  %-28s %-36s %s\n", files[i], rts[i]->ngen, span,
			lib_cell(rts[i], "archive", a, sizeof(a)), lib_cell(rts[i], "shared", s, sizeof(s)));
	}
	for (int k = 0; k < nlines; k++) {
		const struct fit_line *f = &lines[k];
		if (!f->line.fitted) {
			fprintf(out, "# lib=%s: no line through %zu generations: %s\n", f->line.lib, f->points,
				f->line.why);
			continue;
		}
		fprintf(out,
			"# lib=%s: async = %.3f [%.3f, %.3f] x round trip %+.1f ns (Theil-Sen through %zu generations, "
			"the slope's 95%% interval from Kendall's tau; round trip %.1f to %.1f ns)\n",
			f->line.lib, f->line.slope, f->line.slope_low, f->line.slope_high, f->line.intercept_ns,
			f->points, f->rt_min, f->rt_max);
		if (isfinite(f->sync_ns) && f->line.slope > 0 && f->sync_ns > f->line.intercept_ns)
			fprintf(out,
				"# lib=%s: by the line, async costs what sync does (%.1f ns, the documents' median) at a "
				"round trip of %.1f ns; below it async is cheaper\n",
				f->line.lib, f->sync_ns, (f->sync_ns - f->line.intercept_ns) / f->line.slope);
		else if (isfinite(f->sync_ns) && f->line.slope > 0)
			fprintf(out,
				"# lib=%s: by the line, async costs more than sync (%.1f ns, the documents' median) at any "
				"round trip: its intercept alone is %.1f ns\n",
				f->line.lib, f->sync_ns, f->line.intercept_ns);
	}
}
