/* atomicfile.c - temporary file, fsync, rename, directory fsync. */
#include "base/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
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
	size_t tlen = strlen(dir) + strlen(base) + 10; /* "/." + ".XXXXXX" + NUL */
	char *tmp = malloc(tlen);
	if (!tmp) {
		free(dir);
		return fail(err, errlen, path, "cannot write", ENOMEM);
	}
	snprintf(tmp, tlen, "%s/.%s.XXXXXX", dir, base);

	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		free(dir);
		return fail(err, errlen, path, "cannot create temporary file", e);
	}
	const char *what = NULL;
	if (fchmod(fd, new_file_mode(path)) != 0)
		what = "cannot set mode of temporary file";
	else if (write_all(fd, data, len) != 0)
		what = "cannot write temporary file";
	else if (fsync(fd) != 0)
		what = "cannot sync temporary file";
	int e = errno;
	if (close(fd) != 0 && !what) {
		what = "cannot close temporary file";
		e = errno;
	}
	if (!what && rename(tmp, path) != 0) {
		what = "cannot rename temporary file over it";
		e = errno;
	}
	if (what) {
		unlink(tmp);
		free(tmp);
		free(dir);
		return fail(err, errlen, path, what, e);
	}
	free(tmp);
	int rc = sync_dir(dir);
	e = errno;
	free(dir);
	if (rc != 0)
		return fail(err, errlen, path, "written, but cannot sync its directory", e);
	return 0;
}

int read_whole_file(const char *path, char **data, size_t *len, size_t max, char *err, size_t errlen)
{
	*data = NULL;
	*len = 0;
	if (!path)
		return fail(err, errlen, "(null)", "cannot open", EINVAL);
	char too_large[64];
	snprintf(too_large, sizeof too_large, "larger than %zu bytes", max);

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, path, "cannot open", errno);
	struct stat st;
	size_t cap = 4096;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((unsigned long long)st.st_size > max) {
			close(fd);
			return fail(err, errlen, path, too_large, EFBIG);
		}
		if ((size_t)st.st_size >= cap)
			cap = (size_t)st.st_size + 1; /* one read, room for the NUL */
	}

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
