/* orchestrate/countrun.c — see countrun.h. */
#include "orchestrate/countrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "orchestrate/child.h"
#include "orchestrate/childargs.h"
#include "orchestrate/plan.h"

#define COUNT_ARGV_MAX 160
#define COUNT_STORE    65536

/* name's path in PATH; 0, or -1 when no executable file of that name is
 * on it. */
int count_find_tool(const char *name, char *path, size_t len)
{
	const char *p = getenv("PATH");

	while (p && *p) {
		size_t n = strcspn(p, ":");
		if (n > 0 && (size_t)snprintf(path, len, "%.*s/%s", (int)n, p, name) < len && access(path, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

/* The first line of text holding word (perf's "Error:", "event syntax
 * error"), into buf; 0, or -1 when none does. */
static int line_with(const char *text, const char *word, char *buf, size_t len)
{
	const char *at = text ? strstr(text, word) : NULL, *start;

	if (at == NULL)
		return -1;
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	snprintf(buf, len, "%.*s", (int)strcspn(start, "\n"), start);
	return 0;
}

/* The last line of text that starts with "bench: " and is no warning,
 * into buf; 0, or -1 when none does. */
static int last_bench_line(const char *text, char *buf, size_t len)
{
	const char *found = NULL;

	for (const char *l = text; l && *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (strncmp(l, "bench: ", 7) == 0 && strncmp(l, "bench: warning", 14) != 0)
			found = l;
	if (found == NULL)
		return -1;
	snprintf(buf, len, "%.*s", (int)strcspn(found, "\n"), found);
	return 0;
}

/* The counted run of one length: the tool's arguments (pre, npre of
 * them), then the launch of the variant v at -n n, its argument list as a
 * plan's launch has it (child_args); with floor (1 + enum floor_kind),
 * only that floor's loop (--count-floor). Started in c (interrupt slot
 * slot): 0, or -1 with why (nothing left running). */
static int counted_start(const char *const *pre, int npre, const struct options *o, const struct variant *v, int floor,
			 uint64_t n, struct child *c, int slot, char *why, size_t whylen)
{
	struct options one = *o;
	char *argv[COUNT_ARGV_MAX], *store = malloc(COUNT_STORE), floor_word[4];
	int k = 0, m, rc;

	child_init(c, slot);
	if (store == NULL) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	one.n = n;
	one.n_set = 1;
	one.floors = 0;
	one.count = 0;
	for (; k < npre; k++)
		argv[k] = (char *)pre[k];
	/* room for the floor's two more */
	if ((m = child_args(&one, v, argv + k, COUNT_ARGV_MAX - k - 2, store, COUNT_STORE)) < 0) {
		snprintf(why, whylen, "the counted run's arguments do not fit");
		free(store);
		return -1;
	}
	k += m;
	if (floor && !v->minimal) {
		snprintf(floor_word, sizeof(floor_word), "%d", floor);
		argv[k - 1] = "--count-floor"; /* in the place of --emit-launch, which follows */
		argv[k++] = floor_word;
		argv[k++] = "--emit-launch";
		argv[k] = NULL;
	}
	rc = child_spawn(c, CHILD_PIPES, argv, why, whylen);
	free(store);
	return rc;
}

/* How long the counted run of o at -n n may take: a launch's bound
 * (plan_bound_ms: --stall-timeout's, with its extractions at
 * PLAN_US_PER_CALL each), its warm-up and extractions COUNT_TOOL_SLOWDOWN
 * times as many (valgrind runs a cell tens of times slower than it runs
 * alone, a --work json cell's too), and past it as long as the run keeps
 * using CPU, up to CHILD_BUSY_MAX_FACTOR times it; -1 with --stall-timeout
 * 0. A run that sleeps (a wrapper waiting on something else, a tool that
 * hangs) is killed at the bound, its whole group. */
#define COUNT_TOOL_SLOWDOWN 50
static int counted_bound_ms(const struct options *o, uint64_t n)
{
	struct options one = *o;

	one.n = n * COUNT_TOOL_SLOWDOWN; /* n <= OPT_MAX_N: no overflow */
	one.warmup = o->warmup * COUNT_TOOL_SLOWDOWN;
	one.floors = 0;
	return plan_bound_ms(&one, 1);
}

/* Waits for the run started in c to end, within bound_ms: its stderr into
 * *errors (and its stdout into *output when asked), malloc'd. EXIT_OK, or
 * EXIT_RUN_FAILED with why. c is closed. */
static int counted_end(struct child *c, const char *tool, uint64_t n, int bound_ms, char **errors, char **output,
		       enum child_kind *ended, char *why, size_t whylen)
{
	char reason[512], line[400];
	enum child_kind kind = child_end(c, bound_ms, reason, sizeof(reason));

	*ended = kind;
	if (c->timed_out && !c->flooded) {
		*ended = CHILD_FAILED; /* not run again as a stall */
		snprintf(why, whylen,
			 "%.200s was still running at -n %llu after %d s, %s: killed (--stall-timeout sets the bound)",
			 tool, (unsigned long long)n, (c->waited_ms + 999) / 1000,
			 c->busy ? "though it kept using CPU, the most a counted run may take"
				 : "the most its options allow (2 x --stall-timeout + 10 s + its extractions), "
				   "asleep or waiting");
	} else if (kind != CHILD_OK) {
		/* the tool's own lines come after the child's: the child's
		 * message (a stalled caller's) is the last "bench: " line */
		if (line_with(c->errors, "rror", line, sizeof(line)) == 0 && strncmp(line, "bench", 5) != 0)
			snprintf(reason, sizeof(reason), "%.400s", line);
		else if (last_bench_line(c->errors, line, sizeof(line)) == 0)
			snprintf(reason, sizeof(reason), "%.400s", line);
		snprintf(why, whylen, "%.200s %s at -n %llu: %.300s", tool, child_verb(kind), (unsigned long long)n,
			 reason);
	} else {
		*errors = c->errors;
		c->errors = NULL;
		if (output) {
			*output = c->output;
			c->output = NULL;
		}
	}
	child_close(c);
	return kind == CHILD_OK ? EXIT_OK : EXIT_RUN_FAILED;
}

/* Ends the started runs of a pair (only run s when s >= 0), each once:
 * its stderr into errors[is_long], the first's stdout into *output when
 * asked; *stalled when one's caller stalled. EXIT_OK, or EXIT_RUN_FAILED
 * with why (the first failure's). */
static int end_started(struct child *c, int *started, int only, const char *tool, const struct options *o,
		       const struct counts_rec *r, int long_first, char *errors[2], char **output, int *stalled,
		       char *why, size_t whylen)
{
	char other[1024];
	enum child_kind kind;
	int status = EXIT_OK;

	for (int s = 0; s < 2; s++) {
		int is_long = (s + long_first) % 2;
		if (!started[s] || (only >= 0 && s != only))
			continue;
		started[s] = 0;
		uint64_t n = is_long ? r->n_long : r->n_short;
		/* once one run of the pair failed, the other is not waited for */
		if (counted_end(&c[s], tool, n, status == EXIT_OK ? counted_bound_ms(o, n) : 0, &errors[is_long],
				s == 0 ? output : NULL, &kind, status == EXIT_OK ? why : other,
				status == EXIT_OK ? whylen : sizeof(other)) != EXIT_OK) {
			status = EXIT_RUN_FAILED;
			*stalled |= kind == CHILD_STALLED;
		}
	}
	return status;
}

/* One pair of counted runs, -n r->n_short and -n r->n_long, run at once
 * when the cell is one thread that waits for no other (each is one
 * process under a tool that counts only its own work; two CPUs halve the
 * wait), one after the other when it is not (an async cell's caller and
 * worker, -p > 1: four such threads on two CPUs would wait for a CPU at
 * every handoff, a run 30 times as long). errors[is_long] get their stderr (malloc'd); with
 * output, the document of the run started first (the longer when
 * long_first). EXIT_OK, or EXIT_RUN_FAILED with why (errors freed); *stalled
 * when a run's caller stalled (its watchdog ended it: it counted nothing). */
static int counted_pair_once(const char *const *pre, int npre, const struct options *o, const struct variant *v,
			     int floor, const struct counts_rec *r, int long_first, char *errors[2], char **output,
			     int *stalled, char *why, size_t whylen)
{
	struct child c[2];
	int started[2] = { 0, 0 }, status = EXIT_OK;
	/* one thread that never waits for another: two such processes share
	 * two CPUs without a handoff between them waiting for a CPU */
	int together = !v->async && (v->minimal || floor || o->plugins == 1) && !o->busy && !o->idle;

	errors[0] = errors[1] = NULL;
	*stalled = 0;
	if (output)
		*output = NULL;
	for (int s = 0; s < 2 && status == EXIT_OK; s++) {
		int is_long = (s + long_first) % 2;
		if (counted_start(pre, npre, o, v, floor, is_long ? r->n_long : r->n_short, &c[s], s, why, whylen) !=
		    0) {
			snprintf(why + strlen(why), whylen - strlen(why), " (%s at -n %llu)", pre[0],
				 (unsigned long long)(is_long ? r->n_long : r->n_short));
			status = EXIT_RUN_FAILED;
			break;
		}
		started[s] = 1;
		if (!together || s == 1)
			status = end_started(c, started, s == 0 && !together ? 0 : -1, pre[0], o, r, long_first, errors,
					     output, stalled, why, whylen);
	}
	if (together && started[0] && !started[1]) { /* the second did not start: why says so */
		char ignored[1024];
		end_started(c, started, -1, pre[0], o, r, long_first, errors, output, stalled, ignored,
			    sizeof(ignored));
	}
	if (status != EXIT_OK) {
		free(errors[0]);
		free(errors[1]);
		errors[0] = errors[1] = NULL;
		if (output) {
			free(*output);
			*output = NULL;
		}
	}
	return status;
}

/* count_pair: counted_pair_once, run again (at most twice, said on stderr) when a
 * caller stalled, as a plan's launch is: on a loaded machine an async
 * worker can go unscheduled past --stall-timeout, more so under a tool. */
int count_pair(const char *const *pre, int npre, const struct options *o, const struct variant *v, int floor,
	       const struct counts_rec *r, int long_first, char *errors[2], char **output, char *why, size_t whylen)
{
	int stalled, status = counted_pair_once(pre, npre, o, v, floor, r, long_first, errors, output, &stalled, why,
						whylen);

	for (int retry = 0; status != EXIT_OK && stalled && retry < 2; retry++) {
		fprintf(stderr, "bench: warning: a counted run stalled (%s); running that pair again\n", why);
		status =
			counted_pair_once(pre, npre, o, v, floor, r, long_first, errors, output, &stalled, why, whylen);
	}
	return status;
}
