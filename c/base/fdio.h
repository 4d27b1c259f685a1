/* base/fdio.h — whole reads and writes on a file descriptor, retried on
 * EINTR and short counts. */
#ifndef CGOCOST_BASE_FDIO_H
#define CGOCOST_BASE_FDIO_H

#include <stddef.h>

/* Writes p[0..len): 0, or -1 (errno) on an error. */
int fd_write_all(int fd, const void *p, size_t len);

/* Reads exactly len bytes into p: 0, or -1 on an error or the end of the
 * input before len bytes (errno 0 then). */
int fd_read_exact(int fd, void *p, size_t len);

#endif
