/* selfpath.c — see selfpath.h. */
#include "base/selfpath.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int self_path(char *buf, size_t len)
{
	char tmp[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", tmp, sizeof(tmp) - 1);
	if (n <= 0)
		return -1;
	tmp[n] = '\0';
	return snprintf(buf, len, "%s", tmp) >= (int)len ? -1 : 0;
}

int sibling_path(const char *exe, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(exe, '/');
	int dir = slash ? (int)(slash - exe) : 0;
	int n = slash ? snprintf(buf, len, "%.*s/%s", dir, exe, name) : snprintf(buf, len, "%s", name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
