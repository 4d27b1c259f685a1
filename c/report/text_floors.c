/* report/text_floors.c — the floors in the text reports: each figure with
 * its spread (the fastest and slowest batch beside the median batch), the
 * reference handoff's wake-up count, the attempts the checks rejected
 * (timing/floorcheck.h), and the readings built on figures that passed. */
#include <math.h>
#include <stdio.h>

#include "report/format.h"
#include "report/text.h"

/* "   [1.53 ns .. 1.60 ns]", or "" without a spread. */
static const char *spread_text(char *buf, size_t len, const struct floors_rec *f, enum floor_kind k)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (f->has_spread && !isnan(f->spread[k].min_ns))
		snprintf(buf, len, "   [%s .. %s]", fmt_ns(lo, sizeof(lo), f->spread[k].min_ns),
			 fmt_ns(hi, sizeof(hi), f->spread[k].max_ns));
	return buf;
}

static void checks_lines(FILE *out, const char *prefix, const struct floors_rec *f, int launch)
{

	/* a batch is dropped at its first wake-up, or at its end with a
	 * thread off its CPU (timing/refhandoff.h) */
	if (f->ref_wakeups >= 0)
		fprintf(out,
			"%s  its timed batches: %lld dropped and measured again (%lld at a futex wake-up of the worker, %lld with a thread off its CPU); the batches of the figures had neither\n",
			prefix, (long long)f->ref_dropped_batches, (long long)f->ref_wakeups,
			(long long)(f->ref_dropped_batches > f->ref_wakeups ? f->ref_dropped_batches - f->ref_wakeups
									    : 0));
	if (f->handoff_dropped_batches > 0)
		fprintf(out,
			"%s  the round trip's timed batches: %lld dropped and measured again, one of its two threads off its CPU (timing/roundtrip.h); the batches of the figure lost none\n",
			prefix, (long long)f->handoff_dropped_batches);
	if (!launch) {
		if (f->nrejected)
			fprintf(out,
				"%s  %u attempts over the launches were rejected by the checks and measured again\n",
				prefix, f->nrejected);
		return;
	}
	for (uint32_t i = 0; i < f->nrejected && i < FLOOR_REJECTS_MAX; i++) {
		const struct floor_reject *r = &f->rejected[i];
		fprintf(out, "%s  rejected, measured again: %s: %s\n", prefix, floor_kind_name(r->kind), r->reason);
	}
}

void report_floors_block(FILE *out, const char *prefix, const char *title, const struct floors_rec *f, double sync_med,
			 double async_med)
{
	char a[32], b[32], c[32], sp[96], pair[32] = "";
	double g = f->go_raw_ns, h = f->handoff_ns;

	if (f->handoff_cpus[0] >= 0)
		snprintf(pair, sizeof(pair), " CPU %d<->%d", f->handoff_cpus[0], f->handoff_cpus[1]);
	fprintf(out, "%s%s\n", prefix, title);
	if (f->has_spread)
		fprintf(out, "%s  (each figure: the median batch [the fastest .. the slowest of %u batches])\n", prefix,
			f->spread_batches);
	fprintf(out, "%s  C call through a pointer        %10s%s\n", prefix, fmt_ns(a, sizeof(a), f->c_call_ns),
		spread_text(sp, sizeof(sp), f, FLOOR_C_CALL));
	fprintf(out, "%s  C->Go raw //export no-op        %10s%s   first call on a new C thread %s\n", prefix,
		fmt_ns(a, sizeof(a), g), spread_text(sp, sizeof(sp), f, FLOOR_GO_RAW),
		fmt_ns(b, sizeof(b), f->go_raw_cold_ns));
	if (isnan(h))
		fprintf(out, "%s  cache-line round trip           not measured: %s\n", prefix,
			f->handoff_why[0] ? f->handoff_why : "?");
	else
		fprintf(out, "%s  cache-line round trip%-11s%10s%s\n", prefix, pair, fmt_ns(a, sizeof(a), h),
			spread_text(sp, sizeof(sp), f, FLOOR_HANDOFF));
	if (!isnan(f->ref_bare_ns)) {
		/* pinned to the round trip's pair when there is one
		 * (timing/refhandoff.h); the SDK's worker is not */
		fprintf(out, "%s  reference C->Go spin handoff    %10s%s   (cgocost's own, no SDK%s%s)\n", prefix,
			fmt_ns(a, sizeof(a), f->ref_bare_ns), spread_text(sp, sizeof(sp), f, FLOOR_REF_BARE),
			pair[0] ? "; caller and worker pinned to" : "", pair[0] ? pair : "");
		fprintf(out, "%s    +event                        %10s%s\n", prefix,
			fmt_ns(a, sizeof(a), f->ref_event_ns), spread_text(sp, sizeof(sp), f, FLOOR_REF_EVENT));
		fprintf(out, "%s    +result                       %10s%s\n", prefix,
			fmt_ns(a, sizeof(a), f->ref_result_ns), spread_text(sp, sizeof(sp), f, FLOOR_REF_RESULT));
		fprintf(out, "%s  its wake-up from a futex sleep  %10s   (the SDK's worker sleeps 10 ms at a time)\n",
			prefix, fmt_ns(a, sizeof(a), f->ref_wake_ns));
	}
	/* a launch's floors hold the reasons, a cell's only their count */
	checks_lines(out, prefix, f, f->nrejected == 0 || f->rejected[0].reason[0] != '\0');
	if (!isnan(f->ref_bare_ns) && !isnan(h))
		fprintf(out,
			"%sreading: the reference handoff is %.2fx the round trip (bare), %.2fx with event and result\n",
			prefix, f->ref_bare_ns / h, f->ref_result_ns / h);
	if (!isnan(sync_med))
		fprintf(out, "%sreading: sync %s = raw crossing %s + SDK dispatch and Extract %s\n", prefix,
			fmt_ns(a, sizeof(a), sync_med), fmt_ns(b, sizeof(b), g), fmt_ns(c, sizeof(c), sync_med - g));
	if (!isnan(async_med) && !isnan(h))
		fprintf(out, "%sreading: async %s = %.2fx the cache-line round trip %s\n", prefix,
			fmt_ns(a, sizeof(a), async_med), async_med / h, fmt_ns(b, sizeof(b), h));
	if (!isnan(async_med) && !isnan(f->ref_result_ns))
		fprintf(out, "%sreading: async %s = %.2fx the reference handoff with event and result %s; sync %s\n",
			prefix, fmt_ns(a, sizeof(a), async_med), async_med / f->ref_result_ns,
			fmt_ns(b, sizeof(b), f->ref_result_ns),
			isnan(sync_med)		      ? "not measured"
			: sync_med < f->ref_result_ns ? "beats any spin handoff measured here"
						      : "loses to the reference handoff");
}

void report_floors_line(FILE *out, const struct floors_rec *f)
{
	char a[32], b[32], c[32], e[32], s1[96], s2[96], s3[96];

	fprintf(out,
		"# floors (medians over launches [fastest .. slowest batch]): C call %s%s, raw C->Go call %s%s (first on a new thread %s), cache-line round trip %s%s\n",
		fmt_ns(a, sizeof(a), f->c_call_ns), spread_text(s1, sizeof(s1), f, FLOOR_C_CALL),
		fmt_ns(b, sizeof(b), f->go_raw_ns), spread_text(s2, sizeof(s2), f, FLOOR_GO_RAW),
		fmt_ns(c, sizeof(c), f->go_raw_cold_ns), fmt_ns(e, sizeof(e), f->handoff_ns),
		spread_text(s3, sizeof(s3), f, FLOOR_HANDOFF));
	checks_lines(out, "#", f, 0);
}
