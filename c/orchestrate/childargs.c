/* orchestrate/childargs.c — a child launch's arguments, made from the
 * option table: every option a child gets (the table's child column) with
 * its value as the command line would take it back. */
#include "orchestrate/childargs.h"

#include <stdio.h>

typedef const char *cstr; /* a text option's field */

/* The argument of one option as a child gets it; 0: leave it out. */
static int child_value(const struct optdef *d, const struct options *o, char *buf, size_t len)
{
	/* a plugin option the user did not give stays out (it needs --plugin) */
	if (d->group == GROUP_PLUGINS && d->has_set && !option_cset(o, d))
		return 0;
	switch (d->type) {
	case T_FLAG:
		return *(const int *)option_cfield(o, d);
	case T_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)option_cfield(o, d));
		return 1;
	case T_U32:
	case T_INSTANCES:
		if (d->type == T_INSTANCES && *(const uint32_t *)option_cfield(o, d) == 0)
			return 0; /* --pool without the lifecycle */
		snprintf(buf, len, "%u", *(const uint32_t *)option_cfield(o, d));
		return 1;
	case T_CPU:
		snprintf(buf, len, "%d", *(const int *)option_cfield(o, d));
		return *(const int *)option_cfield(o, d) >= 0;
	case T_WORK:
		snprintf(buf, len, "%s", work_name(*(const enum work *)option_cfield(o, d)));
		return 1;
	case T_HOSTCALLS:
		snprintf(buf, len, "%s", host_calls_name(*(const enum host_calls *)option_cfield(o, d)));
		return 1;
	case T_SCENARIO:
		snprintf(buf, len, "lifecycle");
		return *(const int *)option_cfield(o, d);
	case T_ALLOCATOR:
	case T_TEXT:
		if (*(const cstr *)option_cfield(o, d) == NULL)
			return 0;
		snprintf(buf, len, "%s", *(const cstr *)option_cfield(o, d));
		return 1;
	case T_RATE:
	case T_SECONDS:
		snprintf(buf, len, "%.17g", *(const double *)option_cfield(o, d));
		/* --time and --arrival shape a --rate schedule: a sweep's
		 * children get their own (found by fuzzing) */
		return *(const double *)option_cfield(o, d) > 0 && (d->type == T_RATE || o->rate > 0);
	case T_ARRIVAL:
		snprintf(buf, len, "poisson");
		return *(const enum arrival *)option_cfield(o, d) == ARRIVAL_POISSON && o->rate > 0;
	case T_GAPS: {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < o->ngaps && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%llu", i ? "," : "",
					      (unsigned long long)o->gaps_us[i]);
		return o->ngaps > 0 && k < len;
	}
	case T_CPUS: {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < o->ncpus && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", o->cpus[i]);
		return o->ncpus > 0 && k < len;
	}
	default:
		return 0;
	}
}

int options_child_args(const struct options *o, char **argv, int max, char *store, size_t storelen)
{
	int argc = 0;
	size_t used = 0;

	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct optdef *d = &options_table[i];
		char value[8192];
		int n;

		if (d->child && d->type == T_LIST) {
			int cnt = option_cset(o, d);
			for (int k = 0; k < cnt; k++) {
				n = snprintf(store + used, storelen - used, "--%s", d->name);
				if (n < 0 || (size_t)n >= storelen - used || argc + 1 >= max)
					return -1;
				argv[argc++] = store + used;
				used += (size_t)n + 1;
				n = snprintf(store + used, storelen - used, "%s",
					     ((const cstr *)option_cfield(o, d))[k]);
				if (n < 0 || (size_t)n >= storelen - used)
					return -1;
				argv[argc++] = store + used;
				used += (size_t)n + 1;
			}
			continue;
		}
		if (!d->child || !child_value(d, o, value, sizeof(value)))
			continue;
		n = d->name ? snprintf(store + used, storelen - used, "--%s", d->name)
			    : snprintf(store + used, storelen - used, "-%c", d->shortname);
		if (n < 0 || (size_t)n >= storelen - used || argc >= max)
			return -1;
		argv[argc++] = store + used;
		used += (size_t)n + 1;
		if (!d->arg)
			continue;
		n = snprintf(store + used, storelen - used, "%s", value);
		if (n < 0 || (size_t)n >= storelen - used || argc >= max)
			return -1;
		argv[argc++] = store + used;
		used += (size_t)n + 1;
	}
	return argc;
}
