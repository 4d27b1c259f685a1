/* test_allocs.c — the allocator names --malloc knows, and the allocator in
 * effect (timing/allocs.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "timing/allocs.h"

static void test_allocator_names(void **state)
{
	const char *so = "unset";
	char path[512];
	const char *name;
	(void)state;
	assert_int_equal(allocator_soname("glibc", &so), 0);
	assert_null(so);
	assert_int_equal(allocator_soname("jemalloc", &so), 0);
	assert_string_equal(so, "libjemalloc.so.2");
	setenv("CGOCOST_TCMALLOC", "libmy-tcmalloc.so", 1);
	assert_int_equal(allocator_soname("tcmalloc", &so), 0);
	assert_string_equal(so, "libmy-tcmalloc.so");
	unsetenv("CGOCOST_TCMALLOC");
	assert_int_equal(allocator_soname("hoard", &so), -1);
	/* this test runs on glibc's malloc: that is what must be reported;
	 * built with ASan (make sanitize), the sanitizer's malloc serves, and
	 * it is no allocator --malloc knows */
	allocator_in_effect(path, sizeof(path), &name);
#ifdef __SANITIZE_ADDRESS__
	assert_string_equal(name, "unknown");
	assert_non_null(strstr(path, "libasan.so"));
#else
	assert_string_equal(name, "glibc");
	assert_non_null(strstr(path, "libc.so"));
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allocator_names),
	};
	return cmocka_run_group_tests_name("allocs", tests, NULL, NULL);
}
