/* model/codec_counts.c — see codec_counts.h: a cell's "counts". The
 * record's fixed arrays (a figure's pairs, the names) are written from
 * their counts and read back within their bounds. */
#include "model/codec_counts.h"

#include <stdlib.h>
#include <string.h>

static void count_fig_fields(struct obj *o, void *rec)
{
	struct count_fig *f = rec;
	double *x = o->c->dir == WRITE ? f->per_pair : NULL;
	size_t n = o->c->dir == WRITE ? f->npairs : 0;

	f_num(o, "median", &f->median);
	f_num(o, "min", &f->min);
	f_num(o, "max", &f->max);
	f_nums(o, "pairs", &x, &n);
	if (o->c->dir != READ)
		return;
	if (n > COUNT_PAIRS_MAX)
		codec_failf(o->c, "more than %d pairs", COUNT_PAIRS_MAX);
	else if (n)
		memcpy(f->per_pair, x, n * sizeof(*x));
	f->npairs = n > COUNT_PAIRS_MAX ? 0 : n;
	free(x);
}

static void count_syscall_fields(struct obj *o, void *rec)
{
	struct count_syscall *s = rec;
	f_str(o, "name", s->name);
	f_sub(o, "per_extraction", count_fig_fields, &s->per_op, NULL);
}

static void count_instructions_fields(struct obj *o, void *rec)
{
	struct counts_rec *r = rec;
	f_str(o, "tool", r->instructions_tool);
	f_num(o, "seconds", &r->instructions_s);
	f_sub(o, "per_extraction", count_fig_fields, &r->instructions, NULL);
}

static void count_syscalls_fields(struct obj *o, void *rec)
{
	struct counts_rec *r = rec;
	struct count_syscall *names = o->c->dir == WRITE ? r->by_name : NULL;
	size_t n = o->c->dir == WRITE ? r->nnames : 0;

	f_str(o, "tool", r->syscalls_tool);
	f_num(o, "seconds", &r->syscalls_s);
	f_sub(o, "per_extraction", count_fig_fields, &r->syscalls, NULL);
	f_list(o, "by_name", &names, &n, count_syscall_fields);
	f_sub(o, "context_switches", count_fig_fields, &r->context_switches, NULL);
	f_sub(o, "page_faults", count_fig_fields, &r->page_faults, NULL);
	if (o->c->dir != READ)
		return;
	if (n > COUNT_NAMES_MAX)
		codec_failf(o->c, "more than %d system calls by name", COUNT_NAMES_MAX);
	else if (n)
		memcpy(r->by_name, names, n * sizeof(*names));
	r->nnames = n > COUNT_NAMES_MAX ? 0 : n;
	free(names);
}

static void counts_fields(struct obj *o, void *rec)
{
	struct counts_rec *r = rec;
	f_u64(o, "n_short", &r->n_short);
	f_u64(o, "n_long", &r->n_long);
	f_u64(o, "extractions", &r->ops);
	f_u32(o, "pairs", &r->pairs);
	f_sub(o, "instructions", count_instructions_fields, r, &r->has_instructions);
	int skipped = r->instructions_not_counted[0] != '\0';
	if (f_opt(o, "instructions_not_counted", &skipped))
		f_str(o, "instructions_not_counted", r->instructions_not_counted);
	f_sub(o, "syscalls", count_syscalls_fields, r, &r->has_syscalls);
}

const visit_fn codec_counts_fields = counts_fields;

static void floor_counts_fields(struct obj *o, void *rec)
{
	struct counts_rec *floors = rec;
	for (int k = 0; k < FLOOR_COUNTED; k++)
		f_sub(o, floor_kind_key((enum floor_kind)k), counts_fields, &floors[k], NULL);
}

const visit_fn codec_floor_counts_fields = floor_counts_fields;
