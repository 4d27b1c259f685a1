/* cli/runkind.c — the one place that reads the options' flags to learn what
 * kind of run this is (see runkind.h). The cross-option rules (which
 * combinations are allowed, and the defaults that depend on others) ran
 * before, in options_check; here every accepted combination gets exactly
 * one kind, one method and one base. */
#include "cli/runkind.h"

/* The kind: the first that applies, in this order (the rules make most of
 * them exclusive; an internal child flag wins over everything). */
static enum run_kind kind_of(const struct options *o)
{
	if (o->judge[0])
		return RUN_JUDGE;
	if (o->topology)
		return RUN_TOPOLOGY;
	if (o->nfit)
		return RUN_FIT;
	if (o->serve_blocks)
		return RUN_SERVE_BLOCKS;
	if (o->emit_launch)
		return RUN_CHILD;
	if (o->repeat_load)
		return RUN_REPEAT_LOAD;
	if (o->nsweep)
		return RUN_SWEEP;
	if (o->compare)
		return o->sync_config ? RUN_PLUGIN_COMPARE : RUN_COMPARE;
	if (o->anatomy)
		return RUN_ANATOMY;
	if (o->nallocators)
		return RUN_ALLOCATORS;
	if (o->interference)
		return RUN_INTERFERENCE;
	if (o->per_event && o->host_calls == HOST_CALLS_BOTH)
		return RUN_PER_EVENT;
	if (o->launches == 1 && !o->against)
		return RUN_SINGLE;
	return RUN_LAUNCHES;
}

/* The method: a single launch of the built-in plugin runs in this process;
 * a --plugin library is measured in a child launch even alone, so that its
 * crash is a reported result, never a crash of cgocost. */
static enum run_method method_of(const struct options *o, enum run_kind k)
{
	switch (k) {
	case RUN_UNRESOLVED:
	case RUN_KINDS:
	case RUN_JUDGE:
	case RUN_TOPOLOGY:
	case RUN_FIT:
		return METHOD_NONE;
	case RUN_CHILD:
	case RUN_SERVE_BLOCKS:
		return METHOD_HERE;
	case RUN_REPEAT_LOAD:
		return METHOD_REPEAT;
	case RUN_SWEEP:
		return METHOD_SWEEP;
	case RUN_SINGLE:
		return o->nlibs == 0 ? METHOD_HERE : METHOD_LAUNCHES;
	case RUN_LAUNCHES:
		/* the counting gate: both builds' cell counted, no clock read */
		if (o->against && (o->count & COUNT_INSTRUCTIONS))
			return METHOD_COUNTED;
		break;
	case RUN_COMPARE:
	case RUN_PLUGIN_COMPARE:
	case RUN_ANATOMY:
	case RUN_ALLOCATORS:
	case RUN_INTERFERENCE:
	case RUN_PER_EVENT:
		break;
	}
	return o->paired ? METHOD_PAIRED : METHOD_LAUNCHES;
}

void run_kind_resolve(struct options *o)
{
	o->kind = kind_of(o);
	o->method = method_of(o, o->kind);
	o->base = o->against ? BASE_BUILD : o->baseline ? BASE_SAVED : BASE_NONE;
}
