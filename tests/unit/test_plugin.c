/* test_plugin.c — what the driver reads of a plugin library: the field list
 * of plugin_get_fields (real shapes: arguments, lists, types), resolving a
 * --field against it, the plugin event's layout byte for byte, and the API
 * version check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plugin/event.h"
#include "plugin/fieldlist.h"
#include "plugin/library.h"

/* The shape real plugins declare (the k8saudit and json plugins' kinds of
 * fields): plain, list, a required key argument, an optional index, and the
 * example of plugin_api.h itself. */
static const char *const real_fields =
	"[{\"type\":\"uint64\",\"name\":\"field1\",\"desc\":\"Describing field 1\",\"addOutput\":true},"
	" {\"type\":\"string\",\"name\":\"field2\",\"arg\":{\"isRequired\":true,\"isIndex\":true},\"desc\":\"d\"},"
	" {\"type\":\"string\",\"name\":\"ka.req.pod.containers.image\",\"isList\":true,\"arg\":{\"isRequired\":false,\"isIndex\":true},\"desc\":\"d\"},"
	" {\"type\":\"string\",\"name\":\"json.value\",\"arg\":{\"isRequired\":true,\"isKey\":true},\"display\":\"JSON\",\"desc\":\"d\"},"
	" {\"type\":\"bool\",\"name\":\"ka.auth.decision\",\"desc\":\"d\"},"
	" {\"type\":\"reltime\",\"name\":\"ka.latency\",\"desc\":\"d\"},"
	" {\"type\":\"abstime\",\"name\":\"evt.at\",\"desc\":\"d\"},"
	" {\"type\":\"ipaddr\",\"name\":\"ka.sourceips\",\"isList\":true,\"desc\":\"d\"},"
	" {\"type\":\"ipnet\",\"name\":\"net.cidr\",\"desc\":\"d\"}]";

static void test_fields_parse_real_shapes(void **state)
{
	struct field_list l;
	char err[256];
	(void)state;

	assert_int_equal(fieldlist_parse(real_fields, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 9);
	assert_string_equal(l.fields[0].name, "field1");
	assert_int_equal(l.fields[0].ftype, 8);
	assert_false(l.fields[0].is_list);
	assert_true(l.fields[1].arg_required && l.fields[1].arg_index && !l.fields[1].arg_key);
	assert_true(l.fields[2].is_list && !l.fields[2].arg_required && l.fields[2].arg_index);
	assert_true(l.fields[3].arg_required && l.fields[3].arg_key);
	assert_int_equal(l.fields[4].ftype, 25);
	assert_int_equal(l.fields[5].ftype, 20);
	assert_int_equal(l.fields[6].ftype, 21);
	assert_int_equal(l.fields[7].ftype, 40);
	assert_true(l.fields[7].is_list);
	assert_int_equal(l.fields[8].ftype, 41);
	assert_int_equal(fieldlist_find(&l, "json.value"), 3);
	assert_int_equal(fieldlist_find(&l, "json"), -1);
	fieldlist_free(&l);
}

static void test_fields_parse_rejects(void **state)
{
	struct field_list l;
	char err[256];
	(void)state;

	assert_int_equal(fieldlist_parse(NULL, &l, err, sizeof(err)), -1);
	assert_int_equal(fieldlist_parse("not json", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not JSON"));
	assert_int_equal(fieldlist_parse("[]", &l, err, sizeof(err)), -1);
	assert_int_equal(fieldlist_parse("{\"name\":\"x\"}", &l, err, sizeof(err)), -1);
	assert_int_equal(fieldlist_parse("[{\"type\":\"uint64\"}]", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "entry 0"));
	assert_int_equal(fieldlist_parse("[{\"name\":\"a\",\"type\":\"float\"}]", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "field a"));
	assert_int_equal(fieldlist_parse("[{\"name\":\"a\",\"type\":\"uint64\",\"arg\":true}]", &l, err, sizeof(err)),
			 -1);
}

static void test_field_resolution(void **state)
{
	struct field_list l;
	struct field_sel s;
	char err[600];
	(void)state;

	assert_int_equal(fieldlist_parse(real_fields, &l, err, sizeof(err)), 0);
	assert_int_equal(fieldlist_resolve(&l, "field1", &s, err, sizeof(err)), 0);
	assert_int_equal(s.id, 0);
	assert_false(s.arg_present);
	assert_int_equal(fieldlist_resolve(&l, "field2[3]", &s, err, sizeof(err)), 0);
	assert_int_equal(s.id, 1);
	assert_true(s.arg_present);
	assert_int_equal(s.arg_index, 3);
	assert_string_equal(s.arg_key, "3");
	assert_int_equal(fieldlist_resolve(&l, "json.value[/user/name]", &s, err, sizeof(err)), 0);
	assert_int_equal(s.id, 3);
	assert_string_equal(s.arg_key, "/user/name");
	assert_int_equal(fieldlist_resolve(&l, "ka.req.pod.containers.image", &s, err, sizeof(err)), 0);
	assert_true(s.is_list);
	/* required argument missing, unexpected argument, bad index, malformed */
	assert_int_equal(fieldlist_resolve(&l, "json.value", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "requires an argument"));
	assert_int_equal(fieldlist_resolve(&l, "field1[x]", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "takes no argument"));
	assert_int_equal(fieldlist_resolve(&l, "field2[x]", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "numeric index"));
	assert_int_equal(fieldlist_resolve(&l, "field2[3", &s, err, sizeof(err)), -1);
	assert_int_equal(fieldlist_resolve(&l, "[3]", &s, err, sizeof(err)), -1);
	/* unknown: the closest declared names, closest first */
	assert_int_equal(fieldlist_resolve(&l, "feild1", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such field"));
	assert_non_null(strstr(err, "closest: field1, field2"));
	fieldlist_free(&l);
}

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

static void test_api_version_check(void **state)
{
	char err[256], newer[32];
	(void)state;

	assert_int_equal(api_version_check(plugin_api_header_version(), err, sizeof(err)), 0);
	assert_int_equal(api_version_check("3.0.0", err, sizeof(err)), 0);
	snprintf(newer, sizeof(newer), "3.%d.0", PLUGIN_API_VERSION_MINOR + 1);
	assert_int_equal(api_version_check(newer, err, sizeof(err)), -1);
	assert_non_null(strstr(err, newer));
	assert_non_null(strstr(err, plugin_api_header_version()));
	assert_int_equal(api_version_check("2.0.0", err, sizeof(err)), -1);
	assert_int_equal(api_version_check("4.0.0", err, sizeof(err)), -1);
	assert_int_equal(api_version_check("three", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a version"));
	assert_int_equal(api_version_check(NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, plugin_api_header_version()));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_parse_real_shapes),
		cmocka_unit_test(test_fields_parse_rejects),
		cmocka_unit_test(test_field_resolution),
		cmocka_unit_test(test_plugin_event_layout),
		cmocka_unit_test(test_event_file),
		cmocka_unit_test(test_api_version_check),
	};
	return cmocka_run_group_tests_name("plugin", tests, NULL, NULL);
}
