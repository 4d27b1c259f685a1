/* report/output.h — whether what was written to stdout arrived. A report
 * that could not be written (a full disk, a closed stdout) is lost data: it
 * is a failed run (exit 3), never a success. */
#ifndef CGOCOST_REPORT_OUTPUT_H
#define CGOCOST_REPORT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* 0 if file descriptor fd is open; -1 otherwise (nothing written to it
 * could arrive, and the next file opened would take its number). */
int output_open(int fd);

/* Flushes out; 0, or -1 (the reason kept for output_close). */
int output_flush(FILE *out);

/* Writes text[0..len) to out and flushes; 0, or -1 (the reason kept). */
int output_write(FILE *out, const char *text, size_t len);

/* Flushes and closes out: 0 if everything written to it arrived, else -1
 * with the reason (strerror) in err. */
int output_close(FILE *out, char *err, size_t errlen);

#endif
