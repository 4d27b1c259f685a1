/* test_sdkslot.c — the SDK's async slot of a real instance, found in this
 * test's own symbol table and checked; the check's refusals; the ELF
 * reader on files that are not what it needs. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sysinfo.h"
#include "plugin/extractor.h"
#include "plugin/sdkslot.h"

#include "builtin_fixture.h"

/* a local data object of this executable, for the ELF reader to find */
static void *volatile sdkslot_marker = &builtin;

/* The real plugin, async, from this thread: after extractions served by
 * the worker, the slot of the instance is found, holds it, and its place
 * in its cache line is said right. */
static void test_real_async_slot(void **state)
{
	struct extractor x;
	struct probe p;
	struct sdk_slot slot;
	char err[512];
	struct plugin_config c = {
		.lib = &builtin, .async = 1, .work = WORK_BARE, .events = &events, .evtsrc = "cgocost"
	};
	(void)state;

	assert_int_equal(extractor_open(&x, &c, 1, err, sizeof(err)), 0);
	for (uint64_t e = 0; e < 100; e++)
		assert_int_equal(extractor_extract(&x, e), EXTRACT_OK);
	assert_int_equal(extractor_probe(&x, &p, err, sizeof(err)), 0);
	if (p.tid == (uint64_t)thread_id()) { /* GOMAXPROCS 1: the SDK runs no worker */
		extractor_close(&x);
		skip();
	}
	assert_int_equal(sdk_slot_locate((const void *)builtin.syms.init, x.s, &slot, err, sizeof(err)), 0);
	assert_true(slot.line_bytes >= 16);
	assert_int_equal(slot.line_offset, slot.addr % slot.line_bytes);
	assert_int_equal(slot.lines, slot.line_offset + SDK_SLOT_BYTES <= slot.line_bytes ? 1 : 2);
	/* the instance field read by hand from where the check says it is */
	assert_ptr_equal(*(void *const *)(slot.addr + SDK_SLOT_INSTANCE_AT), x.s);
	extractor_close(&x);
}

/* A slot array of fake records: the right one passes, anything else is
 * refused with why. */
static void test_slot_check_refuses(void **state)
{
	_Alignas(64) unsigned char slots[4 * SDK_SLOT_BYTES + 64];
	uintptr_t base = (uintptr_t)slots + 8; /* 8 into a line: slot 1 at 64 */
	struct sdk_slot s;
	char why[256];
	int wait = SDK_SLOT_LOCK_WAIT, unused = 0;
	void *two = (void *)(uintptr_t)2, *three = (void *)(uintptr_t)3;
	(void)state;

	memset(slots, 0, sizeof(slots));
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_LOCK_AT), &wait, sizeof(wait));
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_INSTANCE_AT), &two, sizeof(two));
	assert_int_equal(sdk_slot_of(base, two, &s, why, sizeof(why)), 0);
	assert_int_equal(s.addr, base + SDK_SLOT_BYTES);
	if (s.line_bytes == 64) {
		assert_int_equal(s.line_offset, 0);
		assert_int_equal(s.lines, 1);
	}
	assert_int_equal(sdk_slot_of(base, three, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not hold instance 3"));
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_LOCK_AT), &unused, sizeof(unused));
	assert_int_equal(sdk_slot_of(base, two, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lock 0"));
	assert_int_equal(sdk_slot_of(0, two, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "async never started"));
	assert_int_equal(sdk_slot_of(base, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no SDK handle"));
}

/* The mock read from outside, as a foreign plugin is: async on, the SDK's
 * state says async; off, sync. The probe's thread is the truth. */
static void test_async_read_from_outside(void **state)
{
	char err[512];
	(void)state;

	for (int async = 0; async <= 1; async++) {
		struct extractor x;
		struct probe p;
		struct plugin_config c = {
			.lib = &builtin, .async = async, .work = WORK_BARE, .events = &events, .evtsrc = "cgocost"
		};
		int got;

		assert_int_equal(extractor_open(&x, &c, 1, err, sizeof(err)), 0);
		for (uint64_t e = 0; e < 100; e++)
			assert_int_equal(extractor_extract(&x, e), EXTRACT_OK);
		assert_int_equal(extractor_probe(&x, &p, err, sizeof(err)), 0);
		got = sdk_async_in_effect((const void *)builtin.syms.init, x.s, err, sizeof(err));
		assert_int_equal(got, p.tid != (uint64_t)thread_id());
		extractor_close(&x);
	}
}

/* Fake slot arrays: no array and an unused slot are sync, the instance
 * waiting is async, anything else cannot be told. */
static void test_async_of_fake_slots(void **state)
{
	_Alignas(64) unsigned char slots[4 * SDK_SLOT_BYTES];
	uintptr_t base = (uintptr_t)slots;
	char why[256];
	int wait = SDK_SLOT_LOCK_WAIT, busy = 2;
	void *two = (void *)(uintptr_t)2;
	(void)state;

	memset(slots, 0, sizeof(slots));
	assert_int_equal(sdk_async_of(0, two, why, sizeof(why)), 0);
	assert_int_equal(sdk_async_of(base, two, why, sizeof(why)), 0);
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_LOCK_AT), &wait, sizeof(wait));
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_INSTANCE_AT), &two, sizeof(two));
	assert_int_equal(sdk_async_of(base, two, why, sizeof(why)), 1);
	memcpy((void *)(base + SDK_SLOT_BYTES + SDK_SLOT_LOCK_AT), &busy, sizeof(busy));
	assert_int_equal(sdk_async_of(base, two, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lock 2"));
	assert_int_equal(sdk_async_of(base, (void *)(uintptr_t)100000, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no SDK handle"));
}

/* A library without the SDK's symbol is said so (this program links the
 * mock: the C library stands for a plugin; Debian ships it stripped, and
 * either way it holds no SDK). */
static void test_async_not_an_sdk_plugin(void **state)
{
	char why[256];
	(void)state;

	assert_int_equal(sdk_async_in_effect((const void *)strlen, (void *)(uintptr_t)1, why, sizeof(why)), -1);
	assert_true(strstr(why, "stripped: no symbol table") != NULL ||
		    strstr(why, "not built with the plugin SDK for Go") != NULL);
}

/* The ELF reader finds this test's own local object where it is. */
static void test_elf_finds_a_local_object(void **state)
{
	Dl_info dl;
	uintptr_t at;
	char why[256];
	(void)state;

	assert_int_not_equal(dladdr((const void *)test_elf_finds_a_local_object, &dl), 0);
	assert_int_equal(
		elf_local_object("/proc/self/exe", (uintptr_t)dl.dli_fbase, "sdkslot_marker", &at, why, sizeof(why)),
		0);
	assert_int_equal(at, (uintptr_t)&sdkslot_marker);
	assert_int_equal(elf_local_object("/proc/self/exe", (uintptr_t)dl.dli_fbase, "no_such_object_here", &at, why,
					  sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "no object no_such_object_here"));
}

/* Files that are not what it reads: refused, said how, never read past. */
static void test_elf_refuses_bad_files(void **state)
{
	char dir[] = "/tmp/test_sdkslot.XXXXXX", path[256], why[256], buf[8192];
	uintptr_t at;
	FILE *in, *out;
	size_t n;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/text", dir);
	assert_non_null(out = fopen(path, "w"));
	fputs("not an object file\n", out);
	fclose(out);
	assert_int_equal(elf_local_object(path, 0, "x", &at, why, sizeof(why)), -1);
	assert_string_equal(why, "not an ELF64 file");
	/* the first 8 KB of this executable: its section headers are at its end */
	assert_non_null(in = fopen("/proc/self/exe", "rb"));
	n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	assert_non_null(out = fopen(path, "wb"));
	assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(out);
	assert_int_equal(elf_local_object(path, 0, "x", &at, why, sizeof(why)), -1);
	assert_string_equal(why, "its section headers lie outside the file");
	unlink(path);
	assert_int_equal(elf_local_object(path, 0, "x", &at, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cannot open"));
	assert_int_equal(elf_local_object(dir, 0, "x", &at, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a regular file"));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_async_slot),		cmocka_unit_test(test_slot_check_refuses),
		cmocka_unit_test(test_async_read_from_outside), cmocka_unit_test(test_async_of_fake_slots),
		cmocka_unit_test(test_async_not_an_sdk_plugin), cmocka_unit_test(test_elf_finds_a_local_object),
		cmocka_unit_test(test_elf_refuses_bad_files),
	};
	(void)sdkslot_marker;
	return cmocka_run_group_tests_name("sdkslot", tests, setup, teardown);
}
