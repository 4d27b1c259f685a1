/* test_refhandoff.c — the reference C->Go spin handoff answers every request
 * exactly once, carries the event and the result, wakes its worker from a
 * futex sleep, and stops when asked. No timing is asserted. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "plugin/goruntime.h"
#include "timing/refhandoff.h"

static void test_every_request_answered_once(void **state)
{
	struct ref_result r;
	char err[256] = "";
	struct plugin_syms syms;
	void (*start)(struct ref_handoff *);
	(void)state;

	assert_int_equal(plugin_syms_builtin(&syms), 0);
	goruntime_register(&syms);
	start = goruntime_ref_start();
	assert_non_null(start);
	/* without a Go runtime: nothing measured, every figure undefined */
	assert_int_equal(ref_measure(&r, NULL, 3000, 3, 100, err, sizeof(err)), 0);
	assert_true(isnan(r.step_ns[REF_BARE]) && isnan(r.wake_ns));

	for (int round = 0; round < 3; round++) { /* a new worker each time, the last one stopped */
		assert_int_equal(ref_measure(&r, start, 3000, 3, 100, err, sizeof(err)), 0);
		/* three steps of warm-up and timed handoffs, then the wake-ups */
		assert_true(r.requests >= 3 * (3000 + 100));
		assert_int_equal(r.answered, r.requests);
		for (int s = REF_BARE; s <= REF_RESULT; s++)
			assert_true(isfinite(r.step_ns[s]) && r.step_ns[s] > 0);
		assert_true(isfinite(r.wake_ns) && r.wake_ns > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_request_answered_once),
	};
	return cmocka_run_group_tests_name("refhandoff", tests, NULL, NULL);
}
