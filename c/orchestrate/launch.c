/* orchestrate/launch.c — see launch.h. */
#include "orchestrate/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/selfpath.h"
#include "base/status.h"
#include "model/codec.h"
#include "model/codec_identity.h"
#include "orchestrate/child.h"
#include "orchestrate/childargs.h"
#include "timing/record.h"

/* Runs a child and hands its stdout to parse. Returns EXIT_OK; the child's
 * own failure, classified (bad input 2, a stall 4, anything else 3), with
 * its reason in err; or EXIT_RUN_FAILED when parse refuses what it printed. */
static int launch_parsed(char *const argv[], int timeout_ms,
			 int (*parse)(const char *out, void *ctx, char *why, size_t whylen), void *ctx, char *err,
			 size_t errlen)
{
	char why[600] = "";
	struct child c;
	enum child_kind kind = child_run_within(&c, argv, timeout_ms, why, sizeof(why));
	int rc;

	if (c.timed_out && !c.flooded && c.busy) {
		snprintf(err, errlen,
			 "launch of %s was still running after %d s, though it kept using CPU (%d x its bound of %d s, "
			 "the most a launch may take): killed",
			 argv[0], c.waited_ms / 1000, CHILD_BUSY_MAX_FACTOR, (timeout_ms + 999) / 1000);
		rc = EXIT_RUN_FAILED;
	} else if (c.timed_out && !c.flooded) {
		snprintf(err, errlen,
			 "launch of %s was still running after %d s, the most its options allow (2 x --stall-timeout + "
			 "10 s + its extractions, then as long as it used CPU): killed",
			 argv[0], (c.waited_ms + 999) / 1000);
		rc = EXIT_RUN_FAILED;
	} else if (kind != CHILD_OK) {
		if (kind == CHILD_BAD_INPUT)
			snprintf(err, errlen, "%s", why);
		else
			snprintf(err, errlen, "launch of %s %s: %s", argv[0], child_verb(kind), why);
		rc = kind == CHILD_BAD_INPUT ? EXIT_BAD_INPUT
		     : kind == CHILD_STALLED ? EXIT_CHILD_STALLED
					     : EXIT_RUN_FAILED;
	} else if (c.output == NULL || parse(c.output, ctx, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "launch of %s printed %s", argv[0], why);
		rc = EXIT_RUN_FAILED;
	} else {
		rc = EXIT_OK;
	}
	child_close(&c);
	return rc;
}

struct document_ctx {
	struct doc *d;
	char **identity;
};

static int parse_document(const char *out, void *ctx, char *why, size_t whylen)
{
	struct document_ctx *dc = ctx;
	char msg[400];

	if (doc_loads(dc->d, out, strlen(out), msg, sizeof(msg)) != 0) {
		snprintf(why, whylen, "no valid document (%s)", msg);
		return -1;
	}
	if (dc->identity)
		*dc->identity = doc_identity(out, strlen(out));
	return 0;
}

int launch_document_within(char *const argv[], int timeout_ms, struct doc *d, char **identity, char *err, size_t errlen)
{
	struct document_ctx dc = { .d = d, .identity = identity };

	if (identity)
		*identity = NULL;
	return launch_parsed(argv, timeout_ms, parse_document, &dc, err, errlen);
}

int launch_document(char *const argv[], struct doc *d, char *err, size_t errlen)
{
	return launch_document_within(argv, -1, d, NULL, err, errlen);
}

int launch_options(const struct options *co, char *const extra[], struct doc *d, char *err, size_t errlen)
{
	enum { MAX_ARGS = 80 };
	char *argv[MAX_ARGS], store[16384], self[4096];
	int n, k;

	if (self_path(self, sizeof(self)) != 0) {
		snprintf(err, errlen, "cannot find this executable");
		return EXIT_RUN_FAILED;
	}
	argv[0] = self;
	if ((n = options_child_args(co, argv + 1, MAX_ARGS - 6, store, sizeof(store))) < 0) {
		snprintf(err, errlen, "arguments too long for a launch");
		return EXIT_RUN_FAILED;
	}
	for (k = n + 1; extra && *extra && k < MAX_ARGS - 2; extra++)
		argv[k++] = *extra;
	argv[k++] = (char *)"--emit-launch";
	argv[k] = NULL;
	return launch_document(argv, d, err, errlen);
}

struct minimal_ctx {
	struct doc *d;
	const struct options *o;
	int async;
	const char *exe;
};

static int parse_minimal(const char *out, void *ctx, char *why, size_t whylen)
{
	struct minimal_ctx *m = ctx;
	if (record_minimal(m->d, out, m->o, m->async, m->exe) == 0)
		return 0;
	snprintf(why, whylen, "no seed line and verified mode");
	return -1;
}

int launch_minimal(char *const argv[], const struct options *o, int async, struct doc *d, char *err, size_t errlen)
{
	struct minimal_ctx m = { .d = d, .o = o, .async = async, .exe = argv[0] };
	return launch_parsed(argv, -1, parse_minimal, &m, err, errlen);
}
