/* cli/usage.h — the usage text of --help and the label of one option as
 * the usage shows it, both made from the option table (model/options.h). */
#ifndef CGOCOST_CLI_USAGE_H
#define CGOCOST_CLI_USAGE_H

#include <stddef.h>
#include <stdio.h>

#include "model/options.h"

/* "-a, --async", "-n <number>", "    --work <w>". */
void option_label(const struct optdef *d, char *buf, size_t len);

void options_usage(const char *prog, FILE *out);

#endif
