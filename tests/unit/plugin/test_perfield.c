/* test_perfield.c — --host-calls per-field (plugin/perfield.c): K calls of
 * one field through one request struct, each value kept before the next
 * call reuses the plugin's result buffer, failures passed on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plugin/extractor.h"

/* A plugin that, like the C mock, keeps one result slot per request index:
 * a second call overwrites the first call's value. */
static struct {
	uint32_t calls, max_fields, fail_at;
	const ss_plugin_extract_field *structs[8];
	uint64_t slot;
	const char *str_slot;
} fake;

static ss_plugin_rc fake_extract(ss_plugin_t *s, const ss_plugin_event_input *evt,
				 const ss_plugin_field_extract_input *in)
{
	(void)s;
	if (fake.calls < 8)
		fake.structs[fake.calls] = in->fields;
	if (++fake.calls == fake.fail_at)
		return SS_PLUGIN_FAILURE;
	if (in->num_fields > fake.max_fields)
		fake.max_fields = in->num_fields;
	for (uint32_t i = 0; i < in->num_fields; i++) {
		ss_plugin_extract_field *f = &in->fields[i];
		if (f->ftype == 9) {
			fake.str_slot = mock_str_value(evt->evtnum, f->field_id);
			f->res.str = &fake.str_slot;
		} else {
			fake.slot = mock_u64_value(evt->evtnum, f->field_id);
			f->res.u64 = &fake.slot;
		}
		f->res_len = 1;
	}
	return SS_PLUGIN_SUCCESS;
}

static void open_fake(struct extractor *x, ss_plugin_extract_field *f, uint32_t k, enum work work)
{
	memset(x, 0, sizeof(*x));
	memset(&fake, 0, sizeof(fake));
	memset(f, 0, k * sizeof(*f));
	for (uint32_t i = 0; i < k; i++) {
		f[i].field_id = i; /* lane i: the fake's values are those of lane i */
		f[i].ftype = work == WORK_STR ? 9 : 8;
	}
	x->fields = f;
	x->nfields = k;
	x->in.num_fields = k;
	x->in.fields = f;
	x->work = work;
	x->extract = fake_extract;
	x->nevents = 1;
	assert_int_equal(extractor_per_field(x, (char[64]){ 0 }, 64), 0);
}

static void test_k_calls_of_one_field(void **state)
{
	struct extractor x;
	ss_plugin_extract_field f[4];
	(void)state;

	for (int w = 0; w < 2; w++) {
		open_fake(&x, f, 4, w ? WORK_STR : WORK_U64);
		assert_int_equal(extractor_extract(&x, 7), EXTRACT_OK);
		assert_int_equal(fake.calls, 4);
		assert_int_equal(fake.max_fields, 1);
		/* one request struct, reused: what libsinsp does */
		for (int i = 1; i < 4; i++)
			assert_ptr_equal(fake.structs[i], fake.structs[0]);
		assert_ptr_not_equal(fake.structs[0], &f[0]);
		/* every lane's value survived the later calls */
		assert_int_equal(extractor_extract(&x, 8), EXTRACT_OK);
		assert_int_equal(fake.calls, 8);
		free(x.kept);
	}
}

static void test_failure_passed_on(void **state)
{
	struct extractor x;
	ss_plugin_extract_field f[3];
	(void)state;

	open_fake(&x, f, 3, WORK_U64);
	fake.fail_at = 2;
	assert_int_equal(extractor_extract(&x, 7), EXTRACT_FAILED);
	assert_int_equal(fake.calls, 2); /* no call after the failed one */
	free(x.kept);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k_calls_of_one_field),
		cmocka_unit_test(test_failure_passed_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
