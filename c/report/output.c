/* report/output.c — see output.h. */
#include "report/output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

int output_open(int fd)
{
	return fcntl(fd, F_GETFD) < 0 ? -1 : 0;
}

/* The reason of the first failed flush: later ones only see EIO. */
static int first_errno;

int output_flush(FILE *out)
{
	errno = 0;
	if (fflush(out) == 0)
		return 0;
	if (first_errno == 0)
		first_errno = errno;
	return -1;
}

int output_write(FILE *out, const char *text, size_t len)
{
	errno = 0;
	if (fwrite(text, 1, len, out) == len)
		return output_flush(out);
	if (first_errno == 0)
		first_errno = errno;
	return -1;
}

int output_close(FILE *out, char *err, size_t errlen)
{
	int failed, e;

	failed = output_flush(out) != 0;
	e = first_errno;
	failed |= ferror(out) != 0;
	if (fclose(out) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed)
		snprintf(err, errlen, "%s", strerror(e ? e : EIO));
	return failed ? -1 : 0;
}
