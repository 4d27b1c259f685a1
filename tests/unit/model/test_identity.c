/* test_identity.c — what names a launch's cells (model/codec_identity.c):
 * the same cells are the same identity, whatever the injected slowdowns,
 * the plugin libraries' folders or an option one side does not record; an
 * option or a cell that differs is named, with both values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/codec_identity.h"

/* A launch's document, as much of it as the identity reads. */
static char *doc_text(const char *options, const char *cell)
{
	static char buf[2][1024];
	static int k;
	char *b = buf[k++ % 2];

	snprintf(b, sizeof(buf[0]),
		 "{\"schema_version\": 1, \"options\": {%s}, \"cells\": [{\"name\": \"%s\", \"launches\": []}]}",
		 options, cell);
	return b;
}

#define CELL	 "lib=archive/mode=sync/work=noop/p=1"
#define MINE	 "\"n\": 2000, \"work\": \"noop\", \"fields\": 1, \"extra_ns\": 0, \"plugin\": [\"/a/libcmock.so\"]"
#define TEXTS(o) doc_text(o, CELL)

static int differ(const char *a, const char *b, char *what, size_t len)
{
	char *ia = doc_identity(a, strlen(a)), *ib = doc_identity(b, strlen(b)), cell[200];
	int rc;

	assert_non_null(ia);
	assert_non_null(ib);
	rc = identity_diff(ia, ib, cell, sizeof(cell), what, len);
	if (rc)
		assert_string_equal(cell, CELL);
	free(ia);
	free(ib);
	return rc;
}

static void test_same_cells(void **state)
{
	char what[400];

	(void)state;
	assert_int_equal(differ(TEXTS(MINE), TEXTS(MINE), what, sizeof(what)), 0);
	/* the slowdown injected into the build under test only */
	assert_int_equal(differ(TEXTS(MINE),
				TEXTS("\"n\": 2000, \"work\": \"noop\", \"fields\": 1, \"extra_ns\": 300, \"plugin\": "
				      "[\"/a/libcmock.so\"]"),
				what, sizeof(what)),
			 0);
	/* each build's own libcmock.so */
	assert_int_equal(differ(TEXTS(MINE),
				TEXTS("\"n\": 2000, \"work\": \"noop\", \"fields\": 1, \"extra_ns\": 0, \"plugin\": "
				      "[\"/b/build/libcmock.so\"]"),
				what, sizeof(what)),
			 0);
	/* a build linked another way (bench against bench-shared) */
	assert_int_equal(differ(TEXTS(MINE), doc_text(MINE, "lib=shared/mode=sync/work=noop/p=1"), what, sizeof(what)),
			 0);
	/* an older build that does not record --plugin */
	assert_int_equal(differ(TEXTS(MINE), TEXTS("\"n\": 2000, \"work\": \"noop\", \"fields\": 1, \"extra_ns\": 0"),
				what, sizeof(what)),
			 0);
}

static void test_named_difference(void **state)
{
	char what[400];

	(void)state;
	assert_int_equal(differ(TEXTS(MINE),
				TEXTS("\"n\": 2000, \"work\": \"bare\", \"fields\": 1, \"extra_ns\": 0, \"plugin\": "
				      "[\"/a/libcmock.so\"]"),
				what, sizeof(what)),
			 1);
	assert_string_equal(what, "--work \"bare\", not \"noop\"");
	assert_int_equal(differ(TEXTS(MINE),
				TEXTS("\"n\": 2000, \"work\": \"noop\", \"fields\": 4, \"extra_ns\": 0, \"plugin\": "
				      "[\"/a/libcmock.so\"]"),
				what, sizeof(what)),
			 1);
	assert_string_equal(what, "--fields 4, not 1");
	assert_int_equal(differ(TEXTS(MINE),
				TEXTS("\"n\": 2000, \"work\": \"noop\", \"fields\": 1, \"extra_ns\": 0, \"plugin\": "
				      "[\"/a/libother.so\"]"),
				what, sizeof(what)),
			 1);
	assert_string_equal(what, "--plugin [\"libother.so\"], not [\"libcmock.so\"]");
	/* the same options, another cell (a mode the build chose itself) */
	assert_int_equal(
		differ(TEXTS(MINE), doc_text(MINE, "lib=archive/mode=sync-fallback/work=noop/p=1"), what, sizeof(what)),
		1);
	assert_string_equal(what, "the cell \"lib=archive/mode=sync-fallback/work=noop/p=1\", not \"" CELL "\"");
}

static void test_not_a_document(void **state)
{
	(void)state;
	assert_null(doc_identity("garbage", 7));
	assert_null(doc_identity("{\"cells\": []}", 13));
	assert_null(doc_identity("{\"options\": {}, \"cells\": {}}", 28));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_cells),
		cmocka_unit_test(test_named_difference),
		cmocka_unit_test(test_not_a_document),
	};
	return cmocka_run_group_tests_name("identity", tests, NULL, NULL);
}
