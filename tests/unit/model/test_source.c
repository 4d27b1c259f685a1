/* test_source.c — where a run comes from (model/source.c and its codec,
 * model/codec_source.c): commits and RFC 3339 times accepted and refused,
 * the source section written and read back, a document without one read
 * as before, and a section with a bad value refused naming its key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/codec.h"
#include "model/model.h"
#include "model/source.h"
#include "model_fixture.h"

static void test_commits(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(source_check_commit("78eae77", err, sizeof(err)), 0);
	assert_int_equal(source_check_commit("59d9aaa559568d812e44bb81d4e8c5e2cb58726f", err, sizeof(err)), 0);
	assert_int_equal(source_check_commit("ABCDEF01", err, sizeof(err)), 0);
	assert_int_equal(source_check_commit("abc", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "4 to 64"));
	assert_int_equal(source_check_commit("78eae7g", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "hex digits only"));
	assert_int_equal(source_check_commit("main", err, sizeof(err)), -1);
}

static void test_times(void **state)
{
	char err[256];
	int64_t t = 0;

	(void)state;
	assert_int_equal(source_parse_time("1970-01-01T00:00:00Z", &t, err, sizeof(err)), 0);
	assert_int_equal(t, 0);
	/* git show -s --format=%cI */
	assert_int_equal(source_parse_time("2026-12-05T07:14:07+00:00", &t, err, sizeof(err)), 0);
	assert_int_equal(t, INT64_C(1796454847));
	/* the same instant in another zone, with a fraction */
	assert_int_equal(source_parse_time("2026-12-05T09:14:07.25+02:00", &t, err, sizeof(err)), 0);
	assert_int_equal(t, INT64_C(1796454847));
	assert_int_equal(source_parse_time("2024-02-29T12:00:00-05:30", &t, err, sizeof(err)), 0);
	assert_int_equal(t, INT64_C(1709227800));
	const char *bad[] = { "2026-12-05",
			      "2026-12-05T07:14:07",
			      "2025-02-29T00:00:00Z",
			      "2026-13-01T00:00:00Z",
			      "2026-12-05T24:00:00Z",
			      "2026-12-05T07:14:07+0000",
			      "2026-12-05T07:14:07Z junk",
			      "yesterday",
			      "2026-12-05T07:14:07.Z",
			      "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (source_parse_time(bad[i], &t, err, sizeof(err)) != -1)
			fail_msg("'%s' was taken for a time", bad[i]);
		assert_non_null(strstr(err, "RFC 3339"));
	}
}

/* Written and read back; a document without one reads as before. */
static void test_section(void **state)
{
	struct doc d, back;
	struct options o;
	char err[512] = "", *text;

	(void)state;
	options_defaults(&o);
	o.commit = "78eae77";
	o.commit_time = "2026-12-03T10:05:34+00:00";
	o.label = "main";
	doc_begin(&d, NULL, &o);
	assert_true(d.has_source);
	fixture_cell(&d, "archive", "sync", fixture_launches(3, 70, 1, 140), 3);
	text = doc_dumps(&d, 0);
	assert_non_null(strstr(text, "\"source\": {"));
	if (doc_loads(&back, text, strlen(text), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_true(back.has_source);
	assert_string_equal(back.source.commit, "78eae77");
	assert_string_equal(back.source.commit_time, "2026-12-03T10:05:34+00:00");
	assert_string_equal(back.source.label, "main");
	doc_free(&back);

	/* a bad commit in a document: refused, naming the key */
	memcpy(strstr(text, "78eae77"), "78eae7x", 7);
	assert_int_equal(doc_loads(&back, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "source"));
	assert_non_null(strstr(err, "commit"));
	assert_null(strchr(err, '\n'));
	free(text);
	doc_free(&d);

	/* told nothing: no section, and read back without one */
	options_defaults(&o);
	doc_begin(&d, NULL, &o);
	assert_false(d.has_source);
	fixture_cell(&d, "archive", "sync", fixture_launches(3, 70, 1, 140), 3);
	text = doc_dumps(&d, 0);
	assert_null(strstr(text, "\"source\""));
	if (doc_loads(&back, text, strlen(text), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_false(back.has_source);
	doc_free(&back);
	doc_free(&d);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commits),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_section),
	};
	return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
