/* test_sweep.c — a sweep's child launches: each its own seed, from --seed
 * and its cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "orchestrate/sweep.h"

static void test_each_launch_its_own_seed(void **state)
{
	uint64_t s[16];

	(void)state;
	for (int k = 0; k < 8; k++)
		for (int a = 0; a < 2; a++) {
			s[2 * k + a] = sweep_child_seed(1, k, a);
			/* the same cell and --seed: the same seed */
			assert_true(s[2 * k + a] == sweep_child_seed(1, k, a));
			/* another --seed: another seed; and never the old fixed 1 */
			assert_true(s[2 * k + a] != sweep_child_seed(2, k, a));
			assert_true(s[2 * k + a] != 1);
			/* below 2^53: any JSON reader holds it exactly */
			assert_true(s[2 * k + a] < (1ULL << 53));
			assert_true(sweep_child_seed(UINT64_MAX, k, a) < (1ULL << 53));
		}
	/* no two cells share one, nor sit within 255 plugins of each other */
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			if (i != j)
				assert_true(s[i] > s[j] ? s[i] - s[j] > 255 : s[j] - s[i] > 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_launch_its_own_seed),
	};
	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
