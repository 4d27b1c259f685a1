/* Unit tests of the answers block (report/text_answers.c) on hand-made
 * documents: a line per measured decision in the markdown export's words,
 * nothing of a decision not measured, the verdict against a base, one line
 * when nothing was decided, and the block before the tables. Deterministic:
 * no run is measured. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/markdown.h"
#include "report/text.h"

static struct decision_rec decisions[DECISION_KEYS];

static void measured(enum decision_key k, const char *answer, const char *figure, double e, double lo, double hi,
		     const char *flips)
{
	struct decision_rec *r = &decisions[k];
	memset(r, 0, sizeof(*r));
	snprintf(r->key, sizeof(r->key), "%s", decision_key_name(k));
	snprintf(r->question, sizeof(r->question), "%s", decision_question(k));
	r->measured = 1;
	snprintf(r->answer, sizeof(r->answer), "%s", answer);
	snprintf(r->figure, sizeof(r->figure), "%s", figure);
	r->estimate = e;
	r->low = lo;
	r->high = hi;
	snprintf(r->flips_when, sizeof(r->flips_when), "%s", flips);
}

static void not_measured(enum decision_key k, const char *command)
{
	struct decision_rec *r = &decisions[k];
	memset(r, 0, sizeof(*r));
	snprintf(r->key, sizeof(r->key), "%s", decision_key_name(k));
	snprintf(r->question, sizeof(r->question), "%s", decision_question(k));
	r->estimate = r->low = r->high = NAN;
	snprintf(r->command, sizeof(r->command), "%s", command);
}

/* A --compare's decisions: async, link, language measured; the rest not. */
static void compare_doc(struct doc *d)
{
	memset(d, 0, sizeof(*d));
	measured(DECISION_ASYNC, "leave async off", "async/sync lib=archive wall", 17.14, 16.75, 18.15,
		 "an async call (its handoff) would win only where it cost less than a sync call: the ratio would "
		 "have to fall below 1, its interval is [16.750, 18.150]");
	measured(DECISION_LINK, "no difference measured", "shared/archive mode=sync wall", 1.004, 0.990, 1.020,
		 "the interval [0.990, 1.020] holds 1: a longer run narrows it");
	measured(DECISION_LANGUAGE, "too few samples to tell", "go sync/c lib=archive wall", 12.8, NAN, NAN,
		 "the ratio is 12.800, but 3 samples give no 95% interval (6 are needed)");
	not_measured(DECISION_POOLING, "bench --scenario lifecycle --launches 10");
	not_measured(DECISION_MALLOC, "bench --allocators glibc,jemalloc,tcmalloc,mimalloc");
	not_measured(DECISION_TOOLCHAIN, "make matrix");
	d->decisions = decisions;
	d->ndecisions = DECISION_KEYS;
}

/* The answers block of d; how many answers it gave in *lines. */
static char *render(const struct doc *d, size_t *lines)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	n = report_answers_text(f, d);
	fclose(f);
	*lines = n;
	return buf;
}

/* The markdown export of d. */
static char *render_markdown(const struct doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_markdown(f, d);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int k = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		k++;
	return k;
}

/* One line per measured decision, in the document's order, each with its
 * question, answer, figure and interval and the condition that flips it. */
static void test_a_line_per_measured_decision(void **state)
{
	struct doc d;
	size_t lines;
	char *out;
	(void)state;
	compare_doc(&d);
	out = render(&d, &lines);
	assert_int_equal(lines, 3);
	assert_true(strncmp(out, "answers (what this run decides; the tables follow):\n", 52) == 0);
	assert_int_equal(count(out, "\n"), 5); /* the head, three answers, the blank line */
	assert_non_null(strstr(out, "  Turn async on or leave it off? leave async off: async/sync lib=archive wall "
				    "17.140 [16.750, 18.150]; flips when: an async call (its handoff) would win only "
				    "where it cost less than a sync call"));
	assert_non_null(strstr(out, "  c-archive or c-shared? no difference measured: shared/archive mode=sync wall "
				    "1.004 [0.990, 1.020]; flips when: the interval [0.990, 1.020] holds 1"));
	assert_non_null(strstr(out, "go sync/c lib=archive wall 12.800 (no interval); flips when: the ratio is "
				    "12.800, but 3 samples"));
	assert_true(strstr(out, "Turn async") < strstr(out, "c-archive or") &&
		    strstr(out, "c-archive or") < strstr(out, "Go or C"));
	/* not measured: not an answer */
	assert_null(strstr(out, "Which malloc?"));
	assert_null(strstr(out, "Pool plugin"));
	assert_null(strstr(out, "make matrix"));
	assert_true(strlen(out) >= 2 && strcmp(out + strlen(out) - 2, "\n\n") == 0);
	free(out);
}

/* The console and the markdown say the same: every measured decision's
 * answer and condition, word for word, in both. */
static void test_same_words_as_the_markdown(void **state)
{
	struct doc d;
	size_t lines;
	char *text, *md;
	(void)state;
	compare_doc(&d);
	text = render(&d, &lines);
	md = render_markdown(&d);
	for (int k = 0; k < DECISION_KEYS; k++) {
		if (!decisions[k].measured)
			continue;
		assert_non_null(strstr(text, decisions[k].question));
		assert_non_null(strstr(md, decisions[k].question));
		assert_non_null(strstr(text, decisions[k].answer));
		assert_non_null(strstr(md, decisions[k].answer));
		assert_non_null(strstr(text, decisions[k].flips_when));
		assert_non_null(strstr(md, decisions[k].flips_when));
	}
	free(text);
	free(md);
}

/* --against: the verdict is an answer too, as the report's verdict line
 * says it, with its exit status. */
static void test_verdict_against_a_base(void **state)
{
	struct doc d;
	size_t lines;
	char *out;
	(void)state;
	compare_doc(&d);
	for (int k = 0; k < DECISION_KEYS; k++)
		not_measured((enum decision_key)k, "bench --compare");
	d.has_comparison = 1;
	snprintf(d.comparison.against, sizeof(d.comparison.against), "%s", "/base/bench");
	d.comparison.regressed = 1;
	out = render(&d, &lines);
	assert_int_equal(lines, 1);
	assert_non_null(strstr(out, "  Slower than /base/bench? regression detected (exit status 1)\n"));
	free(out);

	d.comparison.regressed = 0;
	d.comparison.inconclusive = 1;
	d.comparison.inconclusive_pass = 1;
	snprintf(d.comparison.undefined_because, sizeof(d.comparison.undefined_because), "%s",
		 "too few generations for a verdict: 5 of 12");
	d.comparison.need_factor = d.comparison.need_s = NAN;
	out = render(&d, &lines);
	assert_non_null(strstr(out, "Slower than /base/bench? inconclusive, too few generations for a verdict: 5 of "
				    "12 (exit status 0, --inconclusive pass)\n"));
	free(out);
}

/* Nothing measured, no base: one line that says so and what would answer. */
static void test_nothing_decided(void **state)
{
	struct doc d;
	size_t lines;
	char *out;
	(void)state;
	memset(&d, 0, sizeof(d));
	out = render(&d, &lines);
	assert_int_equal(lines, 0);
	assert_int_equal(count(out, "\n"), 3);
	assert_non_null(strstr(out, "  none of the six decisions: this run measures none of their figures (bench "
				    "--compare measures async, link and language"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_line_per_measured_decision),
		cmocka_unit_test(test_same_words_as_the_markdown),
		cmocka_unit_test(test_verdict_against_a_base),
		cmocka_unit_test(test_nothing_decided),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
