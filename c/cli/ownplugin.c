/* cli/ownplugin.c — the rules of the options that measure your own
 * plugin (docs/plugins.md): --compare of one --plugin's two configurations
 * (--sync-config, --async-config), and its gate (--against-plugin). */
#include "cli/rules.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/selfpath.h"

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

static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* --against-plugin BASE: the gate of one --plugin library against its base
 * build, run as --against of this very driver with the base side loading
 * BASE (orchestrate/plan.c); both sides get the same other options. */
static int gate_check(struct options *o, char *err, size_t errlen)
{
	static char self[PATH_MAX];
	const char *conflict = o->against    ? "--against (the other build is the library's: this driver runs both)"
			       : o->compare  ? "--compare"
			       : o->baseline ? "--baseline"
			       : o->save_baseline ? "--save-baseline"
			       : o->nallocators	  ? "--allocators"
			       : o->anatomy	  ? "--anatomy"
			       : o->interference  ? "--interference"
			       : o->count	  ? "--count (the counting gate judges two drivers)"
						  : NULL;

	if (o->nlibs != 1) {
		snprintf(err, errlen,
			 "--against-plugin judges one library against its base: name the head with one --plugin PATH");
		return -1;
	}
	if (conflict) {
		snprintf(err, errlen, "--against-plugin: not with %s", conflict);
		return -1;
	}
	if (access(o->against_plugin, R_OK) != 0) {
		snprintf(err, errlen, "--against-plugin: cannot read '%s'", o->against_plugin);
		return -1;
	}
	/* a launch is known by its library's file name (each build's own) */
	if (strcmp(file_name(o->against_plugin), file_name(o->libs[0])) != 0) {
		snprintf(err, errlen,
			 "--against-plugin: the base library is named %s, the head %s: the two builds of one plugin "
			 "must have the same file name (base/%s, head/%s)",
			 file_name(o->against_plugin), file_name(o->libs[0]), file_name(o->libs[0]),
			 file_name(o->libs[0]));
		return -1;
	}
	if (self_path(self, sizeof(self)) != 0) {
		snprintf(err, errlen, "--against-plugin: cannot find this executable");
		return -1;
	}
	o->against = self;
	return 0;
}

int own_plugin_check(struct options *o, char *err, size_t errlen)
{
	const char *conflict;

	if (o->against_plugin && gate_check(o, err, errlen) != 0)
		return -1;
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
