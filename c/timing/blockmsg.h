/* timing/blockmsg.h — the protocol between a paired run's child (blocks.h)
 * and its coordinator (orchestrate/pairs.h): the commands it reads on
 * BLOCKS_CMD_FD and the replies it writes on BLOCKS_REPLY_FD, one
 * fixed-size record each. No plugin, no Go: the coordinator's reading of
 * the replies (orchestrate/childmsg.h) is fuzzed without either. */
#ifndef CGOCOST_TIMING_BLOCKMSG_H
#define CGOCOST_TIMING_BLOCKMSG_H

#include <stdint.h>

#define BLOCKS_CMD_FD	3
#define BLOCKS_REPLY_FD 4

enum block_op { BLOCK_RUN = 1, BLOCK_END = 2 };

/* The lead-in before a block: one untimed extraction, then with
 * steady_max_us 0 more until lead_in_ns has passed since the start;
 * otherwise more until they are steady (stats/steady.h) and lead_in_ns has
 * passed, for steady_max_us at most after the first one. A child built
 * before steady_max_us reads only lead_in_ns (the field was padding): it
 * makes a fixed lead-in of lead_in_ns whatever steady_max_us says. */
struct block_cmd {
	uint32_t op;
	uint32_t steady_max_us;
	uint64_t lead_in_ns;
};

/* The first reply (ready, after the warm-up) gives the calls of every block
 * and the mode seen at the first probe; then one reply per block. */
struct block_reply {
	int32_t status;		 /* 0, or the extract_status of a failed call */
	int32_t async_in_effect; /* ready: Extract ran on another thread (-1: unknown) */
	uint64_t ns;		 /* the timed block */
	uint64_t cpu_ns;	 /* process CPU time over the timed block */
	uint64_t calls;		 /* extractions in the timed block */
	uint64_t lead_ns;	 /* the lead-in */
	uint64_t lead_calls;	 /* its extractions */
	uint64_t first_ns;	 /* its first extraction */
};

#endif
