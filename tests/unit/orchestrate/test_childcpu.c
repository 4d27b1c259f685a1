/* tests/unit/orchestrate/test_childcpu.c — a child group's CPU time: the
 * /proc stat line read field by field past the command's last ')', and the
 * time of a group of its own growing while it works, not while it sleeps,
 * and not dropping when one of its processes ends; its wait for a CPU
 * growing while it is starved. */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "orchestrate/childcpu.h"

static void test_parse_stat_line(void **state)
{
	long pgrp = 0;
	uint64_t ticks = 0;

	(void)state;
	/* a name with a space and parentheses: the fields count from the last ')' */
	assert_int_equal(
		proc_stat_parse("4242 (a (b) c) R 1 777 777 0 -1 4194560 10 0 0 0 120 35 40 5 20 0 1 0", &pgrp, &ticks),
		0);
	assert_int_equal(pgrp, 777);
	assert_int_equal(ticks, 120 + 35 + 40 + 5);
	assert_int_equal(proc_stat_parse("4242 (bench) S 1 9 9 0 -1 0 0 0 0 0 7 0 0 0", &pgrp, &ticks), 0);
	assert_int_equal(pgrp, 9);
	assert_int_equal(ticks, 7);
	/* not a stat line: no ')', too few fields */
	assert_int_equal(proc_stat_parse("4242 bench S 1 9 9", &pgrp, &ticks), -1);
	assert_int_equal(proc_stat_parse("4242 (bench) S 1 9 9 0 -1 0 0 0 0 0 7 0", &pgrp, &ticks), -1);
	assert_int_equal(proc_stat_parse("", &pgrp, &ticks), -1);
}

static double process_cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double wall_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A process in a group of its own that spins for cpu_s of CPU in a child
 * it waits for (0: sleeps), then sleeps until killed. */
static pid_t start_group(double cpu_s)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		if (cpu_s > 0) {
			pid_t worker = fork();
			if (worker == 0) {
				double t0 = process_cpu_s();
				volatile uint64_t x = 0;
				while (process_cpu_s() - t0 < cpu_s)
					x++;
				_exit(0);
			}
			waitpid(worker, NULL, 0);
		}
		alarm(120); /* whatever becomes of the test */
		for (;;)
			pause();
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	return pid;
}

static void end_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A group whose worker burns 0.3 s and ends: the group's time reaches it
 * (within a 10 ms tick or two), never drops on the way, and stays once
 * the worker is gone (its parent waited for it). However loaded the
 * machine, the CPU comes: the wall-clock limit is a minute. */
static void test_group_time_grows_with_work(void **state)
{
	pid_t pid = start_group(0.3);
	int64_t last = 0, now, after;
	int dropped = 0;
	double t0 = wall_s();

	(void)state;
	while (wall_s() - t0 < 60 && last < 280000000) {
		now = child_group_cpu_ns(pid);
		if (now >= 0) {
			dropped |= now < last;
			last = now;
		}
		usleep(20000);
	}
	usleep(100000);
	after = child_group_cpu_ns(pid);
	end_group(pid); /* before any assertion: none may leave it behind */
	assert_false(dropped);
	assert_true(last >= 280000000);
	assert_true(after >= last);
	assert_int_equal(child_group_cpu_ns(0), -1);
	assert_int_equal(child_group_cpu_ns(999999999), -1);
}

/* A group that sleeps uses (almost) no CPU over half a second. */
static void test_sleeping_group_uses_none(void **state)
{
	pid_t pid = start_group(0);
	int64_t a, b;

	(void)state;
	usleep(50000);
	a = child_group_cpu_ns(pid);
	usleep(500000);
	b = child_group_cpu_ns(pid);
	end_group(pid);
	assert_true(a >= 0);
	assert_true(b - a < 50000000);
}

/* child_group_busy: a group that spent 0.3 s of CPU since the first
 * reading used more than 5% of a CPU over a 1 s interval, not 5% of one
 * over 10 s; a sleeping group is not busy over 0.5 s; a group that cannot
 * be read is not, and its reading is -1. The worker's CPU is waited for
 * (up to a minute), so a loaded machine only makes it slower. */
static void test_busy_judges_the_interval(void **state)
{
	pid_t pid = start_group(0.3), idle = start_group(0);
	int64_t first = child_group_cpu_ns(pid), cpu, idle_cpu, gone = 0, last = 0;
	double t0 = wall_s();
	int busy_1s, busy_10s, idle_busy, gone_busy;

	(void)state;
	usleep(50000);
	idle_cpu = child_group_cpu_ns(idle);
	while (wall_s() - t0 < 60 && last < 280000000) {
		last = child_group_cpu_ns(pid);
		usleep(20000);
	}
	usleep(500000);
	cpu = first;
	busy_1s = child_group_busy(pid, &cpu, 1000, 0.05);
	last = cpu;
	cpu = first;
	busy_10s = child_group_busy(pid, &cpu, 10000, 0.05);
	idle_busy = child_group_busy(idle, &idle_cpu, 500, 0.05);
	gone_busy = child_group_busy(999999999, &gone, 1000, 0.05);
	end_group(pid);
	end_group(idle);
	assert_true(first >= 0 && last >= 280000000);
	assert_true(busy_1s);
	assert_false(busy_10s);
	assert_false(idle_busy);
	assert_false(gone_busy);
	assert_int_equal(gone, -1);
}

/* A group of two processes pinned to one CPU, both spinning until they
 * are killed: each waits for the CPU while the other runs, so over the
 * 0.5 s (at least) between two readings the group's wait for a CPU grows
 * by 0.1 s at least (about 0.5 s quiet; more on a loaded machine), and it
 * is working by child_group_working's measure; a sleeping group, once
 * started, waits for (almost) none. */
static void test_starved_group_waits(void **state)
{
	cpu_set_t set;
	int cpu = -1;
	pid_t pid, idle = start_group(0);
	int64_t w0, w1, idle0, idle1, sum = -1;
	int working;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
		if (CPU_ISSET(c, &set))
			cpu = c;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		fork(); /* two of them, the same CPU, the same group */
		alarm(120);
		for (volatile uint64_t x = 0;; x++)
			;
	}
	setpgid(pid, pid);
	usleep(100000);
	w0 = child_group_wait_ns(pid);
	idle0 = child_group_wait_ns(idle);
	child_group_working(pid, &sum, 0, 0.05);
	usleep(500000);
	w1 = child_group_wait_ns(pid);
	idle1 = child_group_wait_ns(idle);
	working = child_group_working(pid, &sum, 500, 0.05);
	end_group(pid);
	end_group(idle);
	assert_true(w0 >= 0 && idle0 >= 0);
	assert_true(w1 - w0 >= 100000000);
	assert_true(idle1 - idle0 < 50000000);
	assert_true(working);
	assert_int_equal(child_group_wait_ns(999999999), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat_line),		 cmocka_unit_test(test_group_time_grows_with_work),
		cmocka_unit_test(test_sleeping_group_uses_none), cmocka_unit_test(test_busy_judges_the_interval),
		cmocka_unit_test(test_starved_group_waits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
