/* test_event.c — the plugin event's layout byte for byte, and the event
 * file (plugin/event.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "plugin/event.h"
#include "plugin/plugin_fields.h"

/* | ts 8 | tid 8 | len 4 | type 2 | nparams 4 | len 4 | len 4 | id 4 | data |,
 * little-endian on the machines cgocost runs on. */
static void test_plugin_event_layout(void **state)
{
	unsigned char buf[64];
	static const unsigned char want[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* ts: (uint64_t)-1 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* tid: (uint64_t)-1 */
		41,   0,    0,	  0,				/* len: 26 + 8 + 4 + 3 */
		0x42, 0x01,					/* type: 322 */
		2,    0,    0,	  0,				/* nparams */
		4,    0,    0,	  0,				/* len of the plugin id */
		3,    0,    0,	  0,				/* len of the data */
		0xe7, 0x03, 0,	  0,				/* plugin id 999 */
		'a',  'b',  'c',				/* data */
	};
	(void)state;

	assert_int_equal(PLUGIN_EVENT_OVERHEAD, 38);
	assert_int_equal(plugin_event_build(buf, sizeof(buf), 999, "abc", 3), sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(plugin_event_build(buf, 40, 999, "abc", 3), 0);
}

static void test_event_file(void **state)
{
	char path[] = "/tmp/cgocost-events-XXXXXX", err[256];
	struct event_set s;
	FILE *f;
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("first\n\nthird payload\n", f);
	fclose(f);
	assert_int_equal(event_set_load(&s, path, 7, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.payload_bytes, 5 + 0 + 13);
	assert_memory_equal(s.events[2] + PLUGIN_EVENT_OVERHEAD, "third payload", 13);
	event_set_free(&s);
	f = fopen(path, "w");
	fclose(f);
	assert_int_equal(event_set_load(&s, path, 7, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	remove(path);
	assert_int_equal(event_set_load(&s, path, 7, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
}

/* --work json: a JSON document of the size asked (at least its unpadded
 * length), with the key the values are checked against. */
static void test_json_document(void **state)
{
	char buf[4096], err[128];
	struct event_set s;
	(void)state;

	for (uint32_t size = 0; size <= 2048; size += 256) {
		size_t n = event_json_document(buf, sizeof(buf), size, MOCK_JSON_KEY);
		json_t *doc = json_loadb(buf, n, 0, NULL);
		assert_true(n > 300);
		assert_true(n >= size && (size < 500 || n == size));
		assert_int_equal(strlen(buf), n);
		assert_non_null(doc);
		assert_true(json_integer_value(json_object_get(doc, "key")) == (json_int_t)MOCK_JSON_KEY);
		assert_string_equal(json_string_value(json_object_get(doc, "verb")), "get");
		json_decref(doc);
	}
	assert_int_equal(event_json_document(buf, 100, 0, MOCK_JSON_KEY), 0);	  /* too small a buffer */
	assert_int_equal(event_json_document(buf, 2048, 2048, MOCK_JSON_KEY), 0); /* no room for the NUL */
	assert_int_equal(event_set_json(&s, 2048, 7, err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.payload_bytes, 2048);
	event_set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_document),
		cmocka_unit_test(test_plugin_event_layout),
		cmocka_unit_test(test_event_file),
	};
	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
