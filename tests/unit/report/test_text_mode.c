/* Unit tests of the mode line (report/text_mode.c) on hand-made cells and
 * launches: verified by the probes or by the SDK's state, set by the
 * plugin's own configuration, not verifiable (stripped, or not built with
 * the SDK) and the spinning worker inferred from the other threads' CPU.
 * Deterministic: no run is measured. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/text.h"

/* The mode text of a cell and a launch of one caller of 1000 extractions
 * over 1 ms, the other threads busy other_ns per extraction. */
static char *render(const struct cell_rec *c, const char *effect, double other_ns)
{
	struct caller_rec caller = { .index = 1, .extractions = 1000 };
	struct launch_rec l = { .callers = &caller, .ncallers = 1, .wall_ns = 1000000 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	l.other_cpu_ns_per_extraction = other_ns;
	snprintf(l.mode_in_effect, sizeof(l.mode_in_effect), "%s", effect);
	report_mode_text(f, c, &l);
	fclose(f);
	return buf;
}

static void test_verified_by_sdk_state(void **state)
{
	struct cell_rec c = { .mode_verified = 1 };
	char *out;
	(void)state;

	snprintf(c.requested, sizeof(c.requested), "sync");
	snprintf(c.verified_by, sizeof(c.verified_by), "sdk-state");
	c.by_plugin_config = 1;
	out = render(&c, "async", 10);
	assert_string_equal(out, "# mode: set by the plugin's own configuration (--plugin-config), async in effect "
				 "(verified: the SDK's async slot of each instance waits for requests)\n");
	free(out);
	c.by_plugin_config = 0;
	out = render(&c, "sync", 10);
	assert_string_equal(
		out,
		"# mode: sync requested, sync in effect (verified: the SDK's async state of each instance is off)\n");
	free(out);
	snprintf(c.verified_by, sizeof(c.verified_by), "probes");
	out = render(&c, "sync", 10);
	assert_string_equal(out,
			    "# mode: sync requested, sync in effect (verified: Extract ran on the calling thread)\n");
	free(out);
}

/* Not verifiable: the reason said, never a mode; a worker busy through
 * most of the window is inferred, one idle most of it is not. */
static void test_not_verifiable_and_spinning(void **state)
{
	struct cell_rec c = { .mode_verified = 0 };
	char *out;
	(void)state;

	snprintf(c.requested, sizeof(c.requested), "sync");
	snprintf(c.unverifiable, sizeof(c.unverifiable), "stripped: no symbol table");
	out = render(&c, "unknown", 100);
	assert_string_equal(out,
			    "# mode: sync requested; mode in effect: not verifiable (stripped: no symbol table)\n");
	free(out);
	snprintf(c.unverifiable, sizeof(c.unverifiable), "not built with the plugin SDK for Go: no s_async_ctx_batch");
	out = render(&c, "unknown", 900); /* 900 ns of every 1000: 90% of the window */
	assert_non_null(
		strstr(out, "not verifiable for this plugin (it exposes no cgocost probe fields; not built with"));
	assert_non_null(strstr(out, "# mode: probably an extraction worker spinning: threads other than the callers "
				    "were busy 90% of the timed window (900.00 cpu-ns/extraction)\n"));
	assert_null(strstr(out, "sync in effect"));
	free(out);
	out = render(&c, "unknown", 300);
	assert_null(strstr(out, "spinning"));
	free(out);
	out = render(&c, "unknown", NAN);
	assert_null(strstr(out, "spinning"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verified_by_sdk_state),
		cmocka_unit_test(test_not_verifiable_and_spinning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
