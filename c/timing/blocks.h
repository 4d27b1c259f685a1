/* timing/blocks.h — a paired run's child: after its warm-up it runs timed
 * blocks on command, one at a time, and says what each took. The parent
 * (pairs.h) keeps every cell's child alive and lets one run while the others
 * wait asleep in read(2). Commands arrive on BLOCKS_CMD_FD, replies leave on
 * BLOCKS_REPLY_FD, one fixed-size record each; the document of the launch
 * still goes to stdout at the end, with one batch per block. */
#ifndef CGOCOST_TIMING_BLOCKS_H
#define CGOCOST_TIMING_BLOCKS_H

#include <stdatomic.h>
#include <stdint.h>

#include "plugin/extractor.h"
#include "timing/blockmsg.h" /* the commands and replies */
#include "timing/series.h"

struct block_server {
	struct extractor *x;
	struct series *s;	 /* grown here: one batch a block */
	_Atomic uint64_t *at_ns; /* the watchdog's view of the caller; UINT64_MAX while waiting */
	uint64_t calls;		 /* extractions a block */
	uint32_t every;		 /* --slowdown-pct: one more extraction after every this many (0: none) */
	int async_in_effect;	 /* at the first probe; -1 unknown */
	/* out */
	uint64_t lead_calls, cpu_ns; /* over every block */
	uint64_t extra_calls;	     /* --slowdown-pct's, over every block */
	int status;		     /* extract_status of a failed call */
	uint64_t failed_evt;
	char error[160]; /* a failed protocol step */
};

/* The calls of a block: -n when block_ns is 0, else as many as fill
 * block_ns at per_op_ns (at least one). */
uint64_t blocks_calls(uint64_t block_ns, uint64_t n, double per_op_ns);

/* Says ready, then serves blocks until BLOCK_END or the parent's end of
 * the pipe. Returns 0, or -1 (status or error says why). */
int blocks_serve(struct block_server *b, uint64_t *evt);

#endif
