/* cli/args.h — argv into struct options: getopt_long over the option table
 * (model/options.h), every value parsed strictly, then the rules between
 * options checked (cli/rules.h). */
#ifndef CGOCOST_CLI_ARGS_H
#define CGOCOST_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "model/options.h"

/* Parses argv, then checks the options together (options_check).
 * PARSE_HELP: --help was asked (print usage, exit 0). PARSE_BAD: err holds a
 * one-line message naming the problem. max_plugins is the SDK's limit of
 * live plugin instances (read from the plugin). */
enum parse_result options_parse(struct options *o, int argc, char **argv, uint32_t max_plugins, char *err,
				size_t errlen);

#endif
