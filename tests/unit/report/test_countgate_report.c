/* test_countgate_report.c — the counting gate's verdict in the reports:
 * the text names instructions/extraction in its head, each change and its
 * verdict line, with both builds' counts (median [min .. max], range);
 * the markdown's verdict table says the metric and the threshold as it is
 * (0.5%, not rounded to 0% or 1%). The comparison is compare_counts' own,
 * on fixed counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyse/verdict.h"
#include "model_fixture.h"
#include "report/markdown.h"
#include "report/text.h"

static void counted(struct doc *d, const double *x, size_t n)
{
	struct cell_rec *c;

	fixture_doc(d);
	c = fixture_cell(d, "archive", "sync", NULL, 0);
	c->has_counts = 1;
	c->counts.has_instructions = 1;
	c->counts.n_short = 100000;
	c->counts.n_long = 200000;
	c->counts.ops = 100000;
	c->counts.pairs = (uint32_t)n;
	c->counts.instructions.npairs = n;
	memcpy(c->counts.instructions.per_pair, x, n * sizeof(*x));
	snprintf(c->counts.instructions_tool, sizeof(c->counts.instructions_tool), "Valgrind-3.19.0 cachegrind");
}

typedef void (*report_fn)(FILE *, const struct doc *);

static char *render(report_fn fn, const struct doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, d);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Each test's document (its state): this build +1.4% over the base, as
 * --slowdown-pct 1 measured. */
static int gate(void **state)
{
	static const double base_x[5] = { 1080.07, 1080.92, 1081.15, 1080.64, 1080.23 };
	static const double cur_x[5] = { 1095.13, 1092.65, 1096.12, 1095.97, 1098.68 };
	static struct doc cur;
	struct doc base;

	counted(&base, base_x, 5);
	counted(&cur, cur_x, 5);
	assert_int_equal(compare_counts(&base, &cur, "build/bench", 0.005, 1, 5), 0);
	doc_free(&base);
	*state = &cur;
	return 0;
}

static int gate_free(void **state)
{
	doc_free(*state);
	return 0;
}

static void test_text_names_the_metric_and_both_builds(void **state)
{
	const struct doc *d = *state;
	char *text;

	text = render(report_count_gate_text, d);
	assert_non_null(strstr(text, "# the counting gate: instructions per extraction, no clock: -n 200000 less -n "
				     "100000"));
	assert_non_null(strstr(text, "5 pairs of counted runs a build, the builds alternating; Valgrind-3.19.0 "
				     "cachegrind"));
	free(text);
	text = render(report_comparison_text, d);
	assert_non_null(strstr(text, "comparison against build/bench in instructions/extraction (counted in this "
				     "run, the builds alternating; threshold ±0.5%, alpha 0.05"));
	assert_non_null(strstr(text, "cell lib=archive/mode=sync/work=noop/p=1 (instructions/extraction)\n"));
	assert_non_null(strstr(text, "\n  this build 1095.97 [1092.65 .. 1098.68] (range 0.55%) over 5 pairs\n"));
	assert_non_null(strstr(text, "\n  --against  1080.64 [1080.07 .. 1081.15] (range 0.10%) over 5 pairs\n"));
	assert_non_null(strstr(text, "\n  change: [1.11% +1.42% 1.67%] (p = 0.01 < 0.05)\n"));
	assert_non_null(strstr(text, "  Performance has regressed.\n"));
	assert_non_null(strstr(text, "verdict: regression detected in instructions/extraction (exit status 1)\n"));
	free(text);
}

static void test_markdown_renders_a_counted_verdict(void **state)
{
	char *md = render(report_markdown_verdicts, *state);

	assert_non_null(strstr(md, "## Verdict against `build/bench`\n"));
	assert_non_null(strstr(md, "Instructions per extraction, counted under valgrind in this run"));
	assert_non_null(strstr(md, "threshold ±0.5%, alpha 0.05"));
	assert_non_null(strstr(md, "| `lib=archive/mode=sync/work=noop/p=1` | cell, instructions | +1.4"));
	assert_non_null(strstr(md, " | ±0.5% | "));
	assert_non_null(strstr(md, " | 5, 5 | **regressed** |\n"));
	assert_non_null(strstr(md, "**Verdict: regression detected** (exit status 1)"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_names_the_metric_and_both_builds, gate, gate_free),
		cmocka_unit_test_setup_teardown(test_markdown_renders_a_counted_verdict, gate, gate_free),
	};
	return cmocka_run_group_tests_name("countgate_report", tests, NULL, NULL);
}
