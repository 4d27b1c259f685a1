/* fuzz_childmsg.c — libFuzzer target for the coordinator's reading of a
 * paired child's messages (orchestrate/childmsg.c; --against runs any
 * executable, so a child is outside input). The input is what a child says:
 *   byte 0     bit 0: the cell asks for async; bits 1-4: K block replies
 *   then       the ready reply and K block replies (timing/blockmsg.h,
 *              host byte order, as read from the replies pipe)
 *   the rest   the documents it prints at the ends of its generations,
 *              separated by NUL bytes, merged into the cell one after
 *              another as pairs.c does, until one is refused.
 * A refused ready reply is one whose mode differs, said in a message; each
 * block reply is one block recorded as it said; each document merged adds
 * one launch to every cell. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "model/codec.h"
#include "orchestrate/childmsg.h"

static void free_cells(struct variant *v)
{
	struct doc owner = { .cells = v->cells, .ncells = v->ncells };
	doc_free(&owner);
	v->cells = NULL;
	v->ncells = 0;
}

static void check_blocks(const struct pair_cell_rec *c, const struct block_reply *r, size_t k)
{
	if (c->nblocks != k || c->ncpu != k || c->nafter != k)
		abort();
	for (size_t i = 0; i < k; i++) {
		double calls = (double)(r[i].calls ? r[i].calls : 1);
		if (c->block_ns[i] != (double)r[i].ns / calls || c->lead_calls[i] != (double)r[i].lead_calls ||
		    c->after[i] != (double)i - 1 || !isfinite(c->block_ns[i]))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct variant v;
	struct block_reply r[16];
	struct pair_cell_rec cell;
	size_t cap = 0, k, at, *launches = NULL;
	char err[1024] = "", *docs;
	int refused;

	if (size < 1)
		return 0;
	memset(&v, 0, sizeof(v));
	strcpy(v.exe, "/fuzz/bench");
	v.async = data[0] & 1;
	v.work = -1;
	k = (data[0] >> 1) & 15;
	if (size < 1 + (k + 1) * sizeof(r[0]))
		return 0;
	memcpy(r, data + 1, (k + 1) * sizeof(r[0]));
	at = 1 + (k + 1) * sizeof(r[0]);

	/* the ready reply */
	refused = childmsg_ready(&r[0], &v, err, sizeof(err)) != 0;
	if (refused != (r[0].async_in_effect >= 0 && r[0].async_in_effect != v.async) || (refused && err[0] == '\0'))
		abort();

	/* the block replies */
	memset(&cell, 0, sizeof(cell));
	for (size_t i = 1; i <= k; i++)
		if (childmsg_block(&cell, &cap, &r[i], (int)i - 2) != 0)
			abort();
	check_blocks(&cell, r + 1, k);
	free(cell.block_ns), free(cell.block_cpu_ns), free(cell.lead_ns), free(cell.lead_calls);
	free(cell.first_call_ns), free(cell.after);

	/* the documents, one a generation */
	docs = malloc(size - at + 1);
	if (docs == NULL)
		return 0;
	memcpy(docs, data + at, size - at);
	docs[size - at] = '\0';
	for (char *d = docs; d <= docs + (size - at);) {
		size_t len = strlen(d);
		if (childmsg_document(&v, d, err, sizeof(err)) != EXIT_OK) {
			if (err[0] == '\0')
				abort();
			break;
		}
		if (v.ncells == 0)
			abort();
		if (launches == NULL) { /* the first: the cells as it gave them */
			if ((launches = calloc(v.ncells, sizeof(*launches))) == NULL)
				break;
			for (size_t c = 0; c < v.ncells; c++)
				launches[c] = v.cells[c].nlaunches;
		} else {
			for (size_t c = 0; c < v.ncells; c++)
				if (v.cells[c].nlaunches != ++launches[c])
					abort();
		}
		d += len + 1;
	}
	free(launches);
	free(docs);
	free_cells(&v);
	return 0;
}
