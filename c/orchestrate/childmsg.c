/* orchestrate/childmsg.c — see childmsg.h. */
#include "orchestrate/childmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "model/codec.h"

int childmsg_ready(const struct block_reply *ready, const struct variant *v, char *err, size_t errlen)
{
	if (ready->async_in_effect >= 0 && ready->async_in_effect != v->async && v->plugin_config) {
		snprintf(
			err, errlen,
			"paired launch of %s: the plugin's --%s-config %s ran %s (the mode in effect, verified): refusing "
			"to pair it",
			v->exe, v->async ? "async" : "sync", v->plugin_config,
			ready->async_in_effect ? "async" : "sync");
		return -1;
	}
	if (ready->async_in_effect >= 0 && ready->async_in_effect != v->async) {
		snprintf(err, errlen, "paired launch of %s: %s was asked for, but Extract ran %s: refusing to pair it",
			 v->exe, v->async ? "async" : "sync",
			 ready->async_in_effect ? "on another thread (async)" : "on the caller's thread (sync)");
		return -1;
	}
	return 0;
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

int childmsg_block(struct pair_cell_rec *c, size_t *cap, const struct block_reply *r, int after)
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

int childmsg_document(struct variant *v, const char *out, char *err, size_t errlen)
{
	char why[600];
	struct doc child;
	int status;

	if (out == NULL || doc_loads(&child, out, strlen(out), why, sizeof(why)) != 0) {
		snprintf(err, errlen, "paired launch of %s printed no valid document (%s)", v->exe,
			 out ? why : "unreadable");
		return EXIT_RUN_FAILED;
	}
	status = plan_merge_launch(v, &child, err, errlen);
	doc_free(&child);
	return status;
}

int plan_merge_launch(struct variant *v, struct doc *child, char *err, size_t errlen)
{
	if (child->ncells == 0) {
		snprintf(err, errlen, "launch of %s printed a document without a cell", v->exe);
		return EXIT_RUN_FAILED;
	}
	if (v->cells == NULL) {
		v->cells = child->cells;
		v->ncells = child->ncells;
		child->cells = NULL;
		child->ncells = 0;
		return EXIT_OK;
	}
	if (child->ncells < v->ncells) { /* a cell of the first launch is missing */
		snprintf(err, errlen, "%s: the mode in effect changed between launches (%s, then nothing)", v->exe,
			 v->cells[child->ncells].name);
		return EXIT_RUN_FAILED;
	}
	for (size_t k = 0; k < child->ncells; k++) {
		struct cell_rec *mine = k < v->ncells ? &v->cells[k] : NULL, *c = &child->cells[k];
		struct launch_rec *l;
		if (mine == NULL || c->nlaunches != 1 || strcmp(mine->name, c->name) != 0) {
			snprintf(err, errlen, "%s: the mode in effect changed between launches (%s, then %s)", v->exe,
				 mine ? mine->name : "nothing", c->name);
			return EXIT_RUN_FAILED;
		}
		l = model_append((void **)&mine->launches, &mine->nlaunches, sizeof(*mine->launches));
		if (l == NULL) {
			snprintf(err, errlen, "out of memory");
			return EXIT_RUN_FAILED;
		}
		*l = c->launches[0];
		free(c->launches); /* its contents now belong to mine */
		c->launches = NULL;
		c->nlaunches = 0;
	}
	return EXIT_OK;
}
