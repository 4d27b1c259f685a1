/* cli/rules.h — the rules between options, checked once the command line
 * is read: which options conflict, whether the run pairs its blocks, and
 * the defaults that depend on other options (-n from --rate and --time, the
 * threshold and time budget of a paired run, the launches of a
 * comparison). options_latency, which layers below need, is in the model
 * (model/options.h). */
#ifndef CGOCOST_CLI_RULES_H
#define CGOCOST_CLI_RULES_H

#include <stddef.h>

#include "model/options.h"

/* Why this run cannot pair its blocks ("" when it can): the reason given
 * when --interleave pairs is asked for and refused. */
const char *options_unpairable(const struct options *o);

/* Your own plugin's options (cli/ownplugin.c): --sync-config and
 * --async-config (--compare of one --plugin's two configurations). 0, or
 * -1 with a message. */
int own_plugin_check(struct options *o, char *err, size_t errlen);

/* The conflicts between options, and the defaults that depend on others.
 * 0, or -1 with a message. */
int options_check(struct options *o, char *err, size_t errlen);

#endif
