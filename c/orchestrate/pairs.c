/* orchestrate/pairs.c — see pairs.h. */
#include "orchestrate/pairs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fdio.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "model/codec.h"
#include "orchestrate/launch.h"
#include "stats/signrank.h"
#include "stats/stats.h"
#include "timing/blocks.h"

/* One cell's child. */
struct server {
	struct variant *v;
	pid_t pid;
	int cmd, reply; /* our ends of its pipes; -1 closed */
	int out, err;	/* its stdout and stderr, temporary files */
	struct block_reply ready;
	size_t cap; /* of its pair_cell_rec arrays */
};

/* --- the ratios ----------------------------------------------------------- */

static const char *exe_base(const struct variant *v)
{
	const char *slash = strrchr(v->exe, '/');
	return slash ? slash + 1 : v->exe;
}

static int find(const struct plan *p, int from, int to, const char *base, int async)
{
	for (int i = from; i < to; i++)
		if (strcmp(exe_base(&p->v[i]), base) == 0 && p->v[i].async == async)
			return i;
	return -1;
}

static int add(struct paired_rec *pr, const char *name, int num, int den, int judged)
{
	struct pair_ratio_rec *r;

	if (num < 0 || den < 0)
		return 0;
	if ((r = model_append((void **)&pr->ratios, &pr->nratios, sizeof(*pr->ratios))) == NULL)
		return -1;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->num = num;
	r->den = den;
	r->judged = judged;
	return 0;
}

int pairs_define(const struct plan *p, const struct options *o, struct paired_rec *pr)
{
	static const char *const modes[] = { "sync", "async" };
	char name[80];
	int rc = 0;

	if (o->kind == RUN_COMPARE) {
		static const char *const exes[] = { "bench", "bench-shared" }, *const libs[] = { "archive", "shared" };
		for (int l = 0; l < 2; l++) {
			snprintf(name, sizeof(name), "async/sync lib=%s wall", libs[l]);
			rc |= add(pr, name, find(p, 0, p->nself, exes[l], 1), find(p, 0, p->nself, exes[l], 0), 0);
		}
		for (int m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "shared/archive mode=%s wall", modes[m]);
			rc |= add(pr, name, find(p, 0, p->nself, "bench-shared", m), find(p, 0, p->nself, "bench", m),
				  0);
		}
		for (int m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "go %s/c lib=archive wall", modes[m]);
			rc |= add(pr, name, find(p, 0, p->nself, "bench", m), find(p, 0, p->nself, "bench-host", 0), 0);
		}
	}
	/* --against: the base's cells come in the same order as this build's */
	for (int i = 0; o->base == BASE_BUILD && i < p->nself && p->nself + i < p->nv; i++) {
		snprintf(name, sizeof(name), "this/base %s %s", exe_base(&p->v[i]), modes[p->v[i].async]);
		rc |= add(pr, name, i, p->nself + i, 1);
	}
	return rc;
}

double pairs_half_width(const struct paired_rec *pr, const struct pair_ratio_rec *r)
{
	double *x = malloc((pr->ngenerations + 1) * sizeof(double)), hw = NAN;
	struct signrank_ci ci;

	if (x == NULL)
		return NAN;
	if (paired_generation_ratios(pr, r, pr->cells[r->num].block_ns, pr->cells[r->den].block_ns, x) == 0 &&
	    signrank_ratio_interval(x, pr->ngenerations, 0.95, &ci) == 0 && isfinite(ci.lo))
		hw = 100.0 * (ci.hi - ci.lo) / 2.0 / ci.point;
	free(x);
	return hw;
}

/* --- the children ----------------------------------------------------------- */

static int temp_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL)
		return -1;
	fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 10);
	fclose(f);
	return fd;
}

/* Starts the child of s with argv; its stdout and stderr go to temporary
 * files, its commands come on fd 3, its replies leave on fd 4. */
static int spawn(struct server *s, char *const argv[], int slot, char *err, size_t errlen)
{
	int c[2] = { -1, -1 }, r[2] = { -1, -1 };
	pid_t parent = getpid(), pid;

	s->out = temp_fd();
	s->err = temp_fd();
	if (s->out < 0 || s->err < 0 || pipe2(c, O_CLOEXEC) != 0 || pipe2(r, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "cannot create the files and pipes of a child: %s", strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		/* its own process group, killed whole when we are interrupted,
		 * and by the kernel when we die first */
		int hi[4] = { fcntl(s->out, F_DUPFD, 20), fcntl(s->err, F_DUPFD, 20), fcntl(c[0], F_DUPFD, 20),
			      fcntl(r[1], F_DUPFD, 20) };
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || hi[0] < 0 || hi[1] < 0 || hi[2] < 0 || hi[3] < 0)
			_exit(127);
		if (dup2(hi[0], 1) < 0 || dup2(hi[1], 2) < 0 || dup2(hi[2], BLOCKS_CMD_FD) < 0 ||
		    dup2(hi[3], BLOCKS_REPLY_FD) < 0)
			_exit(127);
		for (int i = 0; i < 4; i++)
			close(hi[i]);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	interrupt_child_slot(slot, pid);
	close(c[0]);
	close(r[1]);
	s->pid = pid;
	s->cmd = c[1];
	s->reply = r[0];
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (c[i] >= 0)
			close(c[i]);
		if (r[i] >= 0)
			close(r[i]);
	}
	return -1;
}

/* All that a file holds, NUL-terminated (malloc'd); NULL if unreadable. */
static char *slurp(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf;
	size_t got = 0;

	if (len < 0 || lseek(fd, 0, SEEK_SET) < 0 || (buf = malloc((size_t)len + 1)) == NULL)
		return NULL;
	while (got < (size_t)len) {
		ssize_t n = read(fd, buf + got, (size_t)len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return buf;
}

/* Waits for the child to end, at most timeout_ms (then kills it); its exit
 * status as launch_classify reads it. */
static int reap(struct server *s, int timeout_ms, int *signo)
{
	int status = 0;
	pid_t got = 0;

	*signo = 0;
	if (s->pid <= 0)
		return -1;
	for (int waited = 0; (got = waitpid(s->pid, &status, WNOHANG)) == 0 && waited < timeout_ms; waited += 5) {
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
	if (got == 0) {
		kill(-s->pid, SIGKILL);
		kill(s->pid, SIGKILL);
		while ((got = waitpid(s->pid, &status, 0)) < 0 && errno == EINTR)
			;
	}
	s->pid = 0;
	if (got < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		*signo = WTERMSIG(status);
		return -1;
	}
	return WEXITSTATUS(status);
}

static void close_server(struct server *s, int slot)
{
	int signo;

	if (s->pid > 0) {
		kill(-s->pid, SIGKILL);
		kill(s->pid, SIGKILL);
		reap(s, 0, &signo);
	}
	interrupt_child_slot(slot, 0);
	if (s->cmd >= 0)
		close(s->cmd);
	if (s->reply >= 0)
		close(s->reply);
	if (s->out >= 0)
		close(s->out);
	if (s->err >= 0)
		close(s->err);
	s->cmd = s->reply = s->out = s->err = -1;
}

/* How a child ended (reaped within timeout_ms), from its status and
 * stderr: EXIT_OK when it exited cleanly and ended_ok says that is what was
 * expected; else its one-line reason, what saying when. */
static int outcome(struct server *s, const char *what, int timeout_ms, int ended_ok, char *err, size_t errlen)
{
	char why[600], *errout;
	int signo, rc = reap(s, timeout_ms, &signo);
	enum launch_kind kind;

	errout = slurp(s->err);
	kind = launch_classify(rc, signo, errout ? errout : "", why, sizeof(why));
	free(errout);
	if (kind == LAUNCH_OK && ended_ok)
		return EXIT_OK;
	if (kind == LAUNCH_BAD_INPUT) {
		snprintf(err, errlen, "%s", why);
		return EXIT_BAD_INPUT;
	}
	snprintf(err, errlen, "paired launch of %s (%s) %s %s: %s", s->v->exe, s->v->async ? "async" : "sync",
		 kind == LAUNCH_CRASHED || kind == LAUNCH_PANICKED ? "crashed" : "failed", what,
		 kind == LAUNCH_OK ? "it ended without a word" : why);
	return EXIT_RUN_FAILED;
}

/* What became of a child that stopped answering, as one line; one that
 * answered nothing for --stall-timeout (timeout_ms 0) is killed first. */
static int failure(struct server *s, const char *what, int timeout_ms, char *err, size_t errlen)
{
	if (timeout_ms == 0) {
		int signo;
		reap(s, 0, &signo);
		snprintf(err, errlen, "paired launch of %s (%s) stalled %s: no progress for --stall-timeout; killed",
			 s->v->exe, s->v->async ? "async" : "sync", what);
		return EXIT_RUN_FAILED;
	}
	return outcome(s, what, timeout_ms, 0, err, errlen);
}

static int stall_ms(const struct options *o)
{
	return o->stall_timeout_s ? (int)o->stall_timeout_s * 1000 : -1;
}

/* One reply, within the stall timeout. 0; 1 the child is gone; 2 it is stuck. */
static int receive(struct server *s, struct block_reply *r, int timeout_ms)
{
	size_t got = 0;

	while (got < sizeof(*r)) {
		struct pollfd p = { .fd = s->reply, .events = POLLIN };
		int n = poll(&p, 1, timeout_ms);
		ssize_t k;
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return 2;
		k = read(s->reply, (char *)r + got, sizeof(*r) - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 1;
		got += (size_t)k;
	}
	return 0;
}

static int send_cmd(struct server *s, uint32_t op, uint64_t lead_in_ns)
{
	struct block_cmd c = { .op = op, .lead_in_ns = lead_in_ns };
	return fd_write_all(s->cmd, &c, sizeof(c));
}

/* --- the run ------------------------------------------------------------------ */

static int start(struct server *s, int slot, const struct options *o, int cpu, char *err, size_t errlen)
{
	char *argv[84], store[16384], blockns[32];
	struct options co = *o;
	int n, got;

	/* every caller on the same CPU (the vCPUs of a VM differ in speed) */
	if (cpu >= 0) {
		co.ncpus = 1;
		co.cpus[0] = cpu;
	}
	n = child_args(&co, s->v, argv, 80, store, sizeof(store));

	/* -n given: that many calls a block; else as many as fill --block-ms */
	snprintf(blockns, sizeof(blockns), "%llu", o->n_set ? 0ULL : (unsigned long long)llround(o->block_ms * 1e6));
	if (n < 0) {
		snprintf(err, errlen, "arguments too long for a launch");
		return EXIT_RUN_FAILED;
	}
	argv[n] = (char *)"--serve-blocks";
	argv[n + 1] = blockns;
	argv[n + 2] = NULL;
	if (spawn(s, argv, slot, err, errlen) != 0)
		return EXIT_RUN_FAILED;
	got = receive(s, &s->ready, stall_ms(o) < 0 ? -1 : stall_ms(o) + 60000);
	if (got != 0)
		return failure(s, "before its first block", got == 2 ? 0 : 10000, err, errlen);
	/* the mode in effect, verified at the child's first probe */
	if (s->ready.async_in_effect >= 0 && s->ready.async_in_effect != s->v->async) {
		snprintf(err, errlen, "paired launch of %s: %s was asked for, but Extract ran %s: refusing to pair it",
			 s->v->exe, s->v->async ? "async" : "sync",
			 s->ready.async_in_effect ? "on another thread (async)" : "on the caller's thread (sync)");
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

static int grow(struct pair_cell_rec *c, size_t *cap)
{
	double **arrays[] = {
		&c->block_ns, &c->block_cpu_ns, &c->lead_ns, &c->lead_calls, &c->first_call_ns, &c->after
	};

	if (c->nblocks < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 256;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		double *a = realloc(*arrays[i], *cap * sizeof(double));
		if (a == NULL)
			return -1;
		*arrays[i] = a;
	}
	return 0;
}

static int record(struct pair_cell_rec *c, size_t *cap, const struct block_reply *r, int after)
{
	size_t i = c->nblocks;
	double calls = (double)(r->calls ? r->calls : 1);

	if (grow(c, cap) != 0)
		return -1;
	c->block_ns[i] = (double)r->ns / calls;
	c->block_cpu_ns[i] = (double)r->cpu_ns / calls;
	c->lead_ns[i] = (double)r->lead_ns;
	c->lead_calls[i] = (double)r->lead_calls;
	c->first_call_ns[i] = (double)r->first_ns;
	c->after[i] = after;
	c->nblocks = c->ncpu = c->nlead = c->nleadcalls = c->nfirst = c->nafter = i + 1;
	return 0;
}

/* A random order of n cells (Fisher-Yates). */
void pairs_order(int *order, int n, stats_rng *rng)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)stats_rng_below(rng, (size_t)i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

static int precise_enough(const struct paired_rec *pr);

const char *pairs_stop(const struct paired_rec *pr, const struct options *o, double elapsed_s)
{
	/* --launches L: L generations, each of --time / L rounds, however long
	 * their start-ups take */
	if (o->launches_set)
		return pr->ngenerations >= o->launches ? "launches" : NULL;
	if (elapsed_s >= o->time_s)
		return "time";
	if (pr->precision_pct > 0 && pr->ngenerations >= PAIRS_MIN_GENERATIONS && precise_enough(pr))
		return "precision";
	return NULL;
}

static int precise_enough(const struct paired_rec *pr)
{
	for (size_t k = 0; k < pr->nratios; k++) {
		double hw = pairs_half_width(pr, &pr->ratios[k]);
		if (!(hw <= pr->precision_pct))
			return 0;
	}
	return pr->nratios > 0;
}

/* The rounds of one generation, until it has lasted its time (or the whole
 * budget is spent). */
static int rounds(struct server *sv, int nv, const struct options *o, struct paired_rec *pr, stats_rng *rng,
		  uint64_t run_t0, char *err, size_t errlen)
{
	uint64_t t0 = now_ns(), budget = (uint64_t)(o->time_s * 1e9), lead = o->lead_in_us * 1000;
	uint64_t gen = (uint64_t)(pr->generation_s * 1e9);
	uint32_t done = 0;
	int order[32], tty = isatty(2);

	for (;;) {
		pairs_order(order, nv, rng);
		for (int i = 0; i < nv; i++) {
			struct server *s = &sv[order[i]];
			struct block_reply r;
			int got;
			if (send_cmd(s, BLOCK_RUN, lead) != 0)
				return failure(s, "during a block", 10000, err, errlen);
			got = receive(s, &r, stall_ms(o));
			if (got != 0)
				return failure(s, "during a block", got == 2 ? 0 : 10000, err, errlen);
			if (r.status != 0)
				return failure(s, "during a block", 10000, err, errlen);
			if (record(&pr->cells[order[i]], &sv[order[i]].cap, &r, i ? order[i - 1] : -1) != 0) {
				snprintf(err, errlen, "out of memory for the blocks");
				return EXIT_RUN_FAILED;
			}
			pr->lead_s += (double)r.lead_ns / 1e9;
			pr->timed_s += (double)r.ns / 1e9;
		}
		pr->rounds++;
		done++;
		if (tty && pr->rounds % 64 == 0) {
			fprintf(stderr, "\r\033[Kpaired: generation %zu, round %u, %.1f of %.1f s",
				pr->ngenerations + 1, pr->rounds, (double)(now_ns() - run_t0) / 1e9, o->time_s);
			fflush(stderr);
		}
		if (now_ns() - t0 >= gen || now_ns() - run_t0 >= budget)
			break;
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	return model_append((void **)&pr->generation_rounds, &pr->ngenerations, sizeof(double)) == NULL
		       ? (snprintf(err, errlen, "out of memory"), EXIT_RUN_FAILED)
		       : (pr->generation_rounds[pr->ngenerations - 1] = done, EXIT_OK);
}

/* Ends every child and takes its document: one launch, a batch a block. */
static int finish(struct server *sv, int nv, const struct options *o, char *err, size_t errlen)
{
	int timeout = stall_ms(o) < 0 ? 600000 : stall_ms(o) + 10000;

	for (int i = 0; i < nv; i++)
		send_cmd(&sv[i], BLOCK_END, 0);
	for (int i = 0; i < nv; i++) {
		struct server *s = &sv[i];
		char why[600], *out;
		int status = outcome(s, "at its end", timeout, 1, err, errlen);
		struct doc child;

		if (status != EXIT_OK)
			return status;
		out = slurp(s->out);
		if (out == NULL || doc_loads(&child, out, strlen(out), why, sizeof(why)) != 0) {
			snprintf(err, errlen, "paired launch of %s printed no valid document (%s)", s->v->exe,
				 out ? why : "unreadable");
			free(out);
			return EXIT_RUN_FAILED;
		}
		free(out);
		status = plan_merge_launch(s->v, &child, err, errlen);
		doc_free(&child);
		if (status != EXIT_OK)
			return status;
	}
	return EXIT_OK;
}

int pairs_run(struct plan *p, const struct options *o, struct paired_rec *pr, char *err, size_t errlen)
{
	struct server sv[32];
	int status = EXIT_OK, nv = p->nv;
	stats_rng rng;
	uint64_t t0;
	const char *stop;
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);

	memset(pr, 0, sizeof(*pr));
	pr->block_ms = o->n_set ? 0 : o->block_ms;
	pr->lead_in_us = (double)o->lead_in_us;
	pr->budget_s = o->time_s;
	pr->precision_pct = o->precision_pct;
	pr->order_seed = o->seed;
	if (nv > (int)(sizeof(sv) / sizeof(sv[0])) || nv > INTERRUPT_SLOTS) {
		snprintf(err, errlen, "too many cells to pair (%d)", nv);
		return EXIT_BAD_INPUT;
	}
	if ((pr->cells = calloc((size_t)nv, sizeof(*pr->cells))) == NULL || pairs_define(p, o, pr) != 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUN_FAILED;
	}
	pr->ncells = (size_t)nv;
	memset(sv, 0, sizeof(sv));
	for (int i = 0; i < nv; i++) {
		sv[i].v = &p->v[i];
		sv[i].cmd = sv[i].reply = sv[i].out = sv[i].err = -1;
		snprintf(pr->cells[i].side, sizeof(pr->cells[i].side), "%s", p->v[i].base ? "against" : "this");
	}
	pr->caller_cpu = o->ncpus ? o->cpus[0] : first_allowed_cpu();
	pr->generation_s = o->time_s / 25.0 < PAIRS_GENERATION_MIN_S   ? PAIRS_GENERATION_MIN_S
			   : o->time_s / 25.0 > PAIRS_GENERATION_MAX_S ? PAIRS_GENERATION_MAX_S
								       : o->time_s / 25.0;
	if (o->launches_set) /* --launches L: L generations share the budget */
		pr->generation_s = o->time_s / o->launches;
	stats_rng_seed(&rng, pr->order_seed);
	t0 = now_ns();
	/* generations of fresh children until the budget is spent: each
	 * process is placed and laid out anew, and the verdict is taken over
	 * generations, so that one process's luck is not mistaken for a change */
	while (status == EXIT_OK) {
		uint64_t s0 = now_ns(), s1;
		/* one at a time: the start-up and warm-up of one never overlap
		 * another's; in a random order, so that being started first
		 * (measured: about 2% in an A/A run) is no cell's privilege */
		int order[32];
		interrupt_doing("the start of the paired launches");
		pairs_order(order, nv, &rng);
		for (int i = 0; i < nv; i++)
			sv[i].cmd = sv[i].reply = sv[i].out = sv[i].err = -1;
		for (int k = 0; status == EXIT_OK && k < nv; k++) {
			int i = order[k];
			status = start(&sv[i], i, o, pr->caller_cpu, err, errlen);
			pr->cells[i].per_block = sv[i].ready.calls;
		}
		s1 = now_ns();
		interrupt_doing("the paired blocks");
		if (status == EXIT_OK)
			status = rounds(sv, nv, o, pr, &rng, t0, err, errlen);
		s0 += now_ns() - s1; /* what follows is start-up time too */
		interrupt_doing("the end of the paired launches");
		if (status == EXIT_OK)
			status = finish(sv, nv, o, err, errlen);
		for (int i = 0; i < nv; i++)
			close_server(&sv[i], i);
		pr->startup_s += (double)(now_ns() - s0) / 1e9;
		if (status != EXIT_OK)
			break;
		if ((stop = pairs_stop(pr, o, (double)(now_ns() - t0) / 1e9)) != NULL) {
			snprintf(pr->stopped_by, sizeof(pr->stopped_by), "%s", stop);
			break;
		}
	}
	pr->elapsed_s = (double)(now_ns() - t0) / 1e9;
	signal(SIGPIPE, old_pipe);
	/* the cells' names, now that the children said which mode ran */
	for (int i = 0; status == EXIT_OK && i < nv; i++)
		snprintf(pr->cells[i].name, sizeof(pr->cells[i].name), "%s",
			 p->v[i].ncells ? p->v[i].cells[0].name : p->v[i].exe);
	for (size_t k = 0; status == EXIT_OK && k < pr->nratios; k++)
		if (pr->ratios[k].judged)
			snprintf(pr->ratios[k].name, sizeof(pr->ratios[k].name), "%s",
				 pr->cells[pr->ratios[k].num].name);
	return status;
}
