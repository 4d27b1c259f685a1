/* Unit tests of c/atomicfile.c in a private temporary directory. Tests run as
 * root, so failures are provoked without permissions: a missing directory, a
 * path that is a directory, and a file-size limit (RLIMIT_FSIZE binds root). */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/atomicfile.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/cgocost-atomicfile-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Number of entries in d other than . and .. */
static int entries(const char *d)
{
	DIR *dp = opendir(d);
	assert_non_null(dp);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dp)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(dp);
	return n;
}

static void assert_file_is(const char *path, const char *want)
{
	char *data;
	size_t len;
	char err[256] = "";
	if (read_whole_file(path, &data, &len, 1 << 20, err, sizeof err) != 0)
		fail_msg("%s", err);
	assert_int_equal(len, strlen(want));
	assert_string_equal(data, want); /* NUL-terminated */
	free(data);
}

static void assert_one_line_naming(const char *err, const char *path, int e)
{
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(e)));
	assert_null(strchr(err, '\n'));
}

static void test_round_trip(void **state)
{
	(void)state;
	char path[128], err[256] = "";
	in_dir(path, sizeof path, "base.json");
	const char *v1 = "{\"schema_version\": 1}\n";
	assert_int_equal(atomic_write_file(path, v1, strlen(v1), err, sizeof err), 0);
	assert_file_is(path, v1);

	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~022); /* umask set in main */

	/* replacing keeps the old mode; longer then shorter content */
	assert_int_equal(chmod(path, 0600), 0);
	const char *v2 = "{\"schema_version\": 1, \"samples\": [1, 2, 3, 4, 5, 6]}\n";
	assert_int_equal(atomic_write_file(path, v2, strlen(v2), err, sizeof err), 0);
	assert_file_is(path, v2);
	assert_int_equal(atomic_write_file(path, "x", 1, err, sizeof err), 0);
	assert_file_is(path, "x");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	assert_int_equal(atomic_write_file(path, "", 0, err, sizeof err), 0);
	assert_file_is(path, "");
	assert_int_equal(entries(dir), 1); /* no temporary file left */
	assert_int_equal(unlink(path), 0);
}

static void test_missing_directory(void **state)
{
	(void)state;
	char path[128], err[256] = "";
	in_dir(path, sizeof path, "no-such-dir/base.json");
	errno = 0;
	assert_int_equal(atomic_write_file(path, "data", 4, err, sizeof err), -1);
	assert_int_equal(errno, ENOENT);
	assert_one_line_naming(err, path, ENOENT);
	assert_int_equal(entries(dir), 0);
}

/* rename() cannot replace a non-empty directory: the write fails at the last
 * step, the directory and its content stay, the temporary file is removed. */
static void test_path_is_directory(void **state)
{
	(void)state;
	char target[128], inside[160], err[256] = "";
	in_dir(target, sizeof target, "target");
	assert_int_equal(mkdir(target, 0755), 0);
	snprintf(inside, sizeof inside, "%s/keep", target);
	assert_int_equal(atomic_write_file(inside, "kept", 4, err, sizeof err), 0);

	errno = 0;
	assert_int_equal(atomic_write_file(target, "data", 4, err, sizeof err), -1);
	int e = errno;
	assert_true(e == EISDIR || e == ENOTEMPTY || e == EEXIST);
	assert_one_line_naming(err, target, e);
	struct stat st;
	assert_int_equal(stat(target, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_file_is(inside, "kept");
	assert_int_equal(entries(dir), 1); /* only target/ */

	/* a trailing slash names a directory too */
	char slash[160];
	snprintf(slash, sizeof slash, "%s/", target);
	assert_int_equal(atomic_write_file(slash, "data", 4, err, sizeof err), -1);
	assert_int_equal(entries(dir), 1);
	assert_int_equal(entries(target), 1);

	assert_int_equal(unlink(inside), 0);
	assert_int_equal(rmdir(target), 0);
}

/* A device node or a FIFO at the target is refused by the check and by the
 * write, and stays what it was: as root, saving to /dev/null once replaced
 * the device with a file. The device here is a private copy of /dev/null's
 * node (char 1:3), made with mknod, which needs root. */
static void assert_kept(const char *path, mode_t type)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & S_IFMT, type);
}

static void test_special_files_refused(void **state)
{
	(void)state;
	char fifo[128], dev[128], err[256] = "";
	in_dir(fifo, sizeof fifo, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	in_dir(dev, sizeof dev, "null");
	int have_dev = mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0;

	const char *paths[] = { fifo, dev };
	const char *kinds[] = { "not a regular file (a named FIFO)", "not a regular file (a device)" };
	mode_t types[] = { S_IFIFO, S_IFCHR };
	for (int i = 0; i < (have_dev ? 2 : 1); i++) {
		errno = 0;
		assert_int_equal(atomic_write_check(paths[i], err, sizeof err), -1);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(err, paths[i]));
		assert_non_null(strstr(err, kinds[i]));
		assert_null(strchr(err, '\n'));
		errno = 0;
		assert_int_equal(atomic_write_file(paths[i], "data", 4, err, sizeof err), -1);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(err, kinds[i]));
		assert_kept(paths[i], types[i]);
	}
	assert_int_equal(entries(dir), have_dev ? 2 : 1); /* no temporary file left */
	if (!have_dev)
		print_message("mknod is not allowed here: the device case was not run\n");
	assert_int_equal(unlink(fifo), 0);
	if (have_dev)
		assert_int_equal(unlink(dev), 0);

	/* a symbolic link is refused, neither followed nor replaced: to a
	 * device, to a file, dangling or looping (issue 36, defect 8) */
	char link[128], file[128];
	in_dir(link, sizeof link, "link");
	in_dir(file, sizeof file, "target");
	assert_int_equal(atomic_write_file(file, "old", 3, err, sizeof err), 0);
	const char *targets[] = { "/dev/null", file, "nowhere", link };
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		assert_int_equal(symlink(targets[i], link), 0);
		errno = 0;
		assert_int_equal(atomic_write_check(link, err, sizeof err), -1);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(err, "a symbolic link"));
		assert_int_equal(atomic_write_file(link, "data", 4, err, sizeof err), -1);
		assert_non_null(strstr(err, "a symbolic link"));
		assert_kept(link, S_IFLNK);
		assert_int_equal(unlink(link), 0);
	}
	assert_kept("/dev/null", S_IFCHR);
	char *data;
	size_t len;
	assert_int_equal(read_whole_file(file, &data, &len, 100, err, sizeof err), 0);
	assert_string_equal(data, "old");
	free(data);
	assert_int_equal(unlink(file), 0);
}

/* What a reader would refuse, said without reading or blocking. */
static void test_input_refusal(void **state)
{
	(void)state;
	char fifo[128], file[128], err[256] = "";
	int fds[2];
	in_dir(fifo, sizeof fifo, "in.fifo");
	in_dir(file, sizeof file, "in.txt");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(atomic_write_file(file, "1\n", 2, err, sizeof err), 0);
	assert_string_equal(input_refusal(fifo), "not a regular file (a named FIFO)");
	assert_string_equal(input_refusal("/dev/zero"), "not a regular file (a device)");
	assert_string_equal(input_refusal(dir), "not a regular file (a directory)");
	assert_null(input_refusal(file));
	assert_null(input_refusal("/nonexistent/file")); /* the reader says why */
	assert_int_equal(pipe(fds), 0);
	char anon[64];
	snprintf(anon, sizeof anon, "/proc/self/fd/%d", fds[0]);
	assert_null(input_refusal(anon)); /* a shell's <(cmd) */
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(unlink(file), 0);
}

/* A pipe is read once into a file that can be read again (each launch and
 * each library reads --events); a regular file and a named FIFO are left as
 * they are. */
static void test_pipe_is_kept(void **state)
{
	(void)state;
	char fifo[128], file[128], anon[64], kept[32] = "", err[256] = "", *data;
	size_t len;
	int fds[2];

	in_dir(fifo, sizeof fifo, "keep.fifo");
	in_dir(file, sizeof file, "keep.txt");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(atomic_write_file(file, "1\n", 2, err, sizeof err), 0);
	assert_int_equal(input_keep_pipe(file, kept, sizeof kept, 1024, err, sizeof err), 0);
	assert_int_equal(input_keep_pipe(fifo, kept, sizeof kept, 1024, err, sizeof err), 0);
	assert_string_equal(kept, "");
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "a\nbb\n", 5), 5);
	close(fds[1]);
	snprintf(anon, sizeof anon, "/proc/self/fd/%d", fds[0]);
	assert_int_equal(input_keep_pipe(anon, kept, sizeof kept, 1024, err, sizeof err), 1);
	close(fds[0]);
	assert_int_equal(strncmp(kept, "/dev/fd/", 8), 0);
	for (int twice = 0; twice < 2; twice++) {
		assert_int_equal(read_whole_file(kept, &data, &len, 1024, err, sizeof err), 0);
		assert_int_equal(len, 5);
		assert_memory_equal(data, "a\nbb\n", 5);
		free(data);
	}
	close(atoi(kept + 8));
	/* more than max: refused, named */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "0123456789", 10), 10);
	close(fds[1]);
	snprintf(anon, sizeof anon, "/proc/self/fd/%d", fds[0]);
	assert_int_equal(input_keep_pipe(anon, kept, sizeof kept, 4, err, sizeof err), -1);
	assert_non_null(strstr(err, "larger than 4 bytes"));
	close(fds[0]);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(unlink(file), 0);
}

/* The old file must survive a failure in the middle of writing: with a 16-byte
 * file-size limit (SIGXFSZ ignored) write() fails with EFBIG after a partial
 * write of the temporary file. */
static void test_failed_write_keeps_old_file(void **state)
{
	(void)state;
	char path[128], err[256] = "";
	in_dir(path, sizeof path, "baseline.json");
	const char *old = "{\"old\": \"baseline, longer than sixteen bytes\"}\n";
	assert_int_equal(atomic_write_file(path, old, strlen(old), err, sizeof err), 0);

	char big[1000];
	memset(big, 'n', sizeof big);
	struct rlimit saved, small;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	small = saved;
	small.rlim_cur = 16;
	void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	errno = 0;
	int rc = atomic_write_file(path, big, sizeof big, err, sizeof err);
	int e = errno;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, prev);

	assert_int_equal(rc, -1);
	assert_int_equal(e, EFBIG);
	assert_one_line_naming(err, path, EFBIG);
	assert_file_is(path, old);
	assert_int_equal(entries(dir), 1); /* the temporary file is gone */
	assert_int_equal(unlink(path), 0);
}

static void test_read_limits(void **state)
{
	(void)state;
	char path[128], err[256] = "";
	in_dir(path, sizeof path, "hundred");
	char hundred[100];
	memset(hundred, 'a', sizeof hundred);
	assert_int_equal(atomic_write_file(path, hundred, sizeof hundred, err, sizeof err), 0);

	char *data = (char *)1;
	size_t len = 7;
	errno = 0;
	assert_int_equal(read_whole_file(path, &data, &len, 99, err, sizeof err), -1);
	assert_int_equal(errno, EFBIG);
	assert_null(data);
	assert_int_equal(len, 0);
	assert_one_line_naming(err, path, EFBIG);
	assert_non_null(strstr(err, "larger than 99 bytes"));

	assert_int_equal(read_whole_file(path, &data, &len, 100, err, sizeof err), 0);
	assert_int_equal(len, 100);
	assert_memory_equal(data, hundred, 100);
	assert_int_equal(data[100], '\0');
	free(data);
	assert_int_equal(unlink(path), 0);

	/* a device is refused at once, not read until the limit */
	assert_int_equal(read_whole_file("/dev/zero", &data, &len, 10000, err, sizeof err), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(data);
	assert_non_null(strstr(err, "not a regular file (a device)"));

	/* a named FIFO nobody writes to is refused without blocking */
	in_dir(path, sizeof path, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(read_whole_file(path, &data, &len, 100, err, sizeof err), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "not a regular file (a named FIFO)"));
	assert_int_equal(unlink(path), 0);

	/* an anonymous pipe (a shell's <(cmd)) is read, the limit enforced
	 * while reading */
	int fds[2];
	char fdpath[64];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "1\n2\n", 4), 4);
	close(fds[1]);
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fds[0]);
	assert_int_equal(read_whole_file(fdpath, &data, &len, 100, err, sizeof err), 0);
	assert_int_equal(len, 4);
	free(data);
	close(fds[0]);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], hundred, sizeof hundred), (ssize_t)sizeof hundred);
	close(fds[1]);
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fds[0]);
	assert_int_equal(read_whole_file(fdpath, &data, &len, 99, err, sizeof err), -1);
	assert_int_equal(errno, EFBIG);
	assert_null(data);
	close(fds[0]);

	in_dir(path, sizeof path, "missing");
	assert_int_equal(read_whole_file(path, &data, &len, 100, err, sizeof err), -1);
	assert_int_equal(errno, ENOENT);
	assert_one_line_naming(err, path, ENOENT);

	assert_int_equal(read_whole_file(dir, &data, &len, 100, err, sizeof err), -1);
	assert_int_equal(errno, EISDIR);
	assert_non_null(strstr(err, dir));
	assert_non_null(strstr(err, "not a regular file (a directory)"));
	assert_null(strchr(err, '\n'));
}

/* A file larger than the first read buffer (4096 bytes) is read whole. */
static void test_read_large(void **state)
{
	(void)state;
	char path[128], err[256] = "";
	in_dir(path, sizeof path, "large");
	size_t n = 100000;
	char *big = malloc(n);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	assert_int_equal(atomic_write_file(path, big, n, err, sizeof err), 0);
	char *data;
	size_t len;
	assert_int_equal(read_whole_file(path, &data, &len, n, err, sizeof err), 0);
	assert_int_equal(len, n);
	assert_memory_equal(data, big, n);
	free(data);
	free(big);
	assert_int_equal(unlink(path), 0);
}

int main(void)
{
	umask(022);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_pipe_is_kept),
		cmocka_unit_test(test_missing_directory),
		cmocka_unit_test(test_path_is_directory),
		cmocka_unit_test(test_failed_write_keeps_old_file),
		cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_read_large),
		cmocka_unit_test(test_special_files_refused),
		cmocka_unit_test(test_input_refusal),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
