/* model/runkind.c — see runkind.h. */
#include "model/runkind.h"

const char *run_kind_name(enum run_kind k)
{
	static const char *const names[RUN_KINDS] = {
		[RUN_UNRESOLVED] = "unresolved",   [RUN_JUDGE] = "judge",
		[RUN_TOPOLOGY] = "topology",	   [RUN_FIT] = "fit",
		[RUN_CHILD] = "child launch",	   [RUN_SERVE_BLOCKS] = "served blocks",
		[RUN_REPEAT_LOAD] = "repeat-load", [RUN_SWEEP] = "sweep",
		[RUN_SINGLE] = "single",	   [RUN_LAUNCHES] = "launches",
		[RUN_COMPARE] = "compare",	   [RUN_ANATOMY] = "anatomy",
		[RUN_ALLOCATORS] = "allocators",   [RUN_INTERFERENCE] = "interference",
		[RUN_PER_EVENT] = "per-event",	   [RUN_PLUGIN_COMPARE] = "plugin-compare",
	};
	return k >= 0 && k < RUN_KINDS ? names[k] : "unresolved";
}
