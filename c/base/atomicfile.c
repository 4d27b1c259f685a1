/* atomicfile.c - temporary file, fsync, rename, directory fsync. */
#include "base/atomicfile.h"

#include "base/fdio.h"
#include "base/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Formats "<path>: <what>: <strerror(e)>" into err; leaves errno = e. */
static int fail(char *err, size_t errlen, const char *path, const char *what, int e)
{
	if (err && errlen > 0)
		snprintf(err, errlen, "%s: %s: %s", path, what, strerror(e));
	errno = e;
	return -1;
}

/* Splits path into its directory ("." if none) and its last component. */
static int split_path(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*dir = strdup(".");
		*base = path;
	} else if (slash == path) {
		*dir = strdup("/");
		*base = slash + 1;
	} else {
		*dir = strndup(path, (size_t)(slash - path));
		*base = slash + 1;
	}
	return *dir ? 0 : -1;
}

/* What a file of this mode is, in the words of the refusals: NULL for a
 * regular file, else "not a regular file (a device)" and its kin. */
static const char *not_regular(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISFIFO(mode))
		return "not a regular file (a named FIFO)";
	if (S_ISDIR(mode))
		return "not a regular file (a directory)";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "not a regular file (a device)";
	if (S_ISSOCK(mode))
		return "not a regular file (a socket)";
	return "not a regular file";
}

/* NULL when a save may replace what is at path: nothing, a regular file or a
 * directory (rename refuses it and says why). A device node, a FIFO or a
 * socket is never replaced by a file: saving to /dev/null as root would
 * otherwise delete the device. A symbolic link is refused, not followed nor
 * replaced: a save replaces the file at a name, so the link would become a
 * file and its target stay as it was (and two names, one a link to the
 * other, would be two saves of one file); a dangling or looping link the
 * same. */
static const char *unreplaceable(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return NULL;
	if (S_ISLNK(st.st_mode))
		return "a symbolic link (name the file it points to)";
	return not_regular(st.st_mode);
}

static mode_t new_file_mode(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	mode_t mask = umask(022);
	umask(mask);
	return 0666 & ~mask;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int e = errno;
	close(fd);
	if (rc != 0 && e == EINVAL)
		return 0; /* the filesystem cannot sync directories */
	errno = e;
	return rc;
}

/* The mkostemp template of a temporary file beside dir/base:
 * "dir/.base.XXXXXX", malloc'd; NULL when out of memory. */
static char *temp_template(const char *dir, const char *base)
{
	size_t len = strlen(dir) + strlen(base) + 10; /* "/." + ".XXXXXX" + NUL */
	char *tmp = malloc(len);
	if (tmp)
		snprintf(tmp, len, "%s/.%s.XXXXXX", dir, base);
	return tmp;
}

int atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	if (!path || !*path || (!data && len > 0))
		return fail(err, errlen, path ? path : "(null)", "cannot write", EINVAL);

	char *dir;
	const char *base;
	if (split_path(path, &dir, &base) != 0)
		return fail(err, errlen, path, "cannot write", ENOMEM);
	if (!*base) {
		free(dir);
		return fail(err, errlen, path, "cannot write", EISDIR);
	}
	const char *kind = unreplaceable(path);
	if (kind) {
		free(dir);
		return fail(err, errlen, path, kind, EINVAL);
	}
	char *tmp = temp_template(dir, base);
	if (!tmp) {
		free(dir);
		return fail(err, errlen, path, "cannot write", ENOMEM);
	}

	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		free(dir);
		return fail(err, errlen, path, "cannot create temporary file", e);
	}
	interrupt_tempfile(tmp); /* removed if a signal ends the process now */
	const char *what = NULL;
	if (fchmod(fd, new_file_mode(path)) != 0)
		what = "cannot set mode of temporary file";
	else if (fd_write_all(fd, data, len) != 0)
		what = "cannot write temporary file";
	else if (fsync(fd) != 0)
		what = "cannot sync temporary file";
	int e = errno;
	if (close(fd) != 0 && !what) {
		what = "cannot close temporary file";
		e = errno;
	}
	if (!what && (kind = unreplaceable(path)) != NULL) {
		what = kind; /* appeared while the file was written */
		e = EINVAL;
	}
	if (!what && rename(tmp, path) != 0) {
		what = "cannot rename temporary file over it";
		e = errno;
	}
	if (what) {
		unlink(tmp);
		interrupt_tempfile(NULL);
		free(tmp);
		free(dir);
		return fail(err, errlen, path, what, e);
	}
	interrupt_tempfile(NULL);
	free(tmp);
	int rc = sync_dir(dir);
	e = errno;
	free(dir);
	if (rc != 0)
		return fail(err, errlen, path, "written, but cannot sync its directory", e);
	return 0;
}

int atomic_write_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *dir;
	const char *base;

	if (!path || !*path) {
		snprintf(err, errlen, "an empty file name");
		errno = EINVAL;
		return -1;
	}
	if (split_path(path, &dir, &base) != 0)
		return fail(err, errlen, path, "cannot write", ENOMEM);
	const char *kind = unreplaceable(path); /* a link first: not followed */
	if (kind) {
		free(dir);
		snprintf(err, errlen, "%s: %s; a save would replace it with a file", path, kind);
		errno = EINVAL;
		return -1;
	}
	if (!*base || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		free(dir);
		snprintf(err, errlen, "%s: is a directory, not a file", path);
		errno = EISDIR;
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		int e = stat(dir, &st) != 0 ? errno : ENOTDIR;
		snprintf(err, errlen, "%s: its directory %s: %s", path, dir, strerror(e));
		free(dir);
		errno = e;
		return -1;
	}
	/* what the save will do first: a temporary file beside the target
	 * (permissions, a read-only filesystem, root or not) */
	char *tmp = temp_template(dir, base);
	if (!tmp) {
		free(dir);
		return fail(err, errlen, path, "cannot write", ENOMEM);
	}
	int fd = mkostemp(tmp, O_CLOEXEC);
	int e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	} else {
		snprintf(err, errlen, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
	}
	free(tmp);
	free(dir);
	errno = e;
	return fd >= 0 ? 0 : -1;
}

/* NULL for what read_whole_file reads: a regular file, or an anonymous pipe
 * someone already writes to (a shell's <(cmd) or a pipe on stdin, seen as
 * "pipe:[N]" in /proc/self/fd). Anything else is refused, said how: a named
 * FIFO would block until a writer comes, a device may never end. */
static const char *input_kind(int fd, const struct stat *st)
{
	char link[64], target[64];
	ssize_t n;

	if (S_ISFIFO(st->st_mode)) {
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof target - 1);
		if (n > 0 && strncmp(target, "pipe:", 5) == 0)
			return NULL;
	}
	return not_regular(st->st_mode);
}

const char *input_refusal(const char *path)
{
	struct stat st;
	const char *kind = NULL;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0)
		kind = input_kind(fd, &st);
	close(fd);
	return kind;
}

int read_whole_file(const char *path, char **data, size_t *len, size_t max, char *err, size_t errlen)
{
	*data = NULL;
	*len = 0;
	if (!path)
		return fail(err, errlen, "(null)", "cannot open", EINVAL);
	char too_large[64];
	snprintf(too_large, sizeof too_large, "larger than %zu bytes", max);

	/* O_NONBLOCK: opening a FIFO nobody writes to must not hang */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fail(err, errlen, path, "cannot open", errno);
	struct stat st;
	size_t cap = 4096;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return fail(err, errlen, path, "cannot open", e);
	}
	const char *kind = input_kind(fd, &st);
	if (kind) {
		close(fd);
		if (err && errlen > 0)
			snprintf(err, errlen, "%s: %s", path, kind);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		if ((unsigned long long)st.st_size > max) {
			close(fd);
			return fail(err, errlen, path, too_large, EFBIG);
		}
		if ((size_t)st.st_size >= cap)
			cap = (size_t)st.st_size + 1; /* one read, room for the NUL */
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);

	char *buf = NULL;
	size_t n = 0;
	const char *what = NULL;
	int e = 0;
	for (;;) {
		if (!buf || n == cap - 1) { /* grow, keeping room for the NUL */
			size_t ncap = buf ? cap * 2 : cap;
			char *nb = ncap < cap ? NULL : realloc(buf, ncap);
			if (!nb) {
				what = "cannot read";
				e = ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + n, cap - 1 - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			what = "cannot read";
			e = errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) { /* a pipe, or a file that grew while read */
			what = too_large;
			e = EFBIG;
			break;
		}
	}
	close(fd);
	if (what) {
		free(buf);
		return fail(err, errlen, path, what, e);
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int input_keep_pipe(const char *path, char *kept, size_t keptlen, size_t max, char *err, size_t errlen)
{
	struct stat st;
	char *data;
	size_t len;
	int fd;

	if (path == NULL || stat(path, &st) != 0 || !S_ISFIFO(st.st_mode) || input_refusal(path) != NULL)
		return 0; /* not a pipe: the reader reads it, or says why it cannot */
	if (read_whole_file(path, &data, &len, max, err, errlen) != 0)
		return -1;
	/* no MFD_CLOEXEC: the child launches read it as /dev/fd/N */
	fd = memfd_create("cgocost-input", 0);
	if (fd < 0 || fd_write_all(fd, data, len) != 0) {
		snprintf(err, errlen, "%s: cannot keep what the pipe held: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(data);
		return -1;
	}
	free(data);
	snprintf(kept, keptlen, "/dev/fd/%d", fd);
	return 1;
}
