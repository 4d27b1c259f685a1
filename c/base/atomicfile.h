/* atomicfile.h - replace a file atomically; read a whole file with a limit. */
#ifndef CGOCOST_BASE_ATOMICFILE_H
#define CGOCOST_BASE_ATOMICFILE_H

#include <stddef.h>

/* Writes data[0..len) to path so that readers see either the old file or the
 * complete new one: a temporary file ".<name>.XXXXXX" in the same directory
 * (mkstemp), all bytes written, fsync, close, rename over path, fsync of the
 * directory. The new file gets the old file's permission bits, or 0666 minus
 * the umask if path did not exist. A symbolic link at path (dangling or
 * looping too) is refused, neither followed nor replaced (errno EINVAL, "a
 * symbolic link (name the file it points to)"), and so is a device node, a
 * FIFO or a socket ("not a regular file (a device)"): the one rule of every
 * file cgocost writes, kept by the Go tools too (go/internal/atomicfile).
 * Returns 0, or -1 with errno set and a one-line message naming path
 * and strerror in err (if err is not NULL); on failure before the rename the
 * temporary file is removed and the old file is untouched. If only the final
 * directory fsync fails, the new file is already in place (the message says
 * so). Not thread-safe when path did not exist (it reads the umask). */
int atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Whether atomic_write_file(path) can work, checked before there is
 * anything to write: a non-empty name, not a directory, not a symbolic
 * link, a device node, a FIFO or a socket (which a save would replace), in an existing
 * directory where a file can be created (a temporary one is made and
 * removed). 0, or -1 with errno and a one-line message naming path. */
int atomic_write_check(const char *path, char *err, size_t errlen);

/* Reads the whole file at path into a malloc'd buffer with a NUL appended
 * (not counted in *len); the caller frees *data. Refuses a file larger than
 * max bytes (errno EFBIG), and anything that is neither a regular file nor an
 * anonymous pipe already open for writing (a shell's <(cmd)): a named FIFO,
 * a device, a socket (errno EINVAL) or a directory (EISDIR), without
 * blocking. Returns 0, or -1 with errno set, *data NULL and a
 * one-line message naming path in err. */
int read_whole_file(const char *path, char **data, size_t *len, size_t max, char *err, size_t errlen);

/* What read_whole_file would refuse at path, said as it says it ("not a
 * regular file (a device)"), found without reading or blocking; NULL when
 * it is a regular file or a pipe someone writes to, or cannot be opened
 * (the reader then says why). */
const char *input_refusal(const char *path);

/* A pipe can be read only once, and a run may read its input several times
 * (a child launch each, a library each). When path is a pipe read_whole_file
 * accepts, reads it whole (at most max bytes) into an anonymous in-memory
 * file that child processes inherit, and writes that file's /dev/fd path to
 * kept: 1. 0 when path is no pipe (kept untouched), -1 with a one-line
 * message naming path in err. */
int input_keep_pipe(const char *path, char *kept, size_t keptlen, size_t max, char *err, size_t errlen);

#endif
