/* test_fieldlist.c — what the driver reads of a plugin library's field list
 * (plugin/fieldlist.c): the list of plugin_get_fields (real shapes:
 * arguments, lists, types), and resolving a --field against it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

/* Found by fuzzing (tests/fuzz/fuzz_fieldspec.c, its input in the corpus):
 * "field2[]" was index 0, "field2[ -1]" index 2^64 - 1, "field2[+3]" and
 * "field2[ 3]" index 3 (strtoull's leniency). An argument is not empty, and
 * an index is decimal digits only. */
static void test_field_argument_is_written_out(void **state)
{
	static const char *const bad_index[] = { "field2[ -1]", "field2[+3]", "field2[ 3]", "field2[3 ]",
						 "field2[0x3]" };
	struct field_list l;
	struct field_sel s;
	char err[600];
	(void)state;

	assert_int_equal(fieldlist_parse(real_fields, &l, err, sizeof(err)), 0);
	assert_int_equal(fieldlist_resolve(&l, "field2[]", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not NAME or NAME[arg]"));
	assert_int_equal(fieldlist_resolve(&l, "json.value[]", &s, err, sizeof(err)), -1);
	for (size_t i = 0; i < sizeof(bad_index) / sizeof(bad_index[0]); i++) {
		assert_int_equal(fieldlist_resolve(&l, bad_index[i], &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "numeric index"));
	}
	/* leading zeros are still the number; a key keeps its spaces */
	assert_int_equal(fieldlist_resolve(&l, "field2[007]", &s, err, sizeof(err)), 0);
	assert_int_equal(s.arg_index, 7);
	assert_int_equal(fieldlist_resolve(&l, "json.value[ a b ]", &s, err, sizeof(err)), 0);
	assert_string_equal(s.arg_key, " a b ");
	fieldlist_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_parse_real_shapes),
		cmocka_unit_test(test_fields_parse_rejects),
		cmocka_unit_test(test_field_resolution),
		cmocka_unit_test(test_field_argument_is_written_out),
	};
	return cmocka_run_group_tests_name("fieldlist", tests, NULL, NULL);
}
