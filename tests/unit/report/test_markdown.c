/* test_markdown.c — the markdown report (report/markdown.c) of fixed
 * models against golden files (tests/unit/report/golden/NAME.md): one
 * cell, a --compare over launches, a paired --compare, and a comparison
 * with each verdict (regressed, no change, improved, undefined). Every
 * table of every report has the same number of cells on each line, and a
 * '|' in a cell is escaped.
 *
 * A difference fails the test and prints `diff -u golden actual` (the
 * actual text is left beside the test binary, NAME.md.actual). To accept
 * a change on purpose: CGOCOST_UPDATE_GOLDEN=1 make test-unit, then read
 * the diff of the golden files before committing them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "analyse/analysis.h"
#include "analyse/decisions.h"
#include "base/atomicfile.h"
#include "model_fixture.h"
#include "report/markdown.h"

static char *render(const struct doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_markdown(f, d), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The '|' that split a table line into cells: not those escaped. */
static int table_pipes(const char *line, size_t len)
{
	int n = 0;
	for (size_t i = 0; i < len; i++)
		if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
			n++;
	return n;
}

/* Every run of lines starting with '|' is a table: a header, a delimiter
 * row of dashes, and rows, each line ending in '|' with as many cells as
 * the header. Returns the number of tables. */
static int check_tables(const char *text)
{
	const char *p = text;
	int tables = 0, want = -1, row = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > 0 && p[0] == '|') {
			int n = table_pipes(p, len);
			if (p[len - 1] != '|')
				fail_msg("a table line that does not end in '|': %.*s", (int)len, p);
			if (row == 0) {
				want = n;
				tables++;
			} else if (n != want) {
				fail_msg("a table line with %d cells, its header has %d: %.*s", n - 1, want - 1,
					 (int)len, p);
			}
			if (row == 1 && strspn(p, "|-: ") != len)
				fail_msg("the second line of a table is not its delimiter row: %.*s", (int)len, p);
			row++;
		} else {
			if (row == 1)
				fail_msg("a table of one line");
			row = 0;
		}
		p = nl ? nl + 1 : p + len;
	}
	return tables;
}

static char *read_file(const char *path)
{
	char *data, err[512];
	size_t len;

	return read_whole_file(path, &data, &len, 1 << 24, err, sizeof(err)) == 0 ? data : NULL;
}

static void write_file(const char *path, const char *text)
{
	char err[512];

	if (atomic_write_file(path, text, strlen(text), err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

/* The report of d against golden/NAME.md; d is freed. */
static void golden(const char *name, struct doc *d, int want_tables)
{
	char path[4096], actual[4096], cmd[8400];
	char *got = render(d), *want;
	const char *update = getenv("CGOCOST_UPDATE_GOLDEN");

	doc_free(d);
	assert_int_equal(check_tables(got), want_tables);
	snprintf(path, sizeof(path), "%s/golden/%s.md", env_or("CGOCOST_UNIT_SRC", "tests/unit/report"), name);
	if (update && strcmp(update, "1") == 0) {
		write_file(path, got);
		fprintf(stderr, "updated %s\n", path);
		free(got);
		return;
	}
	want = read_file(path);
	if (want == NULL)
		fail_msg("no golden file %s (CGOCOST_UPDATE_GOLDEN=1 writes it)", path);
	if (strcmp(want, got) != 0) {
		snprintf(actual, sizeof(actual), "%s/%s.md.actual", env_or("CGOCOST_UNIT_BIN", "."), name);
		write_file(actual, got);
		snprintf(cmd, sizeof(cmd), "diff -u '%s' '%s' >&2", path, actual);
		if (system(cmd) == -1)
			fprintf(stderr, "(diff could not run)\n");
		free(want);
		free(got);
		fail_msg(
			"%s: the markdown differs from its golden file (diff above; CGOCOST_UPDATE_GOLDEN=1 accepts it)",
			name);
	}
	free(want);
	free(got);
}

static void command(struct doc *d, int argc, const char *const *argv)
{
	assert_int_equal(doc_set_command(d, argc, argv), 0);
}

static void analysed(struct doc *d)
{
	char err[256];
	if (analyse_document(d, err, sizeof(err)) != 0)
		fail_msg("analyse: %s", err);
	assert_int_equal(decide(d), 0);
}

/* One launch of one cell: its batches are the samples. */
static void single_doc(struct doc *d)
{
	static const double b[8] = { 101.5, 99.8, 100.2, 100.9, 98.7, 102.4, 100.1, 99.5 };
	static const char *const argv[] = { "./build/bench", "-n", "20000", "--plugin-config", "{\"a\": \"b|c\"}" };
	struct launch_rec *l = calloc(1, sizeof(*l));

	fixture_doc(d);
	*l = fixture_launch(100.15, 130.0, b, 8);
	fixture_cell(d, "archive", "sync", l, 1);
	analysed(d);
	command(d, 5, argv);
}

static void test_single_cell(void **state)
{
	struct doc d;
	(void)state;
	single_doc(&d);
	golden("single", &d, 2);
}

/* --compare --interleave launches: five cells in six launches, so the
 * ratios have intervals and the decisions answers. */
static void compare_doc(struct doc *d)
{
	static const char *const argv[] = {
		"./build/bench", "--compare", "--interleave", "launches", "--launches", "6"
	};

	fixture_doc(d);
	fixture_cell(d, "archive", "sync", fixture_launches(6, 104, 0.5, 150), 6);
	fixture_cell(d, "archive", "async", fixture_launches(6, 240, 2, 600), 6);
	fixture_cell(d, "shared", "sync", fixture_launches(6, 103.5, 1.5, 150), 6);
	fixture_cell(d, "shared", "async", fixture_launches(6, 236, 2.5, 600), 6);
	fixture_cell(d, "loaded", "sync", fixture_launches(6, 10, 0.1, 10), 6);
	for (size_t i = 0; i < d->ncells; i++)
		d->cells[i].mode_verified = 1;
	analysed(d);
	command(d, 6, argv);
}

static void test_compare(void **state)
{
	struct doc d;
	(void)state;
	compare_doc(&d);
	golden("compare", &d, 3);
}

static void pair_ratio(struct doc *d, const char *name, int num, int den, double e, double lo, double hi, double p)
{
	struct pair_ratio_rec *r = model_append((void **)&d->paired.ratios, &d->paired.nratios, sizeof(*r));

	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->num = num;
	r->den = den;
	r->estimate = e;
	r->low = lo;
	r->high = hi;
	r->half_width_pct = isfinite(lo) ? 100.0 * (hi - lo) / 2.0 / e : NAN;
	r->p = p;
	r->nsamples = 12;
}

/* A paired --compare: the decisions and the ratios table read the paired
 * estimates (one with no interval). */
static void test_paired_compare(void **state)
{
	static const char *const argv[] = { "./build/bench", "--compare", "--time", "30" };
	struct doc d;
	(void)state;

	compare_doc(&d);
	command(&d, 4, argv);
	d.has_paired = 1;
	d.paired.ngenerations = 12;
	for (size_t i = 0; i < d.ncells; i++) {
		struct pair_cell_rec *c = model_append((void **)&d.paired.cells, &d.paired.ncells, sizeof(*c));
		assert_non_null(c);
		snprintf(c->name, sizeof(c->name), "%s", d.cells[i].name);
		snprintf(c->side, sizeof(c->side), "this");
	}
	pair_ratio(&d, "async/sync lib=archive wall", 1, 0, 2.312, 2.288, 2.341, 0.0005);
	pair_ratio(&d, "async/sync lib=shared wall", 3, 2, 2.281, 2.254, 2.307, 0.0005);
	pair_ratio(&d, "shared/archive mode=sync wall", 2, 0, 0.9987, 0.9941, 1.0032, 0.52);
	pair_ratio(&d, "shared/archive mode=async wall", 3, 1, 0.983, NAN, NAN, 0.11);
	pair_ratio(&d, "go sync/c lib=archive wall", 0, 4, 10.41, 10.33, 10.52, 0.0005);
	assert_int_equal(decide(&d), 0);
	golden("paired_compare", &d, 3);
}

/* A comparison against a base, with changes as a run judged them. */
static struct change_rec *change(struct doc *d, const char *scenario, const char *kind, double lo, double point,
				 double hi, double p, verdict_t v, size_t n)
{
	struct change_rec *c =
		model_append((void **)&d->comparison.changes, &d->comparison.nchanges, sizeof(*d->comparison.changes));

	assert_non_null(c);
	snprintf(c->scenario, sizeof(c->scenario), "%s", scenario);
	snprintf(c->kind, sizeof(c->kind), "%s", kind);
	c->gated = 1;
	c->ch = (change_estimate){ .lo = lo,
				   .point = point,
				   .hi = hi,
				   .p = p,
				   .alpha = 0.05,
				   .threshold = 0.05,
				   .seed = 1,
				   .resamples = 10000,
				   .verdict = v };
	c->base_n = c->n = n;
	if (format_change(c->line, sizeof(c->line), &c->ch) < 0)
		snprintf(c->line, sizeof(c->line), "change: n/a");
	if (v == VERDICT_REGRESSED)
		d->comparison.regressed = 1;
	return c;
}

static void against_doc(struct doc *d, const char *against)
{
	const char *argv[] = { "./build/bench", "-n",	    "20000",	 "--launches", "12",
			       "--interleave",	"launches", "--against", against };

	fixture_doc(d);
	fixture_cell(d, "archive", "sync", fixture_launches(12, 100, 0.25, 130), 12);
	analysed(d);
	command(d, 9, argv);
	d->has_comparison = 1;
	snprintf(d->comparison.against, sizeof(d->comparison.against), "%s", against);
	d->comparison.same_time = 1;
	d->comparison.machine_key_matches = 1;
	d->comparison.threshold = 0.05;
	d->comparison.alpha = 0.05;
	d->comparison.seed = 1;
	d->comparison.resamples = 10000;
}

static void test_against_regressed(void **state)
{
	struct doc d;
	(void)state;
	against_doc(&d, "/tmp/old/bench");
	change(&d, d.cells[0].name, "cell", 0.081, 0.102, 0.124, 0.0001, VERDICT_REGRESSED, 12);
	golden("against_regressed", &d, 3);
}

static void test_against_no_change(void **state)
{
	struct doc d;
	struct change_rec *c;
	(void)state;
	against_doc(&d, "base.json");
	d.comparison.same_time = 0;
	d.comparison.machine_key_matches = 0;
	c = change(&d, d.cells[0].name, "cell", -0.012, 0.002, 0.013, 0.62, VERDICT_NO_CHANGE, 12);
	c->gated = 0;
	snprintf(c->not_gated_because, sizeof(c->not_gated_because),
		 "machine key differs (CPU, kernel, Go version, library or options): absolute times are not "
		 "comparable; judged by ratios");
	change(&d, "async/sync lib=archive wall", "ratio", -0.021, 0.004, 0.019, 0.81, VERDICT_NO_CHANGE, 12);
	golden("against_no_change", &d, 3);
}

static void test_against_improved(void **state)
{
	struct doc d;
	(void)state;
	against_doc(&d, "/tmp/old/bench");
	change(&d, d.cells[0].name, "cell", -0.151, -0.122, -0.093, 0.0001, VERDICT_IMPROVED, 12);
	golden("against_improved", &d, 3);
}

static void test_against_undefined(void **state)
{
	struct doc d;
	struct change_rec *c;
	(void)state;
	against_doc(&d, "/tmp/old/bench");
	d.has_paired = 1;
	d.paired.ngenerations = 5;
	c = change(&d, d.cells[0].name, "pair", -0.031, 0.012, 0.055, 0.31, VERDICT_UNDEFINED, 5);
	c->min_n = 12;
	d.comparison.min_samples = 12;
	snprintf(d.comparison.undefined_because, sizeof(d.comparison.undefined_because),
		 "too few generations for a verdict: 5 of 12");
	d.comparison.inconclusive = 1;
	d.comparison.need_factor = 12.0 / 5.0;
	d.comparison.need_s = NAN;
	golden("against_undefined", &d, 3);
}

/* The interval reaches +5% without lying above it: inconclusive, exit 4,
 * with what would tell. */
static void test_against_inconclusive(void **state)
{
	struct doc d;
	(void)state;
	against_doc(&d, "/tmp/old/bench");
	d.has_paired = 1;
	d.paired.ngenerations = 30;
	change(&d, d.cells[0].name, "pair", -0.011, 0.018, 0.057, 0.31, VERDICT_INCONCLUSIVE, 30);
	d.comparison.inconclusive = 1;
	d.comparison.need_factor = 3.2;
	d.comparison.need_s = 66;
	golden("against_inconclusive", &d, 3);
}

/* A '|' in a cell's name and in a decision's text stays inside its cell;
 * a command with quotes and backticks is quoted for the shell in a fence
 * longer than its backticks. */
static void test_escaping(void **state)
{
	static const char *const argv[] = { "./build/bench", "--idle", "/tmp/a|b.so", "it's", "```x" };
	struct doc d;
	char *got;
	(void)state;

	single_doc(&d);
	snprintf(d.cells[0].name, sizeof(d.cells[0].name), "lib=archive/with=idle:/tmp/a|b.so");
	snprintf(d.decisions[0].flips_when, sizeof(d.decisions[0].flips_when), "x | y");
	d.decisions[0].measured = 1;
	snprintf(d.decisions[0].answer, sizeof(d.decisions[0].answer), "a|b");
	command(&d, 5, argv);
	got = render(&d);
	doc_free(&d);
	assert_int_equal(check_tables(got), 2);
	assert_non_null(strstr(got, "`lib=archive/with=idle:/tmp/a\\|b.so`"));
	assert_non_null(strstr(got, "| x \\| y |"));
	assert_non_null(strstr(got, "**a\\|b**"));
	assert_non_null(strstr(got, "\n````sh\n./build/bench --idle '/tmp/a|b.so' 'it'\\''s' '```x'\n````\n"));
	free(got);
}

/* Measured without a figure (no allocator had a verdict): no number. */
static void test_decision_without_figure(void **state)
{
	struct doc d;
	struct decision_rec *r;
	char *got;
	(void)state;

	single_doc(&d);
	r = &d.decisions[DECISION_MALLOC];
	r->measured = 1;
	r->command[0] = '\0';
	snprintf(r->answer, sizeof(r->answer), "%s", DECISION_TOO_FEW);
	snprintf(r->flips_when, sizeof(r->flips_when), "no allocator has a verdict");
	got = render(&d);
	doc_free(&d);
	assert_non_null(
		strstr(got, "\n| Which malloc? | **too few samples to tell** | - | no allocator has a verdict |\n"));
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_cell),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_paired_compare),
		cmocka_unit_test(test_against_regressed),
		cmocka_unit_test(test_against_inconclusive),
		cmocka_unit_test(test_against_no_change),
		cmocka_unit_test(test_against_improved),
		cmocka_unit_test(test_against_undefined),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_decision_without_figure),
	};
	return cmocka_run_group_tests_name("markdown", tests, NULL, NULL);
}
