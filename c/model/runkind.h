/* model/runkind.h — what kind of run this is, decided once from the parsed
 * options by the resolver (cli/runkind.c) and read everywhere else: the
 * kind (which cells, how they are reported), the method (where and how
 * they are measured) and the base (what they are judged against). No
 * other file tests an option flag to learn any of the three (tests/layers,
 * "TestRunKindIsResolvedOnce"). */
#ifndef CGOCOST_MODEL_RUNKIND_H
#define CGOCOST_MODEL_RUNKIND_H

enum run_kind {
	RUN_UNRESOLVED = 0, /* options not resolved (a document read back from JSON) */
	RUN_JUDGE,	    /* --judge BASE CUR: two sample files, nothing measured */
	RUN_TOPOLOGY,	    /* --topology: the CPU classes relative to the caller, nothing measured */
	RUN_FIT,	    /* --fit FILE...: async against the round trip over saved --compare documents */
	RUN_CHILD,	    /* --emit-launch: one launch of a parent, its document on stdout */
	RUN_SERVE_BLOCKS,   /* --emit-launch --serve-blocks: a paired run's child, blocks on request */
	RUN_REPEAT_LOAD,    /* --repeat-load K: K fresh processes load, extract once, exit */
	RUN_SWEEP,	    /* --sweep-rate: sync and async at each rate, a launch each */
	RUN_SINGLE,	    /* one launch of one cell, reported in full (the seed's run) */
	RUN_LAUNCHES,	    /* one cell in fresh launches (with --against: that cell of both builds) */
	RUN_COMPARE,	    /* --compare: archive/shared x sync/async and the C plugin */
	RUN_ANATOMY,	    /* --anatomy: the work kinds x sync/async, and the minimal driver */
	RUN_ALLOCATORS,	    /* --allocators: one cell per allocator */
	RUN_INTERFERENCE,   /* --interference: alone, beside an idle library, beside a busy one */
	RUN_PER_EVENT,	    /* --per-event K --host-calls both: per-field and batched, paired */
	RUN_PLUGIN_COMPARE, /* --compare --plugin P --sync-config --async-config: P's two configurations, paired */
	RUN_KINDS
};

enum run_method {
	METHOD_NONE = 0, /* nothing is measured (--judge) */
	METHOD_HERE,	 /* in this process: one launch */
	METHOD_LAUNCHES, /* child launches, interleaved round by round */
	METHOD_PAIRED,	 /* long-lived children, paired blocks in generations */
	METHOD_SWEEP,	 /* a child launch per rate and mode */
	METHOD_REPEAT,	 /* K child launches of one load each */
	METHOD_COUNTED,	 /* --against EXE --count instructions: counted child runs of both builds, no clock */
};

enum run_base {
	BASE_NONE = 0,
	BASE_SAVED, /* --baseline FILE: a saved run, judged unpaired */
	BASE_BUILD, /* --against EXE: another build, measured in the same run */
};

/* "single", "compare", ...: the kind's name, for messages and tests. */
const char *run_kind_name(enum run_kind k);

/* A launch of a parent (--emit-launch, with or without --serve-blocks): it
 * prints its document for the parent, which interrupts it and adds the
 * hints to its messages. */
static inline int run_kind_is_child(enum run_kind k)
{
	return k == RUN_CHILD || k == RUN_SERVE_BLOCKS;
}

#endif
