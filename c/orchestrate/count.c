/* orchestrate/count.c — see count.h. */
#include "orchestrate/count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/status.h"
#include "model/countparse.h"
#include "orchestrate/countrun.h"
#include "orchestrate/plan.h"
#include "stats/twolength.h"

const char *const count_syscall_names[] = {
	"rt_sigprocmask", "sigaltstack",     "futex",	     "mmap",	    "munmap", "madvise",
	"nanosleep",	  "clock_nanosleep", "sched_yield",  "epoll_pwait", "read",   "write",
	"tgkill",	  "getpid",	     "rt_sigreturn", "gettid",	    NULL
};

#define COUNT_NAMED	 (sizeof(count_syscall_names) / sizeof(count_syscall_names[0]) - 1)
#define COUNT_EVENTS_LEN 2048

_Static_assert(COUNT_NAMED + 1 <= COUNT_NAMES_MAX, "the named system calls and other fit the record");

const char *count_async_reason(void)
{
	return "async: its worker spins while it waits for requests, and that spinning, which grows with time, "
	       "not with extractions, would be counted";
}

const char *count_refusal(const struct options *o, char *buf, size_t len)
{
	if (o->count == 0)
		return NULL;
	int gate = o->method == METHOD_COUNTED;
	/* every cell of the plan: an async one has no instructions, by design */
	int whole = (o->kind == RUN_COMPARE || o->kind == RUN_ANATOMY) && o->base != BASE_BUILD;

	if (o->base == BASE_BUILD && o->count != COUNT_INSTRUCTIONS)
		snprintf(buf, len,
			 "--against with --count: the counting gate judges instructions per extraction: give --count "
			 "instructions (system calls are counted, not judged, in a single launch)");
	else if (o->kind != RUN_SINGLE && !whole && !gate)
		snprintf(buf, len,
			 "--count counts the cell of a single launch, every cell of --compare or --anatomy, or judges "
			 "a cell against another build (--against EXE --count instructions): not a run of kind %s "
			 "(baselines, --launches and the other comparisons come later)",
			 run_kind_name(o->kind));
	else if (options_latency(o))
		snprintf(buf, len, "--count counts a closed loop of -n extractions: not --rate or --gap-us");
	else if (o->n > COUNT_MAX_N)
		snprintf(buf, len,
			 "-n %llu: --count also runs the cell at -n 2N (%llu), past the most a run takes (%llu): give "
			 "-n %llu or less (a count needs far fewer)",
			 (unsigned long long)o->n, (unsigned long long)o->n * 2, (unsigned long long)OPT_MAX_N,
			 (unsigned long long)COUNT_MAX_N);
	else if (o->lifecycle)
		snprintf(buf, len, "--count counts one cell: --scenario lifecycle measures two in one process");
	else if (o->nlibs > 1)
		snprintf(buf, len, "--count counts the whole process: one --plugin at a time");
	else if (!(o->count & COUNT_INSTRUCTIONS))
		return NULL;
	else if (o->async && !whole)
		snprintf(buf, len,
			 "--count instructions: an async cell's count would include its worker's spinning while it "
			 "waits for requests, which grows with time, not with extractions (--count syscalls counts "
			 "async cells)");
	else if (o->plugins > 1)
		snprintf(buf, len,
			 "--count instructions: -p %u callers would run one at a time under valgrind, and their waits "
			 "for each other would be counted as work: count -p 1 (--count syscalls takes -p > 1)",
			 o->plugins);
	else if (o->busy)
		snprintf(buf, len,
			 "--count instructions: the --busy library's thread extracts while the callers do, a count "
			 "that grows with time, not with the callers' extractions");
	else if (o->malloc_name || o->count_allocs)
		snprintf(buf, len,
			 "--count instructions: --malloc and --count-allocs re-execute the process with a preload, "
			 "which valgrind would not follow");
	else
		return NULL;
	return buf;
}

const char *count_tool_missing(const struct options *o, char *buf, size_t len)
{
	char path[4096];

	if ((o->count & COUNT_INSTRUCTIONS) && count_find_tool("valgrind", path, sizeof(path)) != 0)
		snprintf(buf, len,
			 "--count instructions: valgrind is not in PATH: nothing was measured or counted (make setup "
			 "installs it)");
	else if ((o->count & COUNT_SYSCALLS) && count_find_tool("perf", path, sizeof(path)) != 0)
		snprintf(buf, len,
			 "--count syscalls: perf is not in PATH: nothing was measured or counted (make setup installs "
			 "it)");
	else
		return NULL;
	return buf;
}

/* The variant of a single launch's cell, allocated (free it): exe with the
 * options as they are (child_args adds --async-extra-ns to an async
 * variant: a plan's; a single launch's options have it cleared in the copy
 * counted, co). NULL, and err set, out of memory. */
static struct variant *single_variant(const char *exe, const struct options *o, struct options *co, const char *what,
				      char *err, size_t errlen)
{
	struct variant *v = calloc(1, sizeof(*v));

	if (v == NULL) {
		snprintf(err, errlen, "--count %s: out of memory", what);
		return NULL;
	}
	snprintf(v->exe, sizeof(v->exe), "%s", exe);
	v->async = o->async;
	v->work = -1;
	v->host_calls = -1;
	*co = *o;
	co->async_extra_ns = 0;
	return v;
}

/* The figure of one count from its per-pair values. */
static void fig_close(struct count_fig *f)
{
	twolength_spread(f->per_pair, f->npairs, &f->median, &f->min, &f->max);
}

/* The lengths of the pairs and what the longer run does more. */
void count_lengths(const struct options *o, struct counts_rec *r)
{
	const char *pairs = getenv(COUNT_PAIRS_ENV);
	long want = pairs ? strtol(pairs, NULL, 10) : 0;

	r->n_short = o->n;
	r->n_long = 2 * o->n;
	r->ops = (r->n_long - r->n_short) * o->plugins;
	r->pairs = want >= 1 && want <= COUNT_PAIRS ? (uint32_t)want : COUNT_PAIRS;
}

/* GODEBUG with asyncpreemptoff=1 and cpu.rdtscp=off added for the children,
 * and back. valgrind cannot deliver the runtime's preemption signal; and
 * valgrind 3.19's emulated CPUID offers RDTSCP on a host whose CPU lacks it
 * (an AMD EPYC guest without the flag), where Go 1.26's runtime.cputicks then
 * executes it and valgrind kills the child with SIGILL. Set on every host, so
 * that a count means the same code path on every machine. */
static char *godebug_push(void)
{
	const char *old = getenv("GODEBUG");
	char *saved = old ? strdup(old) : NULL, val[1024];

	snprintf(val, sizeof(val), "%s%sasyncpreemptoff=1,cpu.rdtscp=off", old ? old : "", old && *old ? "," : "");
	setenv("GODEBUG", val, 1);
	return saved;
}

static void godebug_pop(char *saved)
{
	if (saved)
		setenv("GODEBUG", saved, 1);
	else
		unsetenv("GODEBUG");
	free(saved);
}

static int instructions_pair(const struct options *o, const struct variant *v, int floor, struct counts_rec *r,
			     int long_first, char **output, char *err, size_t errlen)
{
	char tool[4096], *errors[2], why[1024] = "", version[48] = "";
	const char *pre[] = { tool, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null" };
	uint64_t start = now_ns(), total[2];
	int status = EXIT_OK;
	char *saved;

	if (output)
		*output = NULL;
	if (r->instructions.npairs >= COUNT_PAIRS_MAX) {
		snprintf(err, errlen, "--count instructions: more than %d pairs asked", COUNT_PAIRS_MAX);
		return EXIT_RUN_FAILED;
	}
	if (count_find_tool("valgrind", tool, sizeof(tool)) != 0) {
		snprintf(err, errlen,
			 "--count instructions: valgrind is not in PATH: instructions were not counted (make setup "
			 "installs it)");
		return EXIT_RUN_FAILED;
	}
	saved = godebug_push();
	/* the first run's document is kept when asked (what was counted) */
	status = count_pair(pre, 4, o, v, floor, r, long_first, errors, output, why, sizeof(why));
	for (int is_long = 0; status == EXIT_OK && is_long < 2; is_long++)
		if (countparse_cachegrind(errors[is_long], &total[is_long], version, sizeof(version), why,
					  sizeof(why)) != 0)
			status = EXIT_RUN_FAILED;
	/* a launch makes every extraction it is asked for, each at least a
	 * call: a count that grew by less than one instruction an extraction
	 * was of another process (a wrapper that runs the launch as its child,
	 * without exec, which valgrind does not follow) */
	if (status == EXIT_OK && (total[1] <= total[0] || total[1] - total[0] < r->ops)) {
		snprintf(why, sizeof(why),
			 "valgrind counted %llu instructions at -n %llu and %llu at -n %llu, less than one an "
			 "extraction more: it counted another process than the launch (%.300s runs it as a child, "
			 "not by exec?)",
			 (unsigned long long)total[0], (unsigned long long)r->n_short, (unsigned long long)total[1],
			 (unsigned long long)r->n_long, v->exe);
		status = EXIT_RUN_FAILED;
	}
	free(errors[0]); /* NULL when the pair failed */
	free(errors[1]);
	godebug_pop(saved);
	r->instructions_s += (double)(now_ns() - start) / 1e9;
	if (status != EXIT_OK) {
		if (output) {
			free(*output);
			*output = NULL;
		}
		snprintf(err, errlen, "--count instructions: %s: instructions were not counted", why);
		return status;
	}
	r->instructions.per_pair[r->instructions.npairs++] = twolength_per_op(total[0], total[1], r->ops);
	snprintf(r->instructions_tool, sizeof(r->instructions_tool), "%s cachegrind",
		 version[0] ? version : "valgrind");
	fig_close(&r->instructions);
	r->has_instructions = 1;
	return EXIT_OK;
}

int count_instructions_pair(const struct options *o, const char *exe, struct counts_rec *r, int long_first,
			    char **output, char *err, size_t errlen)
{
	struct options co;
	struct variant *v = single_variant(exe, o, &co, "instructions", err, errlen);
	int status;

	if (v == NULL)
		return EXIT_RUN_FAILED;
	status = instructions_pair(&co, v, 0, r, long_first, output, err, errlen);
	free(v);
	return status;
}

/* A minimal driver's or a floor's run has one caller whatever -p says;
 * the C call's loop runs COUNT_C_CALL_SCALE times -n (within OPT_MAX_N). */
static void one_caller(const struct variant *v, int floor, struct options *co)
{
	if (v->minimal || floor)
		co->plugins = 1;
	if (floor == 1 + FLOOR_C_CALL && co->n <= OPT_MAX_N / 2 / COUNT_C_CALL_SCALE)
		co->n *= COUNT_C_CALL_SCALE;
}

int count_variant_instructions(const struct options *o, const struct variant *v, int floor, struct counts_rec *r,
			       char *err, size_t errlen)
{
	struct options co = *o;
	int status = EXIT_OK;

	one_caller(v, floor, &co);
	count_lengths(&co, r);
	r->has_instructions = 0;
	r->instructions_s = 0;
	memset(&r->instructions, 0, sizeof(r->instructions));
	/* the pairs alternate which length runs first */
	for (uint32_t p = 0; status == EXIT_OK && p < r->pairs; p++)
		status = instructions_pair(&co, v, floor, r, (int)(p % 2), NULL, err, errlen);
	if (status != EXIT_OK)
		r->has_instructions = 0;
	return status;
}

int count_instructions(const struct options *o, const char *exe, struct counts_rec *r, char *err, size_t errlen)
{
	struct options co;
	struct variant *v = single_variant(exe, o, &co, "instructions", err, errlen);
	int status;

	if (v == NULL)
		return EXIT_RUN_FAILED;
	status = count_variant_instructions(&co, v, 0, r, err, errlen);
	free(v);
	return status;
}

/* The perf events, in the order of the record: the total, the context
 * switches, the page faults, then one tracepoint a name. */
static void perf_events(char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "raw_syscalls:sys_enter,context-switches,page-faults");

	for (size_t i = 0; i < COUNT_NAMED && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, ",syscalls:sys_enter_%s", count_syscall_names[i]);
}

/* The counts of one perf run: [0] every system call, [1] context switches,
 * [2] page faults, [3 + i] count_syscall_names[i]. 0, or -1 with why. */
static int perf_totals(const char *errors, uint64_t *v, char *why, size_t whylen)
{
	char ev[96];

	if (countparse_perf_stat(errors, "raw_syscalls:sys_enter", &v[0], why, whylen) != 0 ||
	    countparse_perf_stat(errors, "context-switches", &v[1], why, whylen) != 0 ||
	    countparse_perf_stat(errors, "page-faults", &v[2], why, whylen) != 0)
		return -1;
	for (size_t i = 0; i < COUNT_NAMED; i++) {
		snprintf(ev, sizeof(ev), "syscalls:sys_enter_%s", count_syscall_names[i]);
		if (countparse_perf_stat(errors, ev, &v[3 + i], why, whylen) != 0)
			return -1;
	}
	return 0;
}

/* Per-pair figures of the perf counts from the two runs' totals. */
static void perf_pair(struct counts_rec *r, const uint64_t *s, const uint64_t *l)
{
	uint64_t named_s = 0, named_l = 0;
	size_t p = r->syscalls.npairs++;

	r->context_switches.npairs = r->page_faults.npairs = r->syscalls.npairs;
	r->syscalls.per_pair[p] = twolength_per_op(s[0], l[0], r->ops);
	r->context_switches.per_pair[p] = twolength_per_op(s[1], l[1], r->ops);
	r->page_faults.per_pair[p] = twolength_per_op(s[2], l[2], r->ops);
	for (size_t i = 0; i < COUNT_NAMED; i++) {
		r->by_name[i].per_op.per_pair[p] = twolength_per_op(s[3 + i], l[3 + i], r->ops);
		r->by_name[i].per_op.npairs = p + 1;
		named_s += s[3 + i];
		named_l += l[3 + i];
	}
	/* other: the total less the named; a tracepoint per name and the raw
	 * one see the same calls, so this is never negative within a run */
	r->by_name[COUNT_NAMED].per_op.per_pair[p] =
		twolength_per_op(s[0] > named_s ? s[0] - named_s : 0, l[0] > named_l ? l[0] - named_l : 0, r->ops);
	r->by_name[COUNT_NAMED].per_op.npairs = p + 1;
}

int count_variant_syscalls(const struct options *o, const struct variant *cell, int floor, struct counts_rec *r,
			   char *err, size_t errlen)
{
	char tool[4096], events[COUNT_EVENTS_LEN], *errors[2], why[1024] = "";
	const char *pre[] = { tool, "stat", "-x,", "-e", events, "--" };
	uint64_t start = now_ns(), v[2][3 + COUNT_NAMED];
	int status = EXIT_OK;
	struct options co = *o;

	one_caller(cell, floor, &co);
	o = &co;
	count_lengths(o, r);
	r->has_syscalls = 0;
	memset(&r->syscalls, 0, sizeof(r->syscalls));
	memset(&r->context_switches, 0, sizeof(r->context_switches));
	memset(&r->page_faults, 0, sizeof(r->page_faults));
	memset(r->by_name, 0, sizeof(r->by_name));
	r->nnames = 0;
	if (count_find_tool("perf", tool, sizeof(tool)) != 0) {
		snprintf(err, errlen,
			 "--count syscalls: perf is not in PATH: system calls were not counted (make setup installs "
			 "it)");
		return EXIT_RUN_FAILED;
	}
	perf_events(events, sizeof(events));
	for (uint32_t p = 0; status == EXIT_OK && p < r->pairs; p++) {
		status = count_pair(pre, 6, o, cell, floor, r, (int)(p % 2), errors, NULL, why, sizeof(why));
		for (int is_long = 0; status == EXIT_OK && is_long < 2; is_long++)
			if (perf_totals(errors[is_long], v[is_long], why, sizeof(why)) != 0)
				status = EXIT_RUN_FAILED;
		free(errors[0]); /* NULL when the pair failed */
		free(errors[1]);
		if (status == EXIT_OK)
			perf_pair(r, v[0], v[1]);
	}
	r->syscalls_s = (double)(now_ns() - start) / 1e9;
	if (status != EXIT_OK) {
		snprintf(err, errlen, "--count syscalls: %s: system calls were not counted", why);
		return status;
	}
	for (size_t i = 0; i <= COUNT_NAMED; i++) {
		snprintf(r->by_name[i].name, sizeof(r->by_name[i].name), "%s",
			 i < COUNT_NAMED ? count_syscall_names[i] : "other");
		fig_close(&r->by_name[i].per_op);
	}
	r->nnames = COUNT_NAMED + 1;
	fig_close(&r->syscalls);
	fig_close(&r->context_switches);
	fig_close(&r->page_faults);
	snprintf(r->syscalls_tool, sizeof(r->syscalls_tool), "perf stat");
	r->has_syscalls = 1;
	return EXIT_OK;
}

int count_syscalls(const struct options *o, const char *exe, struct counts_rec *r, char *err, size_t errlen)
{
	struct options co;
	struct variant *v = single_variant(exe, o, &co, "syscalls", err, errlen);
	int status;

	if (v == NULL)
		return EXIT_RUN_FAILED;
	status = count_variant_syscalls(&co, v, 0, r, err, errlen);
	free(v);
	return status;
}
