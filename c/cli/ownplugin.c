/* cli/ownplugin.c — the rules of the options that measure your own
 * plugin (docs/plugins.md, "Measuring your own plugin"): --compare of one
 * --plugin's two configurations (--sync-config, --async-config). */
#include "cli/rules.h"

#include <stdio.h>

/* The first option given of those the plugin's own compare cannot take:
 * its configurations are the two cells', its cells are its own. */
static const char *compare_conflict(const struct options *o)
{
	return o->plugin_config ? "--plugin-config (the two cells' configurations are --sync-config and --async-config)"
	       : o->async	? "-a (each cell's mode is its configuration's)"
	       : o->against	? "--against"
	       : o->baseline	? "--baseline"
	       : o->save_baseline   ? "--save-baseline"
	       : o->nallocators	    ? "--allocators"
	       : o->anatomy	    ? "--anatomy"
	       : o->idle || o->busy ? "--idle or --busy"
	       : o->per_event	    ? "--per-event"
	       : o->lifecycle	    ? "--scenario lifecycle"
	       : o->count	    ? "--count"
				    : NULL;
}

int own_plugin_check(struct options *o, char *err, size_t errlen)
{
	const char *conflict;

	if (!o->sync_config && !o->async_config)
		return 0;
	if (!o->sync_config || !o->async_config) {
		snprintf(err, errlen, "%s needs %s too: the plugin's two configurations are the two cells",
			 o->sync_config ? "--sync-config" : "--async-config",
			 o->sync_config ? "--async-config" : "--sync-config");
		return -1;
	}
	if (o->nlibs != 1) {
		snprintf(err, errlen,
			 "--sync-config and --async-config apply to one plugin library: name it with --plugin PATH%s",
			 o->nlibs ? " (one, not several)" : "");
		return -1;
	}
	if (!o->compare) {
		snprintf(err, errlen,
			 "--sync-config and --async-config are the cells of --compare: add --compare (or time one "
			 "configuration with --plugin-config)");
		return -1;
	}
	if ((conflict = compare_conflict(o)) != NULL) {
		snprintf(err, errlen, "--compare of a plugin's two configurations: not with %s", conflict);
		return -1;
	}
	return 0;
}
