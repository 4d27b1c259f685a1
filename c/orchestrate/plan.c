/* orchestrate/plan.c — see plan.h. */
#include "orchestrate/plan.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/selfpath.h"
#include "base/status.h"
#include "model/codec.h"
#include "model/codec_identity.h"
#include "orchestrate/childargs.h"
#include "orchestrate/launch.h"
#include "orchestrate/progress.h"

static int add_variant(struct plan *p, const char *exe, int async, char *err, size_t errlen)
{
	struct variant *v = &p->v[p->nv];
	if (p->nv >= (int)(sizeof(p->v) / sizeof(p->v[0]))) {
		snprintf(err, errlen, "too many cells");
		return -1;
	}
	if (access(exe, X_OK) != 0) {
		snprintf(err, errlen, "%s is not an executable bench", exe);
		return -1;
	}
	snprintf(v->exe, sizeof(v->exe), "%s", exe);
	v->async = async;
	v->work = -1;
	v->host_calls = -1;
	p->nv++;
	return 0;
}

/* --anatomy: per mode, the work steps in order, with the minimal driver
 * right after bare (adjacent launches: their per-round ratio is paired). */
static int add_anatomy(struct plan *p, const char *exe, char *err, size_t errlen)
{
	static const enum work steps[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	char minimal[PATH_MAX];

	if (sibling_path(exe, "bench-minimal", minimal, sizeof(minimal)) != 0) {
		snprintf(err, errlen, "path too long: %s", exe);
		return -1;
	}
	for (int async = 0; async < 2; async++)
		for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
			if (add_variant(p, exe, async, err, errlen) != 0)
				return -1;
			p->v[p->nv - 1].work = (int)steps[k];
			if (steps[k] != WORK_BARE)
				continue;
			if (add_variant(p, minimal, async, err, errlen) != 0)
				return -1;
			p->v[p->nv - 1].minimal = 1;
		}
	return 0;
}

/* --compare's fifth cell: the C plugin (libcmock.so) in bench-host, the
 * no-Go baseline, when both are built next to exe. */
static int add_c_plugin(struct plan *p, const char *exe, char *err, size_t errlen)
{
	char host[PATH_MAX], lib[PATH_MAX];

	if (sibling_path(exe, "bench-host", host, sizeof(host)) != 0 ||
	    sibling_path(exe, "libcmock.so", lib, sizeof(lib)) != 0 || access(host, X_OK) != 0 ||
	    access(lib, R_OK) != 0) {
		fprintf(stderr, "bench: note: no bench-host and libcmock.so next to %s: no C plugin row\n", exe);
		return 0;
	}
	if (add_variant(p, host, 0, err, errlen) != 0)
		return -1;
	snprintf(p->v[p->nv - 1].plugin, sizeof(p->v[p->nv - 1].plugin), "%s", lib);
	return 0;
}

/* --compare's round-trip cell: the C plugin's own async (a spin handoff in
 * C, no Go) with bare work, the variant after the C plugin's: each of its
 * extractions is one cache-line round trip between the caller's CPU and the
 * CPU of the worker, placed as the SDK's worker is, in the same rounds as
 * the async cells it is the floor of. */
static int add_round_trip(struct plan *p, char *err, size_t errlen)
{
	if (add_variant(p, p->v[p->nv - 1].exe, 1, err, errlen) != 0)
		return -1;
	memcpy(p->v[p->nv - 1].plugin, p->v[p->nv - 2].plugin, sizeof(p->v[0].plugin));
	p->v[p->nv - 1].work = WORK_BARE;
	return 0;
}

/* --per-event K --host-calls both: per-field then batched (adjacent, the
 * pair of each ratio), sync and async, and the C plugin's pair in sync; a
 * --plugin library in the mode asked only (its async is its own business). */
static int add_per_event(struct plan *p, const char *exe, const struct options *o, char *err, size_t errlen)
{
	int first = p->nv;

	for (int async = 0; async < 2; async++) {
		if (o->nlibs && async != o->async)
			continue;
		for (int h = HOST_CALLS_PER_FIELD; h <= HOST_CALLS_BATCHED; h++) {
			if (add_variant(p, exe, async, err, errlen) != 0)
				return -1;
			p->v[p->nv - 1].host_calls = h;
		}
	}
	if (o->nlibs || o->base == BASE_BUILD)
		return 0;
	if (add_c_plugin(p, exe, err, errlen) != 0)
		return -1;
	if (p->nv == first + 4)
		return 0; /* no C plugin built */
	p->v[p->nv - 1].host_calls = HOST_CALLS_PER_FIELD;
	if (add_c_plugin(p, exe, err, errlen) != 0)
		return -1;
	p->v[p->nv - 1].host_calls = HOST_CALLS_BATCHED;
	return 0;
}

/* --compare's harness check, paired: bench --work bare and the textbook
 * loop (bench-textbook), sync and async, when it is built next to exe;
 * its ratios are paired ones, so not in launches, and not against a base
 * build (a check of this build). */
static int add_textbook(struct plan *p, const char *exe, const struct options *o, char *err, size_t errlen)
{
	char textbook[PATH_MAX];

	if (o->method != METHOD_PAIRED || o->base == BASE_BUILD)
		return 0;
	if (sibling_path(exe, "bench-textbook", textbook, sizeof(textbook)) != 0 || access(textbook, X_OK) != 0) {
		fprintf(stderr, "bench: note: no bench-textbook next to %s: no bench/textbook rows\n", exe);
		return 0;
	}
	for (int async = 0; async < 2; async++) {
		if (add_variant(p, exe, async, err, errlen) != 0)
			return -1;
		p->v[p->nv - 1].work = WORK_BARE;
		if (add_variant(p, textbook, async, err, errlen) != 0)
			return -1;
		p->v[p->nv - 1].minimal = 1;
	}
	return 0;
}

/* The cells of one build: this one's, or with base the --against build's. */
static int add_build(struct plan *p, const char *exe, const struct options *o, int base, char *err, size_t errlen)
{
	char shared[PATH_MAX];
	int first;

	if (o->kind == RUN_INTERFERENCE) {
		/* A alone, beside B idle, beside B busy; sync and async */
		for (int beside = 0; beside < 3; beside++)
			for (int async = 0; async < 2; async++) {
				if (add_variant(p, exe, async, err, errlen) != 0)
					return -1;
				p->v[p->nv - 1].beside = beside;
			}
		return 0;
	}
	if (o->kind == RUN_PER_EVENT)
		return add_per_event(p, exe, o, err, errlen);
	if (o->kind == RUN_PLUGIN_COMPARE) {
		/* the plugin's two configurations: sync, then async */
		if (add_variant(p, exe, 0, err, errlen) != 0)
			return -1;
		p->v[p->nv - 1].plugin_config = o->sync_config;
		if (add_variant(p, exe, 1, err, errlen) != 0)
			return -1;
		p->v[p->nv - 1].plugin_config = o->async_config;
		return 0;
	}
	if (o->kind != RUN_COMPARE)
		return add_variant(p, exe, o->async, err, errlen);
	/* --compare: the archive build and its shared sibling, sync and async */
	if (sibling_path(exe, "bench-shared", shared, sizeof(shared)) != 0) {
		snprintf(err, errlen, "path too long: %s", exe);
		return -1;
	}
	if (add_variant(p, exe, 0, err, errlen) || add_variant(p, exe, 1, err, errlen) ||
	    add_variant(p, shared, 0, err, errlen) || add_variant(p, shared, 1, err, errlen))
		return -1;
	first = p->nv;
	if (add_c_plugin(p, exe, err, errlen) != 0)
		return -1;
	/* the round trip when the C plugin is built, and not in the --against
	 * build's cells: it is the machine's, measured once, and an older
	 * build's C plugin may have no async */
	if (p->nv > first && !base && add_round_trip(p, err, errlen) != 0)
		return -1;
	return add_textbook(p, exe, o, err, errlen);
}

/* Every variant's launch must fit its argument list (a paired child's list
 * has room for the --serve-blocks it adds): found before anything is
 * measured, as bad input (a 100 KB --field or --plugin value). */
static int check_args(const struct plan *p, const struct options *o, char *err, size_t errlen)
{
	char *argv[PLAN_MAX_ARGS], store[PLAN_ARGS_BYTES];

	for (int i = 0; i < p->nv; i++)
		if (child_args(o, &p->v[i], argv, PLAN_MAX_ARGS, store, sizeof(store)) < 0) {
			snprintf(err, errlen,
				 "arguments too long for a launch of %s: more than %d arguments or %d bytes (a shorter "
				 "--plugin, --field or --events value)",
				 p->v[i].exe, PLAN_MAX_ARGS, PLAN_ARGS_BYTES);
			return -1;
		}
	return 0;
}

int plan_build(struct plan *p, const struct options *o, char *err, size_t errlen)
{
	char self[PATH_MAX], other[PATH_MAX];

	memset(p, 0, sizeof(*p));
	if (self_path(self, sizeof(self)) != 0) {
		snprintf(err, errlen, "cannot find this executable");
		return -1;
	}
	if (o->kind == RUN_COMPARE || o->kind == RUN_ANATOMY) {
		/* the table starts from the archive build, whichever was run */
		const char *base = strrchr(self, '/');
		if (base && strcmp(base + 1, "bench-shared") == 0)
			snprintf(self + (base - self) + 1, sizeof(self) - (size_t)(base - self) - 1, "bench");
	}
	if (o->kind == RUN_ALLOCATORS) {
		for (int i = 0; i < o->nallocators; i++) {
			if (add_build(p, self, o, 0, err, errlen) != 0)
				return -1;
			p->v[p->nv - 1].malloc_name = o->allocators[i];
		}
	} else if (o->kind == RUN_ANATOMY) {
		if (add_anatomy(p, self, err, errlen) != 0)
			return -1;
	} else if (add_build(p, self, o, 0, err, errlen) != 0) {
		return -1;
	}
	p->nself = p->nv;
	if (o->base == BASE_BUILD) {
		if (realpath(o->against, other) == NULL) {
			snprintf(err, errlen, "--against: cannot find '%s'", o->against);
			return -1;
		}
		if (add_build(p, other, o, 1, err, errlen) != 0)
			return -1;
		for (int i = p->nself; i < p->nv; i++) {
			p->v[i].base = 1;
			/* your plugin's gate: this driver, the base build's library */
			if (o->against_plugin)
				snprintf(p->v[i].plugin, sizeof(p->v[i].plugin), "%s", o->against_plugin);
		}
	}
	return check_args(p, o, err, errlen);
}

int child_args(const struct options *o, const struct variant *v, char **argv, int max, char *store, size_t storelen)
{
	struct options co = *o;
	int n;

	/* what differs between variants: the mode, the allocator, the slowdown
	 * (injected into the build under test only, never the --against base) */
	co.async = v->async;
	if (v->work >= 0)
		co.work = (enum work)v->work;
	co.extra_ns = v->base ? 0 : o->extra_ns + (v->async ? o->async_extra_ns : 0);
	co.slowdown_pct = v->base ? 0 : o->slowdown_pct;
	if (v->host_calls >= 0)
		co.host_calls = (enum host_calls)v->host_calls;
	if (v->malloc_name)
		co.malloc_name = v->malloc_name;
	if (v->plugin[0]) {
		co.libs[0] = v->plugin;
		co.nlibs = 1;
	}
	/* the plugin's own configuration sets the mode: the child asks for
	 * none (-a is cgocost's configuration) and the parent checks the
	 * mode it reports against v->async */
	if (v->plugin_config) {
		co.plugin_config = v->plugin_config;
		co.async = 0;
	}
	if (o->kind == RUN_INTERFERENCE) {
		co.idle = v->beside == 1 ? o->busy : NULL;
		co.busy = v->beside == 2 ? o->busy : NULL;
		co.alloc_bytes = v->beside == 2 ? o->alloc_bytes : 0;
	}
	if (max < 5 || snprintf(store, storelen, "%llu", (unsigned long long)o->n) >= (int)storelen)
		return -1;
	argv[0] = (char *)v->exe;
	if (v->minimal) {
		/* the textbook loop takes -n and -a, nothing else */
		argv[1] = (char *)"-n";
		argv[2] = store;
		argv[3] = v->async ? (char *)"-a" : NULL;
		argv[4] = NULL;
		return v->async ? 4 : 3;
	}
	n = options_child_args(&co, argv + 1, max - 3, store, storelen);
	if (n < 0)
		return -1;
	argv[n + 1] = (char *)"--emit-launch";
	argv[n + 2] = NULL;
	return n + 2;
}

/* Which launch, of how many: said to an interrupt, and on the progress
 * line (progress.h) between launches. */
static void announce(struct progress *line, uint32_t done, uint32_t total, const struct variant *v)
{
	const char *base = strrchr(v->exe, '/');
	char what[PATH_MAX + 64];

	snprintf(what, sizeof(what), "launch %u of %u (%s%s%s%s%s%s)", done + 1, total, base ? base + 1 : v->exe,
		 v->async ? " async" : " sync", v->malloc_name ? " malloc=" : "", v->malloc_name ? v->malloc_name : "",
		 v->beside == 1	  ? " beside idle"
		 : v->beside == 2 ? " beside busy"
				  : "",
		 v->host_calls == HOST_CALLS_BATCHED	 ? " batched"
		 : v->host_calls == HOST_CALLS_PER_FIELD ? " per-field"
							 : "");
	interrupt_doing(what);
	progress_show(line, what, "");
}

/* One launch of a variant; a launch whose caller stalled (its watchdog
 * ended it) is run again, at most twice, and counted: it measured nothing.
 * What it measured in *identity (malloc'd; NULL for the minimal driver). */
static int launch_variant(struct variant *v, const struct options *o, struct doc *child, char **identity, char *err,
			  size_t errlen)
{
	char *argv[PLAN_MAX_ARGS], store[PLAN_ARGS_BYTES];
	int status, bound = plan_bound_ms(o, 1);

	*identity = NULL;
	if (child_args(o, v, argv, PLAN_MAX_ARGS, store, sizeof(store)) < 0) {
		snprintf(err, errlen, "arguments too long for a launch");
		return EXIT_RUN_FAILED;
	}
	if (v->minimal)
		return launch_minimal(argv, o, v->async, child, err, errlen);
	status = launch_document_within(argv, bound, child, identity, err, errlen);
	for (int retry = 0; status == EXIT_CHILD_STALLED && retry < 2; retry++) {
		v->stalled++;
		fprintf(stderr, "bench: warning: %s stalled (%s); running that launch again\n", v->exe, err);
		status = launch_document_within(argv, bound, child, identity, err, errlen);
	}
	return status == EXIT_CHILD_STALLED ? EXIT_RUN_FAILED : status;
}

int plan_bound_ms(const struct options *o, int whole)
{
	double us = (o->nlibs || o->busy || o->idle ? PLAN_US_PER_LIBRARY_CALL : PLAN_US_PER_CALL) +
		    (double)(o->extra_ns + o->async_extra_ns) / 1000.0;
	double calls = (double)o->warmup * o->plugins, ms;

	if (o->stall_timeout_s == 0)
		return -1;
	if (whole) /* a lifecycle iteration makes an instance: ten calls' worth, in two scenarios */
		calls += (double)o->n * o->plugins * (o->lifecycle ? 20 : 1) * (o->floors ? 10 : 1);
	ms = 2000.0 * o->stall_timeout_s + 10000.0 + calls * us / 1000.0;
	if (whole && o->rate > 0)
		ms += 1000.0 * (o->time_s > 0 ? o->time_s : (double)o->n / o->rate);
	for (int g = 0; whole && g < o->ngaps; g++)
		ms += (double)o->n * (double)o->gaps_us[g] / 1000.0;
	return ms >= INT_MAX ? INT_MAX : (int)ms;
}

/* plan_check_identity with the identity id (NULL: none could be read),
 * which it takes. */
static int check_identity(struct plan *p, int i, char *id, char *err, size_t errlen)
{
	struct variant *v = &p->v[i], *mine = i >= p->nself && i - p->nself < p->nself ? &p->v[i - p->nself] : NULL;
	char cell[MODEL_NAME_MAX], what[400];

	if (v->minimal) {
		free(id);
		return EXIT_OK;
	}
	if (id == NULL) {
		snprintf(err, errlen, "launch of %s printed no valid document (no options or cells)", v->exe);
		return EXIT_RUN_FAILED;
	}
	if (v->identity == NULL) {
		v->identity = id;
	} else {
		int changed = identity_diff(v->identity, id, cell, sizeof(cell), what, sizeof(what));
		free(id);
		if (changed) {
			snprintf(err, errlen, "%s changed what it measures between launches: the cell %s, then %s",
				 v->exe, cell, what);
			return EXIT_RUN_FAILED;
		}
	}
	if (mine && mine->identity &&
	    identity_diff(mine->identity, v->identity, cell, sizeof(cell), what, sizeof(what))) {
		snprintf(err, errlen,
			 "--against %s did not measure the cell %s of this build: it ran %s; the two sides must "
			 "measure the same cells, nothing was compared",
			 v->exe, cell, what);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

int plan_check_identity(struct plan *p, int i, const char *text, char *err, size_t errlen)
{
	return check_identity(p, i, doc_identity(text, strlen(text)), err, errlen);
}

int plan_run(struct plan *p, const struct options *o, char *err, size_t errlen)
{
	int status = EXIT_OK;
	uint32_t total = o->launches * (uint32_t)p->nv, done = 0;
	struct progress line;

	progress_begin(&line, o, 0);

	for (uint32_t round = 0; status == EXIT_OK && round < o->launches; round++) {
		for (int i = 0; status == EXIT_OK && i < p->nv; i++, done++) {
			struct doc child;
			char *identity;
			announce(&line, done, total, &p->v[i]);
			memset(&child, 0, sizeof(child));
			status = launch_variant(&p->v[i], o, &child, &identity, err, errlen);
			if (status == EXIT_OK && !p->v[i].minimal)
				status = check_identity(p, i, identity, err, errlen);
			else
				free(identity);
			if (status == EXIT_OK)
				status = plan_merge_launch(&p->v[i], &child, err, errlen);
			doc_free(&child);
		}
	}
	progress_end(&line);
	return status;
}

int plan_document(struct plan *p, int from, int to, const struct machine_rec *m, const struct options *o, struct doc *d)
{
	doc_begin(d, m, o);
	for (int i = from; i < to; i++)
		for (size_t k = 0; k < p->v[i].ncells; k++) {
			struct cell_rec *c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));
			if (c == NULL)
				return -1;
			*c = p->v[i].cells[k];
			c->stalled_launches_rerun = p->v[i].stalled;
		}
	for (int i = from; i < to; i++) {
		free(p->v[i].cells); /* the contents now belong to d */
		p->v[i].cells = NULL;
		p->v[i].ncells = 0;
	}
	return 0;
}

void plan_free(struct plan *p)
{
	for (int i = 0; i < p->nv; i++) {
		struct doc owner = { .cells = p->v[i].cells, .ncells = p->v[i].ncells };
		doc_free(&owner);
		free(p->v[i].identity);
	}
	memset(p, 0, sizeof(*p));
}
