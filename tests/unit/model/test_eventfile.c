/* test_eventfile.c — the --events file's format (model/eventfile.c): one
 * payload a line, as getline read them before the split moved here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/eventfile.h"

static void test_lines_are_payloads(void **state)
{
	static const char text[] = "first\n\nthird payload\nno newline";
	struct event_line *l;
	size_t n;
	char err[256];
	(void)state;

	assert_int_equal(eventfile_split(text, strlen(text), "e.txt", &l, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(l[0].offset, 0);
	assert_int_equal(l[0].len, 5);
	assert_int_equal(l[1].len, 0);
	assert_memory_equal(text + l[2].offset, "third payload", 13);
	assert_int_equal(l[2].len, 13);
	assert_memory_equal(text + l[3].offset, "no newline", 10);
	free(l);
	/* one newline is one empty payload; a NUL byte is payload */
	assert_int_equal(eventfile_split("\n", 1, "e.txt", &l, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(l[0].len, 0);
	free(l);
	assert_int_equal(eventfile_split("a\0b\n", 4, "e.txt", &l, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(l[0].len, 3);
	free(l);
}

static void test_refusals(void **state)
{
	size_t big = EVENT_PAYLOAD_MAX + 1, n = 7;
	char *text = malloc(big + 3), err[256];
	struct event_line *l = (struct event_line *)&n;
	(void)state;

	assert_int_equal(eventfile_split("", 0, "e.txt", &l, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "--events e.txt: the file is empty (one payload a line)");
	assert_null(l);
	assert_int_equal(n, 0);
	/* the longest line passes, one byte more is refused, named by its number */
	assert_non_null(text);
	text[0] = 'x', text[1] = '\n';
	memset(text + 2, 'y', big);
	text[big + 2] = '\n';
	assert_int_equal(eventfile_split(text, big + 1, "e.txt", &l, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(l);
	assert_int_equal(eventfile_split(text, big + 2, "e.txt", &l, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "--events e.txt: line 2 is longer than 1048576 bytes");
	assert_null(l);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_are_payloads),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests_name("eventfile", tests, NULL, NULL);
}
