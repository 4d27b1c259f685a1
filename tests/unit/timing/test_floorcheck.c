/* test_floorcheck.c — the floors' checks (timing/floorcheck.h): a figure
 * that is a scheduling event, a median far above its own fastest batch, or
 * a floor orders of magnitude off its neighbours is rejected, with the
 * reason; figures that are merely noisy pass. Pure: no timing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/floorcheck.h"

/* The floors of the 03:21 run in README.md, each with a tight spread. */
static void quiet(struct floor_fig f[FLOOR_KINDS])
{
	static const double med[FLOOR_KINDS] = { 1.7, 52, 504, 440, 650, 860 };
	for (int k = 0; k < FLOOR_KINDS; k++)
		f[k] = (struct floor_fig){ med[k], med[k] * 0.9, med[k] * 1.5 };
}

static int rejected(const struct floor_fig f[FLOOR_KINDS], enum floor_kind k, const char *word)
{
	char why[256] = "";
	int bad = floor_check(f, k, why, sizeof(why));
	if (bad && word)
		assert_non_null(strstr(why, word));
	return bad;
}

static void test_quiet_and_noisy_floors_pass(void **state)
{
	struct floor_fig f[FLOOR_KINDS];
	(void)state;

	quiet(f);
	for (int k = 0; k < FLOOR_KINDS; k++)
		assert_false(rejected(f, k, NULL));
	/* load: a wide spread and a round trip 5x the handoff are still figures */
	f[FLOOR_HANDOFF] = (struct floor_fig){ 2400, 130, 9000 };
	for (int k = 0; k < FLOOR_KINDS; k++)
		assert_false(rejected(f, k, NULL));
	/* not measured (NAN): never rejected, and no neighbour is judged by it */
	f[FLOOR_HANDOFF] = (struct floor_fig){ NAN, NAN, NAN };
	f[FLOOR_GO_RAW] = (struct floor_fig){ NAN, NAN, NAN };
	for (int k = 0; k < FLOOR_KINDS; k++)
		assert_false(rejected(f, k, NULL));
}

static void test_scheduling_event_is_no_figure(void **state)
{
	struct floor_fig f[FLOOR_KINDS];
	(void)state;

	quiet(f);
	f[FLOOR_HANDOFF] = (struct floor_fig){ 150000, 140000, 160000 };
	assert_true(rejected(f, FLOOR_HANDOFF, "scheduling event"));
	quiet(f);
	f[FLOOR_C_CALL] = (struct floor_fig){ 100001, 100000, 100002 };
	assert_true(rejected(f, FLOOR_C_CALL, "not a call"));
}

static void test_own_spread(void **state)
{
	struct floor_fig f[FLOOR_KINDS];
	(void)state;

	quiet(f);
	f[FLOOR_GO_RAW] = (struct floor_fig){ 52 * 21, 52, 2000 };
	assert_true(rejected(f, FLOOR_GO_RAW, "fastest"));
	f[FLOOR_GO_RAW] = (struct floor_fig){ 52 * 19, 52, 2000 };
	assert_false(rejected(f, FLOOR_GO_RAW, NULL));
}

/* The run: the reference handoff at 302.54 µs (+event 194.50 µs,
 * +result 173.24 µs) beside a 162 ns round trip. */
static void test_neighbours(void **state)
{
	struct floor_fig f[FLOOR_KINDS];
	(void)state;

	quiet(f);
	f[FLOOR_HANDOFF] = (struct floor_fig){ 162, 150, 170 };
	f[FLOOR_REF_BARE] = (struct floor_fig){ 302540, 290000, 310000 };
	f[FLOOR_REF_EVENT] = (struct floor_fig){ 194500, 190000, 200000 };
	f[FLOOR_REF_RESULT] = (struct floor_fig){ 173240, 170000, 180000 };
	for (int k = FLOOR_REF_BARE; k <= FLOOR_REF_RESULT; k++)
		assert_true(rejected(f, k, NULL));
	/* below the scheduling bound, the round trip still judges them */
	f[FLOOR_REF_BARE] = (struct floor_fig){ 3300, 3200, 3400 };
	assert_true(rejected(f, FLOOR_REF_BARE, "the cache-line round trip"));
	f[FLOOR_REF_BARE] = (struct floor_fig){ 3200, 3100, 3400 }; /* 19.8x */
	assert_false(rejected(f, FLOOR_REF_BARE, NULL));

	/* +event 68 µs beside a 116 ns bare step (seen under load) */
	quiet(f);
	f[FLOOR_HANDOFF] = (struct floor_fig){ NAN, NAN, NAN }; /* one CPU: only bare judges it */
	f[FLOOR_REF_BARE] = (struct floor_fig){ 116, 110, 130 };
	f[FLOOR_REF_EVENT] = (struct floor_fig){ 68210, 60000, 70000 };
	assert_true(rejected(f, FLOOR_REF_EVENT, "bare step"));

	/* a round trip 86x the handoff that contains one is the disturbed floor */
	quiet(f);
	f[FLOOR_HANDOFF] = (struct floor_fig){ 34066, 2000, 60000 };
	f[FLOOR_REF_BARE] = (struct floor_fig){ 396, 380, 420 };
	assert_true(rejected(f, FLOOR_HANDOFF, "contains a round trip"));
	assert_false(rejected(f, FLOOR_REF_BARE, NULL));
}

static void test_fig_of_series(void **state)
{
	struct series s;
	struct floor_fig f;
	(void)state;

	assert_int_equal(series_init(&s, 30, 3), 0);
	series_add(&s, 0, 200); /* 20 ns per op */
	series_add(&s, 1, 100); /* 10 */
	series_add(&s, 2, 900); /* 90 */
	floor_fig_of_series(&f, &s);
	assert_true(f.median_ns == 20 && f.min_ns == 10 && f.max_ns == 90);
	series_free(&s);
	memset(&s, 0, sizeof(s));
	floor_fig_of_series(&f, &s);
	assert_true(isnan(f.median_ns) && isnan(f.min_ns) && isnan(f.max_ns));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_and_noisy_floors_pass),
		cmocka_unit_test(test_scheduling_event_is_no_figure),
		cmocka_unit_test(test_own_spread),
		cmocka_unit_test(test_neighbours),
		cmocka_unit_test(test_fig_of_series),
	};
	return cmocka_run_group_tests_name("floorcheck", tests, NULL, NULL);
}
