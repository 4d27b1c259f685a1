/* tests/unit/orchestrate/test_plan.c — plans (orchestrate/plan.h): the
 * variants plan_build makes for each kind of run, the arguments a variant's
 * child launch gets (child_args, read back by the child's own parser), how
 * a launch's document is merged into its variant (plan_merge_launch) and
 * how the cells become a document (plan_document).
 *
 * plan_build starts from this executable (/proc/self/exe) and looks for
 * the other builds beside it. Kinds that need none are built in this
 * process; --compare and --anatomy are built in this program run again
 * ("--plan ARGS...") under the name bench, hard-linked (or copied) into two
 * temporary folders beside it: A with bench and bench-shared only, B with
 * bench-host, bench-minimal and a libcmock.so too. The child prints its
 * plan, one variant a line. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/status.h"
#include "cli/args.h"
#include "cli/runkind.h"
#include "model/model.h"
#include "model_fixture.h"
#include "orchestrate/child.h"
#include "orchestrate/plan.h"

#define MAX_PLUGINS 64
#define SYNC_CELL   "lib=archive/mode=sync/work=noop/p=1"
#define ASYNC_CELL  "lib=archive/mode=async/work=noop/p=1"
#define SHARED_CELL "lib=shared/mode=sync/work=noop/p=1"

static char self[PATH_MAX];
static char dir_a[PATH_MAX], dir_b[PATH_MAX];

/* --- options as bench reads them ---------------------------------------------- */

/* Parses args (NULL-terminated, after argv[0]) and resolves the kind. */
static void options_of(struct options *o, const char *const *args)
{
	char *argv[40], err[1024];
	int argc = 0;

	argv[argc++] = (char *)"bench";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	if (options_parse(o, argc, argv, MAX_PLUGINS, err, sizeof(err)) != PARSE_OK)
		fail_msg("options refused: %s", err);
	run_kind_resolve(o);
}

static void build(struct plan *p, struct options *o, const char *const *args)
{
	char err[1024];

	options_of(o, args);
	if (plan_build(p, o, err, sizeof(err)) != 0)
		fail_msg("plan_build: %s", err);
}

/* --- the child that prints its plan ---------------------------------------------- */

static int print_plan(int argc, char **argv)
{
	struct options o;
	struct plan p;
	char err[1024];

	if (options_parse(&o, argc, argv, MAX_PLUGINS, err, sizeof(err)) != PARSE_OK) {
		printf("parse: %s\n", err);
		return 10;
	}
	run_kind_resolve(&o);
	if (plan_build(&p, &o, err, sizeof(err)) != 0) {
		printf("error: %s\n", err);
		return 11;
	}
	printf("nself %d nv %d\n", p.nself, p.nv);
	for (int i = 0; i < p.nv; i++) {
		const struct variant *v = &p.v[i];
		printf("%s async=%d work=%d minimal=%d malloc=%s plugin=%s beside=%d base=%d\n", v->exe, v->async,
		       v->work, v->minimal, v->malloc_name ? v->malloc_name : "-", v->plugin[0] ? v->plugin : "-",
		       v->beside, v->base);
	}
	plan_free(&p);
	return 0;
}

/* Runs dir/name --plan args; its exit status, output and errors (caller
 * frees). */
static int plan_of(const char *dir, const char *name, const char *const *args, char **out, char **errout)
{
	char exe[PATH_MAX + 64], *argv[40], why[600];
	struct child c;
	int argc = 0, rc;

	snprintf(exe, sizeof(exe), "%s/%s", dir, name);
	argv[argc++] = exe;
	argv[argc++] = (char *)"--plan";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	child_run(&c, argv, why, sizeof(why));
	rc = c.rc;
	*out = strdup(c.output ? c.output : "");
	*errout = strdup(c.errors ? c.errors : "");
	child_close(&c);
	assert_non_null(*out);
	assert_non_null(*errout);
	return rc;
}

/* Appends a printf'd line to want. */
static void line(char *want, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t at = strlen(want);

	va_start(ap, fmt);
	vsnprintf(want + at, len - at, fmt, ap);
	va_end(ap);
}

static void variant_line(char *want, size_t len, const char *dir, const char *exe, int async, int work, int minimal,
			 int base)
{
	line(want, len, "%s/%s async=%d work=%d minimal=%d malloc=- plugin=- beside=0 base=%d\n", dir, exe, async, work,
	     minimal, base);
}

/* The four cells of --compare, from dir's archive build. */
static void compare_lines(char *want, size_t len, const char *dir, int base)
{
	variant_line(want, len, dir, "bench", 0, -1, 0, base);
	variant_line(want, len, dir, "bench", 1, -1, 0, base);
	variant_line(want, len, dir, "bench-shared", 0, -1, 0, base);
	variant_line(want, len, dir, "bench-shared", 1, -1, 0, base);
}

static void note_about(const char *errout, const char *dir)
{
	char note[PATH_MAX + 200];

	snprintf(note, sizeof(note), "bench: note: no bench-host and libcmock.so next to %s/bench: no C plugin row\n",
		 dir);
	if (strstr(errout, note) == NULL)
		fail_msg("no note '%s' in '%s'", note, errout);
}

/* --- the folders of builds -------------------------------------------------------- */

static int put_file(const char *dir, const char *name, const char *from)
{
	char path[PATH_MAX + 64], buf[65536];
	int in, out;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (from == NULL) {
		out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		return out < 0 ? -1 : close(out);
	}
	if (link(from, path) == 0)
		return 0;
	/* another file system: a copy */
	if ((in = open(from, O_RDONLY)) < 0)
		return -1;
	if ((out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0755)) < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	return close(out) == 0 && n == 0 ? 0 : -1;
}

static const char *const a_files[] = { "bench", "bench-shared", NULL };
static const char *const b_files[] = { "bench", "bench-shared", "bench-host", "bench-minimal", "libcmock.so", NULL };

static int make_dir(char *dir, const char *const *files)
{
	const char *slash = strrchr(self, '/');

	snprintf(dir, PATH_MAX, "%.*s/plan.XXXXXX", (int)(slash - self), self);
	if (mkdtemp(dir) == NULL)
		return -1;
	for (int i = 0; files[i]; i++)
		if (put_file(dir, files[i], strstr(files[i], ".so") ? NULL : self) != 0)
			return -1;
	return 0;
}

static void remove_dir(const char *dir, const char *const *files)
{
	char path[PATH_MAX + 64];

	if (dir[0] == '\0')
		return;
	for (int i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static int setup_dirs(void **state)
{
	(void)state;
	return make_dir(dir_a, a_files) != 0 || make_dir(dir_b, b_files) != 0 ? -1 : 0;
}

static int teardown_dirs(void **state)
{
	(void)state;
	remove_dir(dir_a, a_files);
	remove_dir(dir_b, b_files);
	return 0;
}

/* --- plan_build in this process ---------------------------------------------------- */

static void test_single_cell(void **state)
{
	static const char *const sync[] = { "-n", "1000", NULL }, *const async[] = { "-a", "--launches", "3", NULL };
	struct options o;
	struct plan p;

	(void)state;
	build(&p, &o, sync);
	assert_int_equal(p.nv, 1);
	assert_int_equal(p.nself, 1);
	assert_string_equal(p.v[0].exe, self);
	assert_int_equal(p.v[0].async, 0);
	assert_int_equal(p.v[0].work, -1);
	assert_null(p.v[0].malloc_name);
	assert_string_equal(p.v[0].plugin, "");
	assert_int_equal(p.v[0].base, 0);
	assert_int_equal(p.v[0].minimal, 0);
	assert_null(p.v[0].cells);
	plan_free(&p);

	build(&p, &o, async);
	assert_int_equal(o.kind, RUN_LAUNCHES);
	assert_int_equal(p.nv, 1);
	assert_int_equal(p.v[0].async, 1);
	plan_free(&p);
}

static void test_allocators(void **state)
{
	static const char *const args[] = { "--allocators", "glibc,jemalloc,mimalloc", NULL };
	struct options o;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	assert_int_equal(o.kind, RUN_ALLOCATORS);
	assert_int_equal(p.nv, 3);
	assert_int_equal(p.nself, 3);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(p.v[i].exe, self);
		assert_int_equal(p.v[i].async, 0);
		assert_int_equal(p.v[i].base, 0);
	}
	assert_string_equal(p.v[0].malloc_name, "glibc");
	assert_string_equal(p.v[1].malloc_name, "jemalloc");
	assert_string_equal(p.v[2].malloc_name, "mimalloc");
	plan_free(&p);
}

static void test_interference(void **state)
{
	static const char *const args[] = { "--interference", "--plugin", "/x/a.so", "--busy", "/x/b.so", NULL };
	struct options o;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	assert_int_equal(o.kind, RUN_INTERFERENCE);
	assert_int_equal(p.nv, 6);
	assert_int_equal(p.nself, 6);
	for (int i = 0; i < 6; i++) {
		assert_string_equal(p.v[i].exe, self);
		assert_int_equal(p.v[i].beside, i / 2);
		assert_int_equal(p.v[i].async, i % 2);
		assert_string_equal(p.v[i].plugin, "");
	}
	plan_free(&p);
}

static void child_options(const struct options *o, const struct variant *v, struct options *co);

/* --per-event K --host-calls both: per-field then batched, sync then async
 * (no C plugin next to this test program); each child asks its own way. A
 * --plugin library: the mode asked only. */
static void test_per_event_both(void **state)
{
	static const char *const args[] = { "--per-event", "3", "--host-calls", "both", "--work", "u64", NULL };
	static const char *const lib[] = { "--per-event", "2", "--host-calls", "both", "--plugin", "/x/a.so", NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	assert_int_equal(o.kind, RUN_PER_EVENT);
	assert_int_equal(o.method, METHOD_PAIRED);
	assert_int_equal(p.nv, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(p.v[i].exe, self);
		assert_int_equal(p.v[i].async, i / 2);
		assert_int_equal(p.v[i].host_calls, i % 2 ? HOST_CALLS_BATCHED : HOST_CALLS_PER_FIELD);
		child_options(&o, &p.v[i], &co);
		assert_int_equal(co.per_event, 3);
		assert_int_equal(co.fields, 3);
		assert_int_equal(co.host_calls, p.v[i].host_calls);
		assert_int_equal(co.async, i / 2);
		assert_int_equal(co.work, WORK_U64);
	}
	plan_free(&p);
	build(&p, &o, lib);
	assert_int_equal(p.nv, 2);
	assert_int_equal(p.v[0].async + p.v[1].async, 0);
	assert_int_equal(p.v[1].host_calls, HOST_CALLS_BATCHED);
	plan_free(&p);
}

/* --against: the same cells of the other build after this one's, flagged
 * base; one that cannot be found is refused. */
static void test_against(void **state)
{
	char other[PATH_MAX + 16], err[1024];
	const char *args[] = { "--against", other, "-a", NULL };
	struct options o;
	struct plan p;

	(void)state;
	snprintf(other, sizeof(other), "%s/bench", dir_a);
	build(&p, &o, args);
	assert_int_equal(o.base, BASE_BUILD);
	assert_int_equal(p.nself, 1);
	assert_int_equal(p.nv, 2);
	assert_string_equal(p.v[0].exe, self);
	assert_int_equal(p.v[0].base, 0);
	assert_string_equal(p.v[1].exe, other);
	assert_int_equal(p.v[1].base, 1);
	assert_int_equal(p.v[0].async, 1);
	assert_int_equal(p.v[1].async, 1);
	plan_free(&p);

	snprintf(other, sizeof(other), "%s/missing", dir_a);
	options_of(&o, args);
	assert_int_equal(plan_build(&p, &o, err, sizeof(err)), -1);
	{
		char want[PATH_MAX + 64];
		snprintf(want, sizeof(want), "--against: cannot find '%s'", other);
		assert_string_equal(err, want);
	}
	plan_free(&p);
}

/* --- plan_build in a build folder --------------------------------------------------- */

static void test_compare_without_c_plugin(void **state)
{
	static const char *const args[] = { "--compare", NULL };
	char want[8192] = "", *out, *errout;

	(void)state;
	line(want, sizeof(want), "nself 4 nv 4\n");
	compare_lines(want, sizeof(want), dir_a, 0);
	/* run as either build, the table starts from the archive build */
	for (int k = 0; k < 2; k++) {
		assert_int_equal(plan_of(dir_a, k ? "bench-shared" : "bench", args, &out, &errout), 0);
		assert_string_equal(out, want);
		note_about(errout, dir_a);
		free(out);
		free(errout);
	}
}

/* The C plugin's cell, then the round-trip cell: its own async with bare
 * work (WORK_BARE is 3). */
static void c_plugin_lines(char *want, size_t len, const char *dir)
{
	line(want, len, "%s/bench-host async=0 work=-1 minimal=0 malloc=- plugin=%s/libcmock.so beside=0 base=0\n", dir,
	     dir);
	line(want, len, "%s/bench-host async=1 work=3 minimal=0 malloc=- plugin=%s/libcmock.so beside=0 base=0\n", dir,
	     dir);
}

static void test_compare_with_c_plugin(void **state)
{
	static const char *const args[] = { "--compare", "--interleave", "launches", NULL };
	char want[8192] = "", *out, *errout;

	(void)state;
	line(want, sizeof(want), "nself 6 nv 6\n");
	compare_lines(want, sizeof(want), dir_b, 0);
	c_plugin_lines(want, sizeof(want), dir_b);
	assert_int_equal(plan_of(dir_b, "bench-shared", args, &out, &errout), 0);
	assert_string_equal(out, want);
	assert_null(strstr(errout, "note"));
	free(out);
	free(errout);
}

static void test_compare_against(void **state)
{
	char other[PATH_MAX + 16], want[8192] = "", *out, *errout;
	const char *args[] = { "--compare", "--against", other, NULL };

	(void)state;
	snprintf(other, sizeof(other), "%s/bench", dir_a);
	line(want, sizeof(want), "nself 6 nv 10\n");
	compare_lines(want, sizeof(want), dir_b, 0);
	c_plugin_lines(want, sizeof(want), dir_b);
	compare_lines(want, sizeof(want), dir_a, 1);
	assert_int_equal(plan_of(dir_b, "bench", args, &out, &errout), 0);
	assert_string_equal(out, want);
	note_about(errout, dir_a);
	free(out);
	free(errout);
}

/* Against a build with its own C plugin: the base has the C plugin's cell
 * but not the round trip, the machine's floor, measured once. */
static void test_compare_against_c_plugin(void **state)
{
	char other[PATH_MAX + 16], want[8192] = "", *out, *errout;
	const char *args[] = { "--compare", "--against", other, NULL };

	(void)state;
	snprintf(other, sizeof(other), "%s/bench", dir_b);
	line(want, sizeof(want), "nself 6 nv 11\n");
	compare_lines(want, sizeof(want), dir_b, 0);
	c_plugin_lines(want, sizeof(want), dir_b);
	compare_lines(want, sizeof(want), dir_b, 1);
	line(want, sizeof(want),
	     "%s/bench-host async=0 work=-1 minimal=0 malloc=- plugin=%s/libcmock.so beside=0 base=1\n", dir_b, dir_b);
	assert_int_equal(plan_of(dir_b, "bench", args, &out, &errout), 0);
	assert_string_equal(out, want);
	free(out);
	free(errout);
}

static void test_anatomy(void **state)
{
	static const char *const args[] = { "--anatomy", NULL };
	static const enum work steps[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	char want[8192] = "", *out, *errout;

	(void)state;
	line(want, sizeof(want), "nself 12 nv 12\n");
	for (int async = 0; async < 2; async++)
		for (int k = 0; k < 5; k++) {
			variant_line(want, sizeof(want), dir_b, "bench", async, (int)steps[k], 0, 0);
			/* the minimal driver right after bare */
			if (steps[k] == WORK_BARE)
				variant_line(want, sizeof(want), dir_b, "bench-minimal", async, -1, 1, 0);
		}
	for (int k = 0; k < 2; k++) {
		assert_int_equal(plan_of(dir_b, k ? "bench-shared" : "bench", args, &out, &errout), 0);
		assert_string_equal(out, want);
		free(out);
		free(errout);
	}

	/* no bench-minimal beside it: refused, naming the file */
	assert_int_equal(plan_of(dir_a, "bench", args, &out, &errout), 11);
	snprintf(want, sizeof(want), "error: %s/bench-minimal is not an executable bench\n", dir_a);
	assert_string_equal(out, want);
	free(out);
	free(errout);
}

/* --- child_args ----------------------------------------------------------------------- */

/* The child's argv read back by its own parser, as the child reads it. */
static void child_options(const struct options *o, const struct variant *v, struct options *co)
{
	char *argv[80], store[16384], err[1024];
	int argc = child_args(o, v, argv, 80, store, sizeof(store));

	assert_true(argc > 1);
	assert_null(argv[argc]);
	assert_ptr_equal(argv[0], v->exe);
	assert_string_equal(argv[argc - 1], "--emit-launch");
	for (int i = 1; i < argc - 1; i++)
		assert_string_not_equal(argv[i], "--emit-launch");
	if (options_parse(co, argc, argv, MAX_PLUGINS, err, sizeof(err)) != PARSE_OK)
		fail_msg("the child refuses its arguments: %s", err);
	run_kind_resolve(co);
	assert_int_equal(co->kind, RUN_CHILD);
	assert_int_equal(co->method, METHOD_HERE);
}

static void test_child_args_single(void **state)
{
	static const char *const args[] = { "-n",  "5000",	     "-a",  "--work",
					    "u64", "--extra-ns",     "100", "--async-extra-ns",
					    "7",   "--slowdown-pct", "5",   NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	child_options(&o, &p.v[0], &co);
	assert_int_equal(co.n, 5000);
	assert_int_equal(co.async, 1);
	assert_int_equal(co.work, WORK_U64);
	assert_int_equal(co.extra_ns, 107); /* an async cell gets --async-extra-ns too */
	assert_int_equal(co.slowdown_pct, 5);
	assert_null(co.malloc_name);
	assert_int_equal(co.nlibs, 0);
	assert_int_equal(co.launches, 1);

	/* the same as a sync cell: no async extra */
	p.v[0].async = 0;
	child_options(&o, &p.v[0], &co);
	assert_int_equal(co.async, 0);
	assert_int_equal(co.extra_ns, 100);
	plan_free(&p);
}

/* The --against base gets no injected slowdown; this build does. */
static void test_child_args_against(void **state)
{
	const char *args[] = { "--against", self, "--extra-ns", "100", "--slowdown-pct", "5", "-n", "300", NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	assert_int_equal(p.nv, 2);
	child_options(&o, &p.v[0], &co);
	assert_int_equal(co.extra_ns, 100);
	assert_int_equal(co.slowdown_pct, 5);
	assert_int_equal(co.n, 300);
	child_options(&o, &p.v[1], &co);
	assert_int_equal(p.v[1].base, 1);
	assert_int_equal(co.extra_ns, 0);
	assert_int_equal(co.slowdown_pct, 0);
	assert_int_equal(co.n, 300);
	plan_free(&p);
}

static void test_child_args_allocators(void **state)
{
	static const char *const args[] = { "--allocators", "glibc,jemalloc", "--count-allocs", NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	child_options(&o, &p.v[0], &co);
	assert_string_equal(co.malloc_name, "glibc");
	assert_int_equal(co.count_allocs, 1);
	child_options(&o, &p.v[1], &co);
	assert_string_equal(co.malloc_name, "jemalloc");
	assert_int_equal(co.nallocators, 0);
	plan_free(&p);
}

/* Alone, beside the --busy library idle, beside it busy. */
static void test_child_args_interference(void **state)
{
	static const char *const args[] = { "--interference", "--plugin",      "/x/a.so", "--busy",
					    "/x/b.so",	      "--alloc-bytes", "64",	  NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	for (int i = 0; i < p.nv; i++) {
		child_options(&o, &p.v[i], &co);
		assert_int_equal(co.nlibs, 1);
		assert_string_equal(co.libs[0], "/x/a.so");
		assert_int_equal(co.async, i % 2);
		assert_int_equal(co.interference, 0);
		switch (p.v[i].beside) {
		case 0:
			assert_null(co.idle);
			assert_null(co.busy);
			assert_int_equal(co.alloc_bytes, 0);
			break;
		case 1:
			assert_string_equal(co.idle, "/x/b.so");
			assert_null(co.busy);
			assert_int_equal(co.alloc_bytes, 0);
			break;
		default:
			assert_null(co.idle);
			assert_string_equal(co.busy, "/x/b.so");
			assert_int_equal(co.alloc_bytes, 64);
		}
	}
	plan_free(&p);
}

/* A variant's own plugin and work replace the options'. */
static void test_child_args_variant_fields(void **state)
{
	static const char *const args[] = { "--plugin", "/x/a.so", "--plugin", "/x/b.so", "--work", "noop", NULL };
	struct options o, co;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	child_options(&o, &p.v[0], &co);
	assert_int_equal(co.nlibs, 2);
	assert_string_equal(co.libs[1], "/x/b.so");
	assert_int_equal(co.work, WORK_NOOP);

	snprintf(p.v[0].plugin, sizeof(p.v[0].plugin), "/x/c.so");
	p.v[0].work = WORK_STR;
	child_options(&o, &p.v[0], &co);
	assert_int_equal(co.nlibs, 1);
	assert_string_equal(co.libs[0], "/x/c.so");
	assert_int_equal(co.work, WORK_STR);
	plan_free(&p);
}

/* bench-minimal takes -n and -a only; too little room is refused. */
static void test_child_args_minimal_and_limits(void **state)
{
	static const char *const args[] = { "-n", "4321", "--extra-ns", "9", NULL };
	char *argv[80], store[16384];
	struct options o;
	struct plan p;

	(void)state;
	build(&p, &o, args);
	p.v[0].minimal = 1;
	assert_int_equal(child_args(&o, &p.v[0], argv, 80, store, sizeof(store)), 3);
	assert_ptr_equal(argv[0], p.v[0].exe);
	assert_string_equal(argv[1], "-n");
	assert_string_equal(argv[2], "4321");
	assert_null(argv[3]);
	p.v[0].async = 1;
	assert_int_equal(child_args(&o, &p.v[0], argv, 80, store, sizeof(store)), 4);
	assert_string_equal(argv[3], "-a");
	assert_null(argv[4]);

	p.v[0].minimal = 0;
	assert_int_equal(child_args(&o, &p.v[0], argv, 4, store, sizeof(store)), -1);
	assert_int_equal(child_args(&o, &p.v[0], argv, 80, store, 3), -1);
	assert_int_equal(child_args(&o, &p.v[0], argv, 80, store, 12), -1);
	plan_free(&p);
}

/* --- plan_merge_launch and plan_document ------------------------------------------------- */

/* A child's document: one launch of each named cell at ns. */
static void child_doc(struct doc *d, const char *const *cells, double ns)
{
	fixture_doc(d);
	for (int i = 0; cells[i]; i++) {
		struct cell_rec *c = fixture_cell(d, "archive", "sync", fixture_launches(1, ns + i, 0, ns), 1);
		snprintf(c->name, sizeof(c->name), "%s", cells[i]);
	}
}

static void variant(struct variant *v, const char *exe)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->exe, sizeof(v->exe), "%s", exe);
	v->work = -1;
}

static void test_merge_launches(void **state)
{
	static const char *const two[] = { SYNC_CELL, ASYNC_CELL, NULL };
	struct variant v;
	struct doc child;
	char err[1024];
	struct plan p;

	(void)state;
	variant(&v, "/b/bench");
	/* the first launch makes the cells */
	child_doc(&child, two, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_OK);
	assert_int_equal(v.ncells, 2);
	assert_string_equal(v.cells[0].name, SYNC_CELL);
	assert_string_equal(v.cells[1].name, ASYNC_CELL);
	assert_int_equal(v.cells[0].nlaunches, 1);
	assert_null(child.cells);
	assert_int_equal(child.ncells, 0);
	doc_free(&child);

	/* the next ones append their launch to each cell */
	for (int k = 1; k < 3; k++) {
		child_doc(&child, two, 100 + 10 * k);
		assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_OK);
		doc_free(&child);
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(v.cells[i].nlaunches, 3);
		for (int k = 0; k < 3; k++)
			assert_true(v.cells[i].launches[k].ns_per_extraction == 100.0 + 10 * k + i);
		assert_int_equal(v.cells[i].launches[2].ncallers, 1);
		assert_int_equal(v.cells[i].launches[2].callers[0].nbatches, 2);
	}

	/* plan_free frees what the variant owns */
	memset(&p, 0, sizeof(p));
	p.v[0] = v;
	p.nv = 1;
	plan_free(&p);
	assert_int_equal(p.nv, 0);
}

static void test_merge_refuses_other_cells(void **state)
{
	static const char *const one[] = { SYNC_CELL, NULL }, *const other[] = { ASYNC_CELL, NULL },
				 *const more[] = { SYNC_CELL, SHARED_CELL, NULL }, *const none[] = { NULL };
	struct variant v;
	struct doc child;
	char err[1024];
	struct plan p;

	(void)state;
	variant(&v, "/b/bench");
	child_doc(&child, none, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_RUN_FAILED);
	assert_string_equal(err, "launch of /b/bench printed a document without a cell");
	assert_null(v.cells);
	doc_free(&child);

	child_doc(&child, one, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_OK);
	doc_free(&child);

	/* the mode in effect changed */
	child_doc(&child, other, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_RUN_FAILED);
	assert_string_equal(err, "/b/bench: the mode in effect changed between launches (" SYNC_CELL
				 ", then " ASYNC_CELL ")");
	doc_free(&child);

	/* a cell more than the first launch made */
	child_doc(&child, more, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_RUN_FAILED);
	assert_string_equal(err,
			    "/b/bench: the mode in effect changed between launches (nothing, then " SHARED_CELL ")");
	doc_free(&child);

	/* a child's cell must hold exactly one launch */
	child_doc(&child, one, 100);
	{
		struct cell_rec *c = &child.cells[0];
		struct launch_rec *l = model_append((void **)&c->launches, &c->nlaunches, sizeof(*c->launches));
		assert_non_null(l);
		*l = fixture_launch(1, 1, (const double[]){ 1 }, 1);
	}
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_RUN_FAILED);
	doc_free(&child);

	memset(&p, 0, sizeof(p));
	p.v[0] = v;
	p.nv = 1;
	plan_free(&p);

	/* a cell fewer than the first launch made: its launches would no
	 * longer be one a round */
	variant(&v, "/b/bench");
	child_doc(&child, more, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_OK);
	doc_free(&child);
	child_doc(&child, one, 100);
	assert_int_equal(plan_merge_launch(&v, &child, err, sizeof(err)), EXIT_RUN_FAILED);
	assert_string_equal(err,
			    "/b/bench: the mode in effect changed between launches (" SHARED_CELL ", then nothing)");
	assert_int_equal(v.cells[0].nlaunches, 1); /* nothing merged */
	doc_free(&child);
	memset(&p, 0, sizeof(p));
	p.v[0] = v;
	p.nv = 1;
	plan_free(&p);
}

static void test_plan_document(void **state)
{
	static const char *const one[] = { SYNC_CELL, NULL }, *const two[] = { ASYNC_CELL, SHARED_CELL, NULL };
	/* 12 launches: the fewest a verdict against another build takes */
	const char *args[] = { "--against", self, "--interleave", "launches", "--launches", "12", NULL };
	struct machine_rec m;
	struct options o;
	struct plan p;
	struct doc d, base, child;
	char err[1024];

	(void)state;
	build(&p, &o, args);
	assert_int_equal(p.nv, 2);
	/* twelve rounds: v[0] has one cell, v[1] two */
	for (int round = 0; round < 12; round++) {
		child_doc(&child, one, 100);
		assert_int_equal(plan_merge_launch(&p.v[0], &child, err, sizeof(err)), EXIT_OK);
		doc_free(&child);
		child_doc(&child, two, 200);
		assert_int_equal(plan_merge_launch(&p.v[1], &child, err, sizeof(err)), EXIT_OK);
		doc_free(&child);
	}
	p.v[0].stalled = 3;
	memset(&m, 0, sizeof(m));
	snprintf(m.cpu_model, sizeof(m.cpu_model), "Plan CPU");
	m.online_cpus = 7;

	/* d holds leftovers from before: doc_begin clears them */
	memset(&d, 0x5a, sizeof(d));
	d.cells = NULL;
	d.ncells = 0;
	assert_int_equal(plan_document(&p, 0, p.nself, &m, &o, &d), 0);
	assert_int_equal(d.schema_version, SCHEMA_VERSION);
	assert_string_equal(d.machine.cpu_model, "Plan CPU");
	assert_int_equal(d.machine.online_cpus, 7);
	assert_int_equal(d.options.kind, RUN_LAUNCHES);
	assert_int_equal(d.options.base, BASE_BUILD);
	assert_int_equal(d.options.launches, 12);
	assert_int_equal(d.analysed, 0);
	assert_int_equal(d.has_paired, 0);
	assert_int_equal(d.has_comparison, 0);
	assert_int_equal(d.ncells, 1);
	assert_string_equal(d.cells[0].name, SYNC_CELL);
	assert_int_equal(d.cells[0].nlaunches, 12);
	assert_int_equal(d.cells[0].stalled_launches_rerun, 3);
	assert_null(p.v[0].cells);
	assert_int_equal(p.v[0].ncells, 0);
	assert_non_null(p.v[1].cells); /* not moved */

	assert_int_equal(plan_document(&p, p.nself, p.nv, NULL, &o, &base), 0);
	assert_string_equal(base.machine.cpu_model, "");
	assert_int_equal(base.ncells, 2);
	assert_string_equal(base.cells[0].name, ASYNC_CELL);
	assert_string_equal(base.cells[1].name, SHARED_CELL);
	assert_int_equal(base.cells[1].nlaunches, 12);
	assert_true(base.cells[1].launches[1].ns_per_extraction == 201.0);
	assert_int_equal(base.cells[1].stalled_launches_rerun, 0);
	assert_null(p.v[1].cells);

	plan_free(&p);
	doc_free(&d);
	doc_free(&base);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_cell),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_interference),
		cmocka_unit_test(test_per_event_both),
		cmocka_unit_test(test_against),
		cmocka_unit_test(test_compare_without_c_plugin),
		cmocka_unit_test(test_compare_with_c_plugin),
		cmocka_unit_test(test_compare_against),
		cmocka_unit_test(test_compare_against_c_plugin),
		cmocka_unit_test(test_anatomy),
		cmocka_unit_test(test_child_args_single),
		cmocka_unit_test(test_child_args_against),
		cmocka_unit_test(test_child_args_allocators),
		cmocka_unit_test(test_child_args_interference),
		cmocka_unit_test(test_child_args_variant_fields),
		cmocka_unit_test(test_child_args_minimal_and_limits),
		cmocka_unit_test(test_merge_launches),
		cmocka_unit_test(test_merge_refuses_other_cells),
		cmocka_unit_test(test_plan_document),
	};
	ssize_t n;

	if (argc >= 2 && strcmp(argv[1], "--plan") == 0)
		return print_plan(argc - 1, argv + 1);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	return cmocka_run_group_tests(tests, setup_dirs, teardown_dirs);
}
