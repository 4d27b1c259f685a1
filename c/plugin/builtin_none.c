/* plugin/builtin_none.c — bench-host has no built-in plugin and no Go
 * runtime: every plugin it measures comes from --plugin. */
#include "plugin/symbols.h"

#include <string.h>

int plugin_syms_builtin(struct plugin_syms *s)
{
	memset(s, 0, sizeof(*s));
	return -1;
}
