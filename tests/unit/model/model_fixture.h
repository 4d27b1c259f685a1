/* model_fixture.h — synthetic documents with known answers, built as the
 * model's records (no measurement), for the unit tests. */
#ifndef CGOCOST_TEST_MODEL_FIXTURE_H
#define CGOCOST_TEST_MODEL_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* A launch whose one caller ran nb batches of 100 ops at per_op[i] ns/op. */
static inline struct launch_rec fixture_launch(double summary, double cpu, const double *per_op, int nb)
{
	struct launch_rec l;
	struct caller_rec *c = calloc(1, sizeof(*c));

	memset(&l, 0, sizeof(l));
	c->index = 1;
	c->batches = calloc((size_t)nb, sizeof(*c->batches));
	c->nbatches = (size_t)nb;
	for (int i = 0; i < nb; i++) {
		c->batches[i] = (struct batch_rec){ (uint64_t)(per_op[i] * 100.0), 100 };
		c->elapsed_ns += c->batches[i].ns;
	}
	c->extractions = 100 * (uint64_t)nb;
	c->ns_per_extraction = (double)c->elapsed_ns / (double)c->extractions;
	c->median_batch_ns = summary;
	c->slowest_batch_ns = per_op[nb - 1];
	c->cold_ns = 5000;
	c->pinned_cpu = -1;
	c->migrations = -1;
	l.callers = c;
	l.ncallers = 1;
	l.ns_per_extraction = summary;
	l.cpu_ns_per_extraction = cpu;
	l.other_cpu_ns_per_extraction = cpu - summary;
	l.callers_cpu_ns_per_extraction = summary;
	l.switches_per_1000 = 0.5;
	l.steal_ns = NAN;
	l.pool_waits = -1;
	snprintf(l.mode_in_effect, sizeof(l.mode_in_effect), "sync");
	return l;
}

/* Appends a cell of lib in mode with launches (taken over). */
static inline struct cell_rec *fixture_cell(struct doc *d, const char *lib, const char *mode,
					    struct launch_rec *launches, size_t n)
{
	struct cell_rec *c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));

	snprintf(c->name, sizeof(c->name), "lib=%s/mode=%s/work=noop/p=1", lib, mode);
	snprintf(c->scenario, sizeof(c->scenario), "extract");
	snprintf(c->allocator, sizeof(c->allocator), "glibc");
	snprintf(c->allocator_path, sizeof(c->allocator_path), "/lib/libc.so.6");
	snprintf(c->lib, sizeof(c->lib), "%s", lib);
	snprintf(c->executable, sizeof(c->executable), "/build/bench");
	snprintf(c->go_version, sizeof(c->go_version), "go1.26.8");
	snprintf(c->sdk_version, sizeof(c->sdk_version), "v0.8.3");
	c->gomaxprocs = 2;
	c->max_handle = 255;
	snprintf(c->requested, sizeof(c->requested), "%s", mode);
	snprintf(c->in_effect, sizeof(c->in_effect), "%s", mode);
	c->launches = launches;
	c->nlaunches = n;
	c->stalled_launches_rerun = n >= 2 ? 0 : -1;
	return c;
}

static inline void fixture_doc(struct doc *d)
{
	memset(d, 0, sizeof(*d));
	d->schema_version = SCHEMA_VERSION;
	snprintf(d->machine.cpu_model, sizeof(d->machine.cpu_model), "Test CPU");
	snprintf(d->machine.kernel, sizeof(d->machine.kernel), "6.1");
	snprintf(d->machine.arch, sizeof(d->machine.arch), "x86_64");
	d->machine.online_cpus = 2;
	d->machine.allowed_cpus = 2;
	options_defaults(&d->options);
	d->options.n = 1000;
	d->options.warmup = 10;
}

/* n launches, launch i at base + i * step ns and cpu + i. */
static inline struct launch_rec *fixture_launches(size_t n, double base, double step, double cpu)
{
	struct launch_rec *ls = calloc(n, sizeof(*ls));
	double b[2] = { 1, 1 };
	for (size_t i = 0; i < n; i++)
		ls[i] = fixture_launch(base + step * (double)i, cpu + (double)i, b, 2);
	return ls;
}

#endif
