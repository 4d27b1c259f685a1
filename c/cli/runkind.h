/* cli/runkind.h — the run kind, method and base (model/runkind.h) decided
 * once, from options that the cross-option rules have already accepted. */
#ifndef CGOCOST_CLI_RUNKIND_H
#define CGOCOST_CLI_RUNKIND_H

#include "model/options.h"

/* Sets o->kind, o->method and o->base from the rest of o. */
void run_kind_resolve(struct options *o);

#endif
