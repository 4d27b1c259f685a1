/* plugin-c/handoff.h — the C plugin's async mode: a spin handoff between
 * the host's calling thread and one worker thread of the plugin, written
 * in C with no Go and no SDK. The caller posts a request in the request
 * slot (one cache line: the sequence number and the call's arguments) and
 * spins until the worker writes the same sequence number back into that
 * line, with the call's return code beside it. The worker spins on the
 * slot; after HANDOFF_IDLE_NS without a request it sleeps on a futex, and a
 * caller that posts to a sleeping worker wakes it (the SDK's worker sleeps
 * too, after 1 ms idle). With work=bare an extraction is the slot's line
 * going to the worker's CPU and back: one cache-line round trip between the
 * two CPUs, measured through the same host loop as every other cell. */
#ifndef CGOCOST_PLUGIN_C_HANDOFF_H
#define CGOCOST_PLUGIN_C_HANDOFF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* The worker's spin without a request before it sleeps. */
#define HANDOFF_IDLE_NS 1000000u

/* What the worker runs for a request: the plugin's own extraction. */
typedef int (*handoff_fn)(void *ctx, const void *evt, const void *in);

struct handoff {
	/* the request slot, one line: the caller writes req and the
	 * arguments, the worker ack and rc */
	_Atomic uint64_t req, ack;
	const void *evt, *in;
	int rc;
	char pad0[64 - 36];
	/* read on every call, written only on the way to and from a futex
	 * wait: shared by both CPUs' caches in a steady spin */
	_Atomic uint32_t sleeping, bell, stop;
	uint32_t pad1;
	handoff_fn fn;
	void *ctx;
	char pad2[64 - 32];
	/* the caller's own */
	uint64_t seq;	  /* its last request */
	uint64_t wakeups; /* requests posted to a sleeping worker */
	pthread_t thread;
	int started;
} __attribute__((aligned(64)));

/* Starts the worker thread; 0, or an errno. */
int handoff_start(struct handoff *h, handoff_fn fn, void *ctx);

/* One call through the worker: its return code. */
int handoff_call(struct handoff *h, const void *evt, const void *in);

/* Stops the worker and waits for it. */
void handoff_stop(struct handoff *h);

#endif
