/* timing/openloop.c — see openloop.h. */
#include "timing/openloop.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

#include "base/clock.h"

void openloop_run(const struct schedule *s, size_t n, uint64_t gap_ns, const struct openloop_ops *ops, void *ctx,
		  uint64_t *latencies, struct openloop_result *res)
{
	uint64_t start = ops->now(ctx), due = start, end = start;

	res->start_ns = start;
	res->served = 0;
	res->status = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t t0;
		int st;

		due = s ? start + s->at_ns[i] : (i == 0 ? start : end + gap_ns);
		if (ops->now(ctx) < due)
			ops->wait_until(ctx, due);
		if (ops->starting)
			ops->starting(ctx, i, due);
		t0 = ops->now(ctx);
		st = ops->call(ctx, i);
		end = ops->now(ctx);
		latencies[i] = end - due;
		if (ops->ended)
			ops->ended(ctx, i, end - t0);
		if (st != 0) {
			res->status = st;
			break;
		}
		res->served++;
	}
	res->end_ns = end;
}

void openloop_wait_until(void *ctx, uint64_t deadline_ns)
{
	(void)ctx;
	if (deadline_ns > OPENLOOP_SPIN_NS) {
		uint64_t wake = deadline_ns - OPENLOOP_SPIN_NS;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000u), .tv_nsec = (long)(wake % 1000000000u) };
		if (now_ns() < wake)
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
	}
	while (now_ns() < deadline_ns)
		;
}

void openloop_thread_setup(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}
