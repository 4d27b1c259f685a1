/* plan.c — see plan.h. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonutil.h"
#include "launch.h"

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
	v->cells = NULL;
	p->nv++;
	return 0;
}

static int add_build(struct plan *p, const char *exe, const struct options *o, char *err, size_t errlen)
{
	char shared[PATH_MAX];

	if (!o->compare)
		return add_variant(p, exe, o->async, err, errlen);
	/* --compare: the archive build and its shared sibling, sync and async */
	if (sibling_path(exe, "bench-shared", shared, sizeof(shared)) != 0) {
		snprintf(err, errlen, "path too long: %s", exe);
		return -1;
	}
	if (add_variant(p, exe, 0, err, errlen) || add_variant(p, exe, 1, err, errlen) ||
	    add_variant(p, shared, 0, err, errlen) || add_variant(p, shared, 1, err, errlen))
		return -1;
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
	if (o->compare) {
		/* the table starts from the archive build, whichever was run */
		const char *base = strrchr(self, '/');
		if (base && strcmp(base + 1, "bench-shared") == 0)
			snprintf(self + (base - self) + 1, sizeof(self) - (size_t)(base - self) - 1, "bench");
	}
	if (o->nallocators) {
		for (int i = 0; i < o->nallocators; i++) {
			if (add_build(p, self, o, err, errlen) != 0)
				return -1;
			p->v[p->nv - 1].malloc_name = o->allocators[i];
		}
	} else if (add_build(p, self, o, err, errlen) != 0) {
		return -1;
	}
	p->nself = p->nv;
	if (o->against) {
		if (realpath(o->against, other) == NULL) {
			snprintf(err, errlen, "--against: cannot find '%s'", o->against);
			return -1;
		}
		if (add_build(p, other, o, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int child_args(const struct options *o, const struct variant *v, char **argv, int max, char *store,
	       size_t storelen)
{
	int argc = 0;
	size_t used = 0;
	char cpus[4096] = "";

#define ARG(s)                                                                                     \
	do {                                                                                       \
		if (argc >= max - 1)                                                               \
			return -1;                                                                 \
		argv[argc++] = (char *)(s);                                                        \
	} while (0)
#define NUM(fmt, x)                                                                                \
	do {                                                                                       \
		int n_ = snprintf(store + used, storelen - used, fmt, x);                          \
		if (n_ < 0 || (size_t)n_ >= storelen - used)                                       \
			return -1;                                                                 \
		ARG(store + used);                                                                 \
		used += (size_t)n_ + 1;                                                            \
	} while (0)

	ARG(v->exe);
	ARG("-n");
	NUM("%llu", (unsigned long long)o->n);
	ARG("-p");
	NUM("%u", o->plugins);
	ARG("-r");
	NUM("%u", o->runs);
	ARG("--work");
	ARG(work_name(o->work));
	ARG("--fields");
	NUM("%u", o->fields);
	ARG("--warmup");
	NUM("%llu", (unsigned long long)o->warmup);
	ARG("--stall-timeout");
	NUM("%u", o->stall_timeout_s);
	ARG("--extra-ns");
	NUM("%llu", (unsigned long long)(o->extra_ns + (v->async ? o->async_extra_ns : 0)));
	if (v->async)
		ARG("-a");
	if (o->floors)
		ARG("--floors");
	if (o->ncpus) {
		size_t k = 0;
		for (int i = 0; i < o->ncpus; i++)
			k += (size_t)snprintf(cpus + k, sizeof(cpus) - k, "%s%d", i ? "," : "", o->cpus[i]);
		ARG("--cpus");
		NUM("%s", cpus);
	}
	if (o->lifecycle) {
		ARG("--scenario");
		ARG("lifecycle");
		ARG("--pool");
		NUM("%u", o->pool);
	}
	if (v->malloc_name || o->malloc_name) {
		ARG("--malloc");
		ARG(v->malloc_name ? v->malloc_name : o->malloc_name);
	}
	if (o->count_allocs)
		ARG("--count-allocs");
	if (o->plugin_config) {
		ARG("--plugin-config");
		ARG(o->plugin_config);
	}
	ARG("--emit-launch");
	argv[argc] = NULL;
	return argc;
#undef ARG
#undef NUM
}

/* Progress on stderr, only when it is a terminal: which launch, of how many. */
static void progress(int on, uint32_t done, uint32_t total, const struct variant *v)
{
	const char *base;
	if (!on)
		return;
	base = strrchr(v->exe, '/');
	fprintf(stderr, "\r\033[Klaunch %u/%u: %s%s%s%s", done + 1, total, base ? base + 1 : v->exe,
		v->async ? " async" : " sync", v->malloc_name ? " malloc=" : "",
		v->malloc_name ? v->malloc_name : "");
	fflush(stderr);
}

int plan_run(struct plan *p, const struct options *o, char *err, size_t errlen)
{
	int tty = isatty(2);
	uint32_t total = o->launches * (uint32_t)p->nv, done = 0;

	for (uint32_t round = 0; round < o->launches; round++) {
		for (int i = 0; i < p->nv; i++, done++) {
			struct variant *v = &p->v[i];
			progress(tty, done, total, v);
			char *argv[40], store[8192];
			int status = 3;
			json_t *doc, *cell, *launch;

			if (child_args(o, v, argv, 40, store, sizeof(store)) < 0) {
				snprintf(err, errlen, "arguments too long for a launch");
				return 3;
			}
			doc = launch_document(argv, &status, err, errlen);
			/* a launch whose caller stalled (the watchdog ended it) is run
			 * again, at most twice, and counted: it measured nothing */
			for (int retry = 0; doc == NULL && status == 3 && retry < 2 && strstr(err, "made no progress"); retry++) {
				v->stalled++;
				fprintf(stderr, "bench: warning: %s stalled (%s); running that launch again\n", v->exe, err);
				doc = launch_document(argv, &status, err, errlen);
			}
			if (doc == NULL) {
				if (tty)
					fprintf(stderr, "\r\033[K");
				return status;
			}
			if (json_array_size(json_object_get(doc, "cells")) == 0) {
				snprintf(err, errlen, "launch of %s printed a document without a cell", v->exe);
				json_decref(doc);
				return 3;
			}
			if (v->cells == NULL) {
				size_t k;
				v->cells = json_array();
				json_array_foreach(json_object_get(doc, "cells"), k, cell)
				{
					json_t *c = json_deep_copy(cell);
					json_object_set_new(c, "launches", json_array());
					json_array_append_new(v->cells, c);
				}
			}
			{
				size_t k;
				json_array_foreach(json_object_get(doc, "cells"), k, cell)
				{
					json_t *mine = json_array_get(v->cells, k);
					launch = json_array_get(json_object_get(cell, "launches"), 0);
					if (mine == NULL || launch == NULL || jget_str(cell, "name") == NULL ||
					    strcmp(jget_str(mine, "name"), jget_str(cell, "name")) != 0) {
						snprintf(err, errlen,
							 "%s: the mode in effect changed between launches (%s, then %s)",
							 v->exe, mine ? jget_str(mine, "name") : "nothing",
							 jget_str(cell, "name") ? jget_str(cell, "name") : "nothing");
						json_decref(doc);
						return 3;
					}
					json_array_append(json_object_get(mine, "launches"), launch);
				}
			}
			json_decref(doc);
		}
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	return 0;
}

json_t *plan_document(const struct plan *p, int from, int to, json_t *machine, json_t *options)
{
	json_t *cells = json_array();
	for (int i = from; i < to; i++) {
		size_t k;
		json_t *c;
		json_array_foreach(p->v[i].cells, k, c)
		{
			json_object_set_new(c, "stalled_launches_rerun", json_integer(p->v[i].stalled));
			json_array_append(cells, c);
		}
	}
	return json_pack("{s:i, s:s, s:O, s:O, s:o, s:n}", "schema_version", 1, "generator",
			 "cgocost bench", "machine", machine, "options", options, "cells", cells,
			 "comparison");
}

void plan_free(struct plan *p)
{
	for (int i = 0; i < p->nv; i++)
		json_decref(p->v[i].cells);
	memset(p, 0, sizeof(*p));
}
