/* report/gobench.c — see gobench.h. */
#include "report/gobench.h"

#include <string.h>

/* --per-event: an op is an event of K fields; its cost per field too. */
static void per_field_metric(FILE *out, const struct launch_rec *l, double ns_per_op)
{
	if (l->has_per_event && l->per_event.fields)
		fprintf(out, "\t%.2f ns/field", ns_per_op / l->per_event.fields);
	fputc('\n', out);
}

/* --count: pair k's counts on the cell's k-th line (benchstat takes each
 * line as a sample of every unit on it: the pairs are the counts' samples,
 * the batches the times'). */
static void count_metrics(FILE *out, const struct cell_rec *c, size_t k)
{
	const struct counts_rec *r = &c->counts;

	if (!c->has_counts)
		return;
	if (r->has_instructions && k < r->instructions.npairs)
		fprintf(out, "\t%.2f instr/op", r->instructions.per_pair[k]);
	if (r->has_syscalls && k < r->syscalls.npairs)
		fprintf(out, "\t%.4f syscalls/op", r->syscalls.per_pair[k]);
}

void report_gobench(FILE *out, const struct doc *d)
{
	const char *arch = d->machine.arch;

	fprintf(out, "goos: linux\ngoarch: %s\ncpu: %s\npkg: cgocost\n",
		strcmp(arch, "x86_64") == 0    ? "amd64"
		: strcmp(arch, "aarch64") == 0 ? "arm64"
					       : arch,
		d->machine.cpu_model);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		char name[MODEL_NAME_MAX + 32];

		snprintf(name, sizeof(name), "BenchmarkExtract/%s-%d", c->name, c->gomaxprocs);
		if (c->nlaunches >= 2) {
			for (size_t j = 0; j < c->nlaunches; j++) {
				fprintf(out, "%s\t%llu\t%.2f ns/op\t%.2f cpu-ns/op", name,
					(unsigned long long)launch_requests(&c->launches[j]),
					c->launches[j].ns_per_extraction, c->launches[j].cpu_ns_per_extraction);
				per_field_metric(out, &c->launches[j], c->launches[j].ns_per_extraction);
			}
			continue;
		}
		if (c->has_latency) {
			/* an open-loop cell: one line per caller, its latency as extra metrics */
			for (size_t j = 0; c->nlaunches && j < c->launches[0].ncallers; j++) {
				const struct caller_rec *p = &c->launches[0].callers[j];
				fprintf(out, "%s\t%llu\t%.2f ns/op\t%.0f p50-ns\t%.0f p99-ns\t%.2f cpu-ns/op\n", name,
					(unsigned long long)p->extractions, p->ns_per_extraction, p->latency.s.p50,
					p->latency.s.p99, c->latency.cpu_ns_per_event);
			}
			continue;
		}
		/* one launch: its batches are the samples */
		for (size_t j = 0; c->nlaunches && j < c->launches[0].ncallers; j++) {
			const struct caller_rec *p = &c->launches[0].callers[j];
			for (size_t k = 0; k < p->nbatches; k++) {
				double per = (double)p->batches[k].ns / (double)p->batches[k].ops;
				fprintf(out, "%s\t%llu\t%.2f ns/op", name, (unsigned long long)p->batches[k].ops, per);
				count_metrics(out, c, j * p->nbatches + k);
				per_field_metric(out, &c->launches[0], per);
			}
		}
	}
	/* a configuration line (key: value), which benchstat carries along */
	if (d->has_comparison) {
		char said[MODEL_TEXT_MAX + MODEL_NAME_MAX + 256];
		fprintf(out, "cgocost-verdict: %s\n", comparison_sentence(&d->comparison, said, sizeof(said)));
	}
}
