/* c/minimal/textbook.c — build/bench-textbook, bench-minimal's textbook loop
 * as a paired cell (--compare's bench/textbook ratios): plugin_init (config
 * "async" with -a), then plain loops of plugin_extract_fields on mock.bare.0
 * over one prepared request and event, run as blocks on the paired
 * coordinator's command (--serve-blocks NS: a block fills NS at the
 * warm-up's pace as bench's children take it; 0, -n calls). Without it, one
 * loop of -n, printed as bench-minimal prints it. Shared with bench: the
 * blocks protocol's records and pipes (timing/blockmsg.h), whole reads and
 * writes (base/fdio.h), the threads' CPU clocks (base/threadcpu.h), the
 * lead-in's steady-state rule (stats/steady.h), the warm-up's pace
 * (stats/pace.h) and, with -c, the placement (base/sysinfo.h); plugin's
 * finder of the SDK's async slot (plugin/sdkslot.h). Its own: the request,
 * the calling thread, the lead-in, the timed loop. It calls from a new
 * pthread, as bench's caller does (-m: from the main thread); the mode in
 * effect is verified on that thread by a mock.tid probe. */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <plugin_api.h> /* from the plugin SDK's module directory */

#include "base/fdio.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "base/threadcpu.h"
#include "plugin/plugin_fields.h"
#include "plugin/sdkslot.h"
#include "stats/pace.h"
#include "stats/steady.h"
#include "timing/blockmsg.h"

ss_plugin_t *plugin_init(const ss_plugin_init_input *in, ss_plugin_rc *rc);
void plugin_destroy(ss_plugin_t *s);
char *cgocost_go_version(void); /* the mock's own: its toolchain and SDK */
char *cgocost_sdk_version(void);
ss_plugin_rc plugin_extract_fields(ss_plugin_t *s, const ss_plugin_event_input *evt,
				   const ss_plugin_field_extract_input *in);

struct loop {
	ss_plugin_t *s;
	const ss_plugin_event_input *evt;
	const ss_plugin_field_extract_input *in, *probe;
	unsigned long long n, block_ns, calls, ns;	 /* calls and ns: over the timed loops */
	int serve, failed, caller, ran_on, cpu, on_main; /* cpu: -c's, or -1 */
	int probe_all;					 /* -P: bench's probe fields */
};

static unsigned long long clock_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000u + (unsigned long long)ts.tv_nsec;
}

/* A decimal count: 0, or -1 when s is not one. */
static int count(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end == '\0' ? 0 : -1;
}

/* The timed loop: the call and its check, nothing else. */
static int timed(struct loop *l, unsigned long long n)
{
	for (unsigned long long i = 0; i < n; i++)
		if (plugin_extract_fields(l->s, l->evt, l->in) != SS_PLUGIN_SUCCESS)
			return -1;
	return 0;
}

/* Says ready, then one block a BLOCK_RUN: the lead-in (untimed calls: one,
 * then groups of STEADY_GROUP until steady and lead_in_ns has passed since
 * the start, or steady_max_us since the first; or with steady_max_us 0
 * single calls until lead_in_ns has passed since the start), then n timed
 * calls. */
static int serve(struct loop *l, unsigned long long n, int async_in_effect)
{
	struct block_reply r = { .async_in_effect = async_in_effect, .calls = n };
	struct block_cmd c;

	if (fd_write_all(BLOCKS_REPLY_FD, &r, sizeof(r)) != 0)
		return -1;
	for (;;) {
		unsigned long long t0, t, t1, g, max;
		struct steady sd;
		struct threadcpu tc;
		int steady;
		if (fd_read_exact(BLOCKS_CMD_FD, &c, sizeof(c)) != 0 || c.op == BLOCK_END)
			return 0; /* the parent is done (or gone) */
		if (c.op != BLOCK_RUN)
			return -1;
		memset(&r, 0, sizeof(r));
		r.status |= threadcpu_list(&tc) != 0; /* its CPU: each thread's clock, as bench's */
		t0 = clock_of(CLOCK_MONOTONIC);
		r.status |= timed(l, 1) != 0;
		t = clock_of(CLOCK_MONOTONIC);
		r.first_ns = t - t0;
		/* steady: the cap counts from the first call's end; fixed, from t0 */
		max = c.steady_max_us ? c.steady_max_us * 1000ull : c.lead_in_ns;
		t1 = c.steady_max_us ? t : t0;
		for (r.lead_calls = 1, steady = 0, steady_init(&sd);
		     r.status == 0 && t - t1 < max && !(steady && t - t0 >= c.lead_in_ns);) {
			g = t;
			r.status |= timed(l, c.steady_max_us ? STEADY_GROUP : 1) != 0;
			r.lead_calls += c.steady_max_us ? STEADY_GROUP : 1;
			t = clock_of(CLOCK_MONOTONIC);
			steady = c.steady_max_us && steady_add(&sd, t - g);
		}
		r.lead_ns = t - t0;
		threadcpu_mark(&tc);
		t0 = clock_of(CLOCK_MONOTONIC);
		r.status |= timed(l, n) != 0;
		r.ns = clock_of(CLOCK_MONOTONIC) - t0;
		r.cpu_ns = threadcpu_since(&tc);
		r.calls = n;
		l->ns += r.ns;
		l->calls += n;
		if (fd_write_all(BLOCKS_REPLY_FD, &r, sizeof(r)) != 0 || r.status != 0)
			return -1;
	}
}

/* The caller: warm-up, the mode probe, then the timed loop or the blocks. */
static void *caller(void *arg)
{
	struct loop *l = arg;
	/* the warm-up: -n calls, up to 10000 (bench-minimal's) */
	unsigned long long t0, per_block = l->n, warm = l->n < 10000 ? l->n : 10000;
	struct pace pc;
	double per_op;

	l->caller = (int)gettid();
	l->failed = (l->cpu >= 0 && !l->on_main && pin_to_cpu(l->cpu) != 0) || timed(l, 1) != 0;
	/* the threads the first call started (the async worker: a thread Go
	 * starts from the pinned caller inherits its CPU) leave it before the
	 * warm-up, whose every call would otherwise wait for a time slice */
	if (!l->failed && l->cpu >= 0)
		(void)pin_others_away(l->caller, l->cpu);
	/* timed in groups: a block holds block_ns at the pace bench's children
	 * size theirs at (stats/pace.h) */
	pace_init(&pc);
	for (unsigned long long done = 0, g = pace_group(warm), k; !l->failed && done < warm; done += k) {
		k = warm - done < g ? warm - done : g;
		t0 = clock_of(CLOCK_MONOTONIC);
		l->failed = timed(l, k) != 0;
		pace_add(&pc, k, clock_of(CLOCK_MONOTONIC) - t0);
	}
	l->failed = l->failed || plugin_extract_fields(l->s, l->evt, l->probe) != SS_PLUGIN_SUCCESS ||
		    l->probe->fields[0].res_len != 1 ||
		    /* -P: the SDK served every probe field (mock.calls, second,
		     * counts the first call, the warm-up and the two fields) */
		    (l->probe_all && (l->probe->fields[1].res_len != 1 || l->probe->fields[1].res.u64[0] != warm + 3));
	/* -c: the paired run's placement, as bench's children have it: the
	 * caller alone on its CPU, the async worker and the runtime elsewhere
	 * (the main thread is pinned last: the others' CPUs are read from its) */
	l->failed = l->failed || (l->cpu >= 0 && (pin_others_away(l->caller, l->cpu) < 0 || pin_to_cpu(l->cpu) != 0));
	per_op = pace_for_blocks(&pc);
	l->ran_on = (int)l->probe->fields[0].res.u64[0];
	if (l->serve && l->block_ns > 0) /* as many as fill a block, 1 to 1e9 */
		per_block = (unsigned long long)fmin(fmax((double)l->block_ns / per_op, 1.0), 1e9);
	if (!l->failed && l->serve) {
		l->failed = serve(l, per_block, l->ran_on != l->caller) != 0;
	} else if (!l->failed) {
		t0 = clock_of(CLOCK_MONOTONIC);
		l->failed = timed(l, l->n) != 0;
		l->ns = clock_of(CLOCK_MONOTONIC) - t0;
		l->calls = l->n;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = { { "serve-blocks", required_argument, NULL, 's' }, { 0 } };
	unsigned char ev[64] = { 0 };
	ss_plugin_event hdr = { .len = sizeof(hdr) + 16, .type = 322, .nparams = 2 };
	uint32_t params[4] = { 4, 4, 999, 0 }; /* two lengths, the plugin id, a payload */
	ss_plugin_extract_field bare = { .field_id = mock_work_field(WORK_BARE, 0),
					 .field = "mock.bare.0",
					 .ftype = 8 };
	/* the probe: mock.tid; with -P bench's eight probe fields, so that the
	 * SDK's per-instance map of field IDs (a Go map keyed by field ID,
	 * every ID ever asked, a hashed table past 8) holds what bench's does */
	ss_plugin_extract_field probes[] = {
		{ .field_id = FIELD_TID, .field = "mock.tid", .ftype = 8 },
		{ .field_id = FIELD_CALLS, .field = "mock.calls", .ftype = 8 },
		{ .field_id = FIELD_CPU, .field = "mock.cpu", .ftype = 8 },
		{ .field_id = FIELD_GOMAXPROCS, .field = "mock.gomaxprocs", .ftype = 8 },
		{ .field_id = FIELD_ASYNC_CONFIGURED, .field = "mock.async", .ftype = 8 },
		{ .field_id = FIELD_GO_ALLOCS, .field = "mock.goallocs", .ftype = 8 },
		{ .field_id = FIELD_HOST_CALLS, .field = "mock.hostcalls", .ftype = 8 },
		{ .field_id = FIELD_GOROUTINE, .field = "mock.goroutine", .ftype = 8 },
	};
	ss_plugin_field_extract_input in = { .num_fields = 1, .fields = &bare },
				      probe = { .num_fields = 1, .fields = probes };
	ss_plugin_event_input evt = { .evt = (ss_plugin_event *)(void *)ev, .evtnum = 1, .evtsrc = "cgocost" };
	ss_plugin_init_input init = { 0 };
	ss_plugin_rc rc = SS_PLUGIN_FAILURE;
	struct loop l = { .evt = &evt, .in = &in, .probe = &probe, .n = 100000, .cpu = -1 };
	unsigned long long cpu;
	int async = 0, c;
	pthread_t t;

	while ((c = getopt_long(argc, argv, "ac:mn:P", longs, NULL)) != -1) {
		if (c == 'a')
			async = 1;
		else if (c == 'm')
			l.on_main = 1;
		else if (c == 'P')
			l.probe_all = 1;
		else if (c == 'c' && count(optarg, &cpu) == 0 && cpu < 4096)
			l.cpu = (int)cpu;
		else if ((c != 'n' && c != 's') || count(optarg, c == 'n' ? &l.n : &l.block_ns) != 0 || l.n == 0)
			return fprintf(stderr,
				       "usage: bench-textbook [-a] [-c cpu] [-m] [-n count >= 1] [-P] [--serve-blocks "
				       "ns]\n"),
			       EXIT_BAD_INPUT;
		l.serve |= c == 's';
	}
	probe.num_fields = l.probe_all ? (uint32_t)(sizeof(probes) / sizeof(probes[0])) : 1;
	memcpy(ev, &hdr, sizeof(hdr));
	memcpy(ev + sizeof(hdr), params, sizeof(params));
	init.config = async ? "async" : "";
	if ((l.s = plugin_init(&init, &rc)) == NULL || rc != SS_PLUGIN_SUCCESS)
		return fprintf(stderr, "bench-textbook: plugin_init failed\n"), EXIT_RUN_FAILED;
	if (l.on_main)
		caller(&l);
	else if (pthread_create(&t, NULL, caller, &l) != 0 || pthread_join(t, NULL) != 0)
		return fprintf(stderr, "bench-textbook: cannot start the calling thread\n"), EXIT_RUN_FAILED;
	if (l.failed || l.calls == 0)
		return fprintf(stderr, "bench-textbook: an extraction or the blocks protocol failed\n"),
		       EXIT_RUN_FAILED;
	printf("plugin 1: %.2f ns/extraction (elapsed time %lluns, extractions %llu)\n", (double)l.ns / (double)l.calls,
	       l.ns, l.calls);
	printf("# mode: %s requested, %s in effect (verified: Extract ran on thread %d, the caller is %d, %s)\n",
	       async ? "async" : "sync", l.ran_on == l.caller ? "sync" : "async", l.ran_on, l.caller,
	       l.on_main ? "the main thread" : "a pthread");
	printf("# built: %s, plugin-sdk-go %s\n", cgocost_go_version(), cgocost_sdk_version());
	if (l.probe_all)
		printf("# probe: bench's %u probe fields, served (-P): the SDK's field map holds %u field IDs, as "
		       "bench's does\n",
		       probe.num_fields, probe.num_fields + in.num_fields);
	if (l.ran_on != l.caller) { /* async: where the SDK's slot lay (plugin/sdkslot.h) */
		struct sdk_slot slot;
		char why[160], msg[200];
		int found = sdk_slot_locate((const void *)plugin_init, l.s, &slot, why, sizeof(why)) == 0;
		if (found)
			printf("# async slot: %u bytes into a %u-byte cache line, %u line%s\n", slot.line_offset,
			       slot.line_bytes, slot.lines, slot.lines == 1 ? "" : "s");
		else
			printf("# async slot: not found: %s\n", why);
		if (sdk_slot_misplaced(&slot, found, why, msg, sizeof(msg)))
			return fprintf(stderr, "bench-textbook: %s\n", msg), EXIT_RUN_FAILED;
	}
	plugin_destroy(l.s);
	return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_RUN_FAILED;
}
