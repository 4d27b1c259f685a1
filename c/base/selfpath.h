/* base/selfpath.h — where this executable is, and the files beside it (the
 * other builds, bench-minimal, the preloads): read from /proc/self/exe. */
#ifndef CGOCOST_BASE_SELFPATH_H
#define CGOCOST_BASE_SELFPATH_H

#include <stddef.h>

/* The absolute path of this executable; 0, or -1 if it cannot be read or
 * does not fit. */
int self_path(char *buf, size_t len);
/* The path of name in exe's folder; 0, or -1 if it does not fit. */
int sibling_path(const char *exe, const char *name, char *buf, size_t len);

#endif
