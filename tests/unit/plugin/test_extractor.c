/* test_extractor.c — value verification, the probe, and the field list the
 * plugin declares against the driver's mirror of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/sysinfo.h"
#include "plugin/extractor.h"

#include "builtin_fixture.h"

static void test_check_catches_wrong_values(void **state)
{
	struct extractor x;
	ss_plugin_extract_field f[2];
	uint64_t u[2];
	const char *str[2];
	(void)state;

	memset(&x, 0, sizeof(x));
	memset(f, 0, sizeof(f));
	x.fields = f;
	x.nfields = 2;

	x.work = WORK_NOOP;
	assert_int_equal(extractor_check(&x, 7), EXTRACT_OK);
	f[1].res_len = 1;
	assert_int_equal(extractor_check(&x, 7), EXTRACT_WRONG_VALUE);

	x.work = WORK_U64;
	f[0].res_len = f[1].res_len = 1;
	f[0].res.u64 = &u[0];
	f[1].res.u64 = &u[1];
	u[0] = mock_u64_value(7, 0);
	u[1] = mock_u64_value(7, 1);
	assert_int_equal(extractor_check(&x, 7), EXTRACT_OK);
	assert_int_equal(extractor_check(&x, 8), EXTRACT_WRONG_VALUE);
	u[1] = u[0]; /* two lanes sharing one result */
	assert_int_equal(extractor_check(&x, 7), EXTRACT_WRONG_VALUE);
	f[1].res_len = 0;
	assert_int_equal(extractor_check(&x, 7), EXTRACT_WRONG_VALUE);

	x.work = WORK_STR;
	f[0].res_len = f[1].res_len = 1;
	f[0].res.str = &str[0];
	f[1].res.str = &str[1];
	str[0] = "cgocost-7";
	str[1] = "cgocost-8";
	assert_int_equal(extractor_check(&x, 7), EXTRACT_OK);
	str[1] = "cgocost-7";
	assert_int_equal(extractor_check(&x, 7), EXTRACT_WRONG_VALUE);
	str[1] = NULL;
	assert_int_equal(extractor_check(&x, 7), EXTRACT_WRONG_VALUE);
}

static void test_str_values(void **state)
{
	(void)state;
	assert_string_equal(mock_str_value(0, 0), "cgocost-0");
	assert_string_equal(mock_str_value(15, 0), "cgocost-f");
	assert_string_equal(mock_str_value(15, 1), "cgocost-0");
	assert_true(mock_u64_value(1, 0) != mock_u64_value(2, 0));
	assert_int_equal(mock_u64_value(0, 7), 7);
}

static void test_config_format(void **state)
{
	char buf[256];
	struct plugin_config c = { .lib = &builtin, .async = 1, .work = WORK_U64, .extra_ns = 250 };
	struct plugin_lib foreign = { .cgocost_config = 0 };
	(void)state;
	assert_int_equal(plugin_config_format(&c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "{\"async\":true,\"work\":\"u64\",\"extra_ns\":250}");
	c.alloc_bytes = 4096;
	assert_int_equal(plugin_config_format(&c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "{\"async\":true,\"work\":\"u64\",\"extra_ns\":250,\"alloc_bytes\":4096}");
	/* a plugin that does not read cgocost's configuration gets none */
	c.lib = &foreign;
	assert_int_equal(plugin_config_format(&c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	c.raw = "async";
	assert_int_equal(plugin_config_format(&c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "async");
	assert_int_equal(plugin_config_format(&c, buf, 3), -1);
}

/* The real plugin, called from this thread: sync, values right, probe sane. */
static void test_real_plugin_sync(void **state)
{
	struct extractor x;
	struct probe p1, p2;
	char err[512];
	struct plugin_config c = {
		.lib = &builtin, .async = 0, .work = WORK_STR, .events = &events, .evtsrc = "cgocost"
	};
	(void)state;

	assert_int_equal(extractor_open(&x, &c, 3, err, sizeof(err)), 0);
	assert_int_equal(x.probe_in.num_fields, PROBE_SLOTS);
	assert_int_equal(extractor_probe(&x, &p1, err, sizeof(err)), 0);
	assert_int_equal(p1.known, (1u << PROBE_SLOTS) - 1);
	assert_int_equal(p1.tid, (uint64_t)thread_id());
	assert_int_equal(p1.async_configured, 0);
	for (uint64_t e = 0; e < 100; e++)
		assert_int_equal(extractor_extract(&x, e), EXTRACT_OK);
	assert_int_equal(extractor_probe(&x, &p2, err, sizeof(err)), 0);
	assert_int_equal(p2.calls - p1.calls, 100 * 3 + PROBE_SLOTS);
	extractor_close(&x);
}

/* What each work kind touches: bare leaves the event input as it was and
 * needs no result; event writes the event number and reads nothing back;
 * every kind is served (the plugin counts each field). */
static void test_work_kinds_touch_what_they_say(void **state)
{
	static const enum work kinds[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	char err[512];
	(void)state;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct plugin_config c = {
			.lib = &builtin, .async = 0, .work = kinds[k], .events = &events, .evtsrc = "cgocost"
		};
		struct extractor x;
		struct probe p1, p2;

		assert_int_equal(extractor_open(&x, &c, 2, err, sizeof(err)), 0);
		x.evt.evtnum = 12345;
		assert_int_equal(extractor_probe(&x, &p1, err, sizeof(err)), 0);
		for (uint64_t e = 0; e < 50; e++)
			assert_int_equal(extractor_extract(&x, e), EXTRACT_OK);
		if (kinds[k] == WORK_BARE)
			assert_int_equal(x.evt.evtnum, 12345); /* the event stayed constant */
		else
			assert_int_equal(x.evt.evtnum, 49);
		assert_int_equal(extractor_probe(&x, &p2, err, sizeof(err)), 0);
		assert_int_equal(p2.calls - p1.calls, 50 * 2 + PROBE_SLOTS);
		extractor_close(&x);
	}
}

static void test_bad_config_fails_with_message(void **state)
{
	struct extractor x;
	char err[512] = "";
	struct plugin_config c = { .lib = &builtin, .raw = "{\"work\":\"nope\"}", .events = &events };
	(void)state;
	assert_int_equal(extractor_open(&x, &c, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "plugin_init"));
	assert_non_null(strstr(err, "unknown work"));
	assert_int_equal(extractor_open(&x, &c, MOCK_MAX_LANES + 1, err, sizeof(err)), -1);
}

/* plugin_get_fields() as the plugin declares it, against the C mirror. */
static void test_field_list_matches_mirror(void **state)
{
	json_error_t jerr;
	json_t *list;
	char name[32];
	(void)state;

	list = json_loads(builtin.syms.get_fields(), 0, &jerr);
	assert_non_null(list);
	assert_true(json_is_array(list));
	assert_int_equal(json_array_size(list), MOCK_NUM_FIELDS);
	for (uint32_t i = 0; i < MOCK_NUM_FIELDS; i++) {
		json_t *e = json_array_get(list, i);
		const char *n = json_string_value(json_object_get(e, "name"));
		const char *t = json_string_value(json_object_get(e, "type"));
		assert_int_equal(mock_field_name(i, name, sizeof(name)), 0);
		assert_non_null(n);
		assert_string_equal(n, name);
		if (mock_field_kind(i) == WORK_STR)
			assert_string_equal(t, "string");
		else
			assert_string_equal(t, "uint64");
	}
	assert_int_equal(mock_field_name(MOCK_NUM_FIELDS, name, sizeof(name)), -1);
	json_decref(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_catches_wrong_values),
		cmocka_unit_test(test_str_values),
		cmocka_unit_test(test_config_format),
		cmocka_unit_test(test_real_plugin_sync),
		cmocka_unit_test(test_work_kinds_touch_what_they_say),
		cmocka_unit_test(test_bad_config_fails_with_message),
		cmocka_unit_test(test_field_list_matches_mirror),
	};
	return cmocka_run_group_tests_name("extractor", tests, setup, teardown);
}
