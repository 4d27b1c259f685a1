/* test_export.c — the words of --export FORMAT=FILE (report/export.c) and
 * the document rendered in each format the report layer writes: the same
 * JSON as report_json, the same lines as report_gobench, markdown; html is
 * not the report layer's (cgocost-report makes it). No timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/codec.h"
#include "model/model.h"
#include "model_fixture.h"
#include "report/export.h"
#include "report/gobench.h"
#include "report/json.h"

static void test_parse_words(void **state)
{
	static const struct {
		const char *word;
		enum export_format format;
		const char *file;
	} good[] = {
		{ "json=a.json", EXPORT_JSON, "a.json" },
		{ "gobench=-", EXPORT_GOBENCH, "-" },
		{ "markdown=dir/b.md", EXPORT_MARKDOWN, "dir/b.md" },
		{ "html=/tmp/x=y.html", EXPORT_HTML, "/tmp/x=y.html" },
	};
	static const struct {
		const char *word, *needle;
	} bad[] = {
		{ "xml=a", "--export: 'xml' in 'xml=a' is not one of json, gobench, markdown, html" },
		{ "json", "'json' is not FORMAT=FILE" },
		{ "json=", "'json=' names no FILE" },
		{ "=a", "'=a' names no FORMAT" },
		{ "JSON=a", "is not one of" },
		{ "jsonx=a", "is not one of" },
		{ "js=a", "is not one of" },
		{ "", "is not FORMAT=FILE" },
	};
	static const char *const names[] = { "json", "gobench", "markdown", "html" };
	struct export_spec e;
	char err[512];
	(void)state;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(export_parse(good[i].word, &e, err, sizeof(err)), 0);
		assert_int_equal(e.format, good[i].format);
		assert_string_equal(e.file, good[i].file);
		assert_int_equal(export_to_stdout(&e), strcmp(good[i].file, "-") == 0);
		assert_string_equal(export_format_name(e.format), names[good[i].format]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(export_parse(bad[i].word, &e, err, sizeof(err)), -1);
		if (strstr(err, bad[i].needle) == NULL)
			fail_msg("'%s': message '%s' lacks '%s'", bad[i].word, err, bad[i].needle);
		assert_null(strchr(err, '\n'));
	}
}

/* What export_render writes for f, NUL-terminated (malloc'd); *rc its status. */
static char *rendered(enum export_format f, const struct doc *d, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	*rc = export_render(m, f, d);
	fclose(m);
	return buf;
}

static void test_render_formats(void **state)
{
	struct doc d, back;
	double b[2] = { 50, 70 };
	struct launch_rec *ls = calloc(1, sizeof(*ls));
	char *json, *gobench, *md, *html, *want = NULL, err[256];
	size_t wlen = 0;
	FILE *m;
	int rc;
	(void)state;

	fixture_doc(&d);
	ls[0] = fixture_launch(60, 80, b, 2);
	fixture_cell(&d, "archive", "sync", ls, 1);

	json = rendered(EXPORT_JSON, &d, &rc);
	assert_int_equal(rc, 0);
	m = open_memstream(&want, &wlen);
	report_json(m, &d, 0);
	fclose(m);
	assert_string_equal(json, want); /* --format json's document */
	assert_int_equal(doc_loads(&back, json, strlen(json), err, sizeof(err)), 0);
	assert_int_equal(back.ncells, 1);
	assert_string_equal(back.cells[0].name, "lib=archive/mode=sync/work=noop/p=1");
	doc_free(&back);
	free(want);

	gobench = rendered(EXPORT_GOBENCH, &d, &rc);
	assert_int_equal(rc, 0);
	want = NULL;
	m = open_memstream(&want, &wlen);
	report_gobench(m, &d);
	fclose(m);
	assert_string_equal(gobench, want);
	free(want);

	md = rendered(EXPORT_MARKDOWN, &d, &rc);
	assert_int_equal(rc, 0);
	assert_true(md[0] == '#' || md[0] == '|');
	assert_non_null(strstr(md, "lib=archive/mode=sync/work=noop/p=1"));

	html = rendered(EXPORT_HTML, &d, &rc); /* cgocost-report's, not this layer's */
	assert_int_equal(rc, -1);
	assert_string_equal(html, "");

	free(json);
	free(gobench);
	free(md);
	free(html);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_words),
		cmocka_unit_test(test_render_formats),
	};
	return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}
