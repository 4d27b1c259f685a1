/* base/fdio.c — see fdio.h. */
#include "base/fdio.h"

#include <errno.h>
#include <unistd.h>

int fd_write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t n = write(fd, c, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_read_exact(int fd, void *p, size_t len)
{
	char *c = p;

	while (len > 0) {
		ssize_t n = read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}
