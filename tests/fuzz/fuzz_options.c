/* fuzz_options.c — libFuzzer target for the option parser (cli/args.c over
 * the table of model/options.c): the input is argv, its arguments separated
 * by NUL bytes. A command line the parser accepts must survive the ways the
 * driver uses it: its JSON record read back, and a child launch's arguments
 * parsed again. Go-free: it links the layers below plugin and the parser's
 * own files (mk/fuzz.mk). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "model/codec_options.h"
#include "model/options.h"
#include "orchestrate/childargs.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2], *cargv[160], store[32768], err[1024];
	struct options o, back;
	int argc = 1;
	json_t *rec;

	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = (char *)"bench";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; argc++) {
		argv[argc] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	if (options_parse(&o, argc, argv, 255, err, sizeof(err)) != PARSE_OK || o.judge[0]) {
		free(copy);
		return 0;
	}
	/* the options record of a document reads back */
	rec = options_to_json(&o);
	if (options_from_json(&back, rec, err, sizeof(err)) != 0)
		abort();
	json_decref(rec);
	/* a child launch's arguments parse */
	if (!o.emit_launch) {
		int n = options_child_args(&o, cargv + 1, 150, store, sizeof(store));
		if (n >= 0) {
			cargv[0] = (char *)"bench";
			cargv[n + 1] = (char *)"--emit-launch";
			cargv[n + 2] = NULL;
			if (options_parse(&back, n + 2, cargv, 255, err, sizeof(err)) != PARSE_OK)
				abort();
		}
	}
	free(copy);
	return 0;
}
