/* orchestrate/childmsg.h — the coordinator's reading of what a paired child
 * says (pairs.c), apart from the pipes it comes through: its ready reply,
 * its block replies (timing/blockmsg.h), and the document it prints at its
 * end, merged into its cell as plan_merge_launch (plan.h, defined here)
 * does. A child is outside input (--against runs any executable): this is
 * fuzzed (tests/fuzz/fuzz_childmsg.c) with no process, plugin or Go. */
#ifndef CGOCOST_ORCHESTRATE_CHILDMSG_H
#define CGOCOST_ORCHESTRATE_CHILDMSG_H

#include <stddef.h>

#include "model/model.h"
#include "orchestrate/plan.h"
#include "timing/blockmsg.h"

/* Whether the mode in effect the ready reply gives is the one v asked for
 * (unknown, -1, passes): 0, or -1 with a message naming v. */
int childmsg_ready(const struct block_reply *ready, const struct variant *v, char *err, size_t errlen);

/* A block's reply added to its cell c (arrays grown as needed, *cap their
 * capacity), after: the cell whose block ran just before in the round, or
 * -1. 0, or -1 out of memory. */
int childmsg_block(struct pair_cell_rec *c, size_t *cap, const struct block_reply *r, int after);

/* The document a child printed at its end (out, NULL when unreadable),
 * merged into v's cells: EXIT_OK, or EXIT_RUN_FAILED with a message. */
int childmsg_document(struct variant *v, const char *out, char *err, size_t errlen);

#endif
