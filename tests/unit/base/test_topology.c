/* Unit tests of c/base/topology.c: the CPU-list parser, and the classes of
 * CPUs relative to a caller on fake sysfs trees built in a private
 * temporary directory (a 2-socket SMT server, a one-CCX laptop, a 2-CCX
 * part, a machine with no topology files). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/topology.h"

static char root[64];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/cgocost-topology-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to root/rel, making its folders. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* One CPU as the kernel shows it: package, die, its core's threads, its
 * L1d, L2 and L3 (sharers of each; NULL: no cache files). */
static void fake_cpu(int cpu, int package, int die, const char *threads, const char *l3)
{
	char rel[256], num[16];

	snprintf(num, sizeof num, "%d\n", package);
	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	put(rel, num);
	snprintf(num, sizeof num, "%d\n", die);
	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
	put(rel, num);
	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	put(rel, threads);
	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
	put(rel, threads);
	if (l3 == NULL)
		return;
	/* index0 L1d and index2 L2: the core's own; index1 L1i; index3 L3 */
	for (int k = 0; k < 4; k++) {
		const char *levels[] = { "1\n", "1\n", "2\n", "3\n" };
		snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, k);
		put(rel, levels[k]);
		snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, k);
		put(rel, k == 3 ? l3 : threads);
	}
}

static void assert_class(int caller, int other, enum cpu_class want)
{
	enum cpu_class got = topology_classify(root, caller, other);
	if (got != want)
		fail_msg("CPU %d from CPU %d: %s, want %s", other, caller, cpu_class_name(got), cpu_class_name(want));
}

static void test_list_parse(void **state)
{
	struct cpu_set_bits s;
	(void)state;

	assert_int_equal(cpu_list_parse("0-3,8-11\n", &s), 8);
	assert_true(cpu_bits_has(&s, 0) && cpu_bits_has(&s, 3) && cpu_bits_has(&s, 8) && cpu_bits_has(&s, 11));
	assert_false(cpu_bits_has(&s, 4) || cpu_bits_has(&s, 7) || cpu_bits_has(&s, 12));
	assert_int_equal(cpu_list_parse("5", &s), 1);
	assert_true(cpu_bits_has(&s, 5));
	assert_int_equal(cpu_list_parse("1,1,0-1", &s), 2);
	assert_int_equal(cpu_list_parse("", &s), 0);
	assert_int_equal(cpu_list_parse("\n", &s), 0);
	assert_int_equal(cpu_list_parse("1023", &s), 1);
	/* what a kernel never writes: refused, the set left empty */
	const char *bad[] = { "3-1",  "1-",  "-1",    "a",   "1,", ",1", "1,,2", "1024", "99999999999999999999",
			      "0-1x", "1 2", "1\n\n", "0--1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (cpu_list_parse(bad[i], &s) != -1)
			fail_msg("'%s' was taken as a CPU list", bad[i]);
		for (int c = 0; c < TOPO_MAX_CPUS; c++)
			assert_false(cpu_bits_has(&s, c));
	}
	assert_int_equal(cpu_list_parse(NULL, &s), -1);
	assert_false(cpu_bits_has(&s, -1) || cpu_bits_has(&s, TOPO_MAX_CPUS));
}

/* 2 packages x 2 cores x 2 threads, one L3 a package: CPUs 0,4 core 0;
 * 1,5 core 1 (package 0); 2,6 and 3,7 (package 1), as Intel numbers them. */
static void test_two_sockets_smt(void **state)
{
	(void)state;
	for (int c = 0; c < 8; c++) {
		int core = c % 4, package = core / 2;
		char threads[16];
		snprintf(threads, sizeof threads, "%d,%d\n", core, core + 4);
		fake_cpu(c, package, 0, threads, package ? "2-3,6-7\n" : "0-1,4-5\n");
	}
	assert_class(0, 0, CPU_SELF);
	assert_class(0, 4, CPU_SMT_SIBLING);
	assert_class(0, 1, CPU_SAME_LLC);
	assert_class(0, 5, CPU_SAME_LLC);
	assert_class(0, 2, CPU_OTHER_PACKAGE);
	assert_class(0, 7, CPU_OTHER_PACKAGE);
	assert_class(6, 2, CPU_SMT_SIBLING);
	/* the table of classes present, one CPU of each: from CPU 1 */
	struct topo_class_row rows[CPU_CLASSES];
	const int all[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	assert_int_equal(topology_table(root, 1, all, 8, rows), 4);
	assert_int_equal(rows[0].cls, CPU_SELF);
	assert_int_equal(rows[0].example, 1);
	assert_int_equal(rows[1].cls, CPU_SMT_SIBLING);
	assert_int_equal(rows[1].example, 5);
	assert_int_equal(rows[1].count, 1);
	assert_int_equal(rows[2].cls, CPU_SAME_LLC);
	assert_int_equal(rows[2].example, 0);
	assert_int_equal(rows[2].count, 2);
	assert_int_equal(rows[3].cls, CPU_OTHER_PACKAGE);
	assert_int_equal(rows[3].example, 2);
	assert_int_equal(rows[3].count, 4);
	/* a subset (an affinity mask): only what it holds */
	const int some[] = { 1, 3 };
	assert_int_equal(topology_table(root, 1, some, 2, rows), 2);
	assert_int_equal(rows[1].cls, CPU_OTHER_PACKAGE);
	assert_int_equal(rows[1].example, 3);
	assert_class(6, 3, CPU_SAME_LLC);
	assert_class(6, 1, CPU_OTHER_PACKAGE);
	assert_class(0, 8, CPU_UNKNOWN); /* no such CPU */
}

/* A laptop: 4 cores, no SMT, one L3. */
static void test_one_ccx_laptop(void **state)
{
	(void)state;
	for (int c = 0; c < 4; c++) {
		char threads[16];
		snprintf(threads, sizeof threads, "%d\n", c);
		fake_cpu(c, 0, 0, threads, "0-3\n");
	}
	for (int c = 1; c < 4; c++)
		assert_class(0, c, CPU_SAME_LLC);
	assert_class(3, 0, CPU_SAME_LLC);
	assert_class(2, 2, CPU_SELF);
}

/* One package, two CCXs of 2 cores x 2 threads, an L3 each: Zen numbers
 * the threads of core k as k and k+4. */
static void test_two_ccx(void **state)
{
	(void)state;
	for (int c = 0; c < 8; c++) {
		int core = c % 4;
		char threads[16];
		snprintf(threads, sizeof threads, "%d,%d\n", core, core + 4);
		fake_cpu(c, 0, 0, threads, core < 2 ? "0-1,4-5\n" : "2-3,6-7\n");
	}
	assert_class(0, 4, CPU_SMT_SIBLING);
	assert_class(0, 1, CPU_SAME_LLC);
	assert_class(0, 2, CPU_OTHER_LLC);
	assert_class(0, 7, CPU_OTHER_LLC);
	assert_class(3, 6, CPU_SAME_LLC);
	assert_class(3, 1, CPU_OTHER_LLC);
	struct topo_class_row rows[CPU_CLASSES];
	const int all[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	assert_int_equal(topology_table(root, 0, all, 8, rows), 4);
	assert_int_equal(rows[3].cls, CPU_OTHER_LLC);
	assert_int_equal(rows[3].example, 2);
	assert_int_equal(rows[3].count, 4);
}

/* Two dies and no cache files: another die is another last-level cache;
 * the same die without cache files cannot be told. */
static void test_dies_without_caches(void **state)
{
	(void)state;
	fake_cpu(0, 0, 0, "0\n", NULL);
	fake_cpu(1, 0, 0, "1\n", NULL);
	fake_cpu(2, 0, 1, "2\n", NULL);
	assert_class(0, 2, CPU_OTHER_LLC);
	assert_class(0, 1, CPU_UNKNOWN);
}

/* A machine (a container, an old kernel) with no topology files: every
 * other CPU is unknown, and so is a garbled file. */
static void test_no_topology(void **state)
{
	(void)state;
	put("sys/devices/system/cpu/online", "0-3\n");
	for (int c = 1; c < 4; c++)
		assert_class(0, c, CPU_UNKNOWN);
	assert_class(1, 1, CPU_SELF);
	struct topo_class_row rows[CPU_CLASSES];
	const int all[] = { 0, 1, 2, 3 };
	assert_int_equal(topology_table(root, 0, all, 4, rows), 2);
	assert_int_equal(rows[1].cls, CPU_UNKNOWN);
	assert_int_equal(rows[1].count, 3);
	assert_int_equal(rows[1].example, 1);
	fake_cpu(0, 0, 0, "0\n", "0-1\n");
	put("sys/devices/system/cpu/cpu1/topology/physical_package_id", "zero\n");
	assert_class(0, 1, CPU_UNKNOWN);
	/* a garbled last-level list leaves the cache unknown (the L2 below
	 * it, CPU 0's own, must not pass for it), not a crash */
	fake_cpu(1, 0, 0, "1\n", "0-1\n");
	assert_class(0, 1, CPU_SAME_LLC);
	put("sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "0-\n");
	assert_class(0, 1, CPU_UNKNOWN);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(cpu_class_name(CPU_SMT_SIBLING), "smt_sibling");
	assert_string_equal(cpu_class_name(CPU_SAME_LLC), "same_llc");
	assert_string_equal(cpu_class_name(CPU_OTHER_LLC), "other_llc");
	assert_string_equal(cpu_class_name(CPU_OTHER_PACKAGE), "other_package");
	assert_string_equal(cpu_class_name(CPU_UNKNOWN), "unknown");
	assert_string_equal(cpu_class_name(CPU_CLASSES), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test_setup_teardown(test_two_sockets_smt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_ccx_laptop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_ccx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dies_without_caches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_topology, setup, teardown),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
