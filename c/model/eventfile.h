/* model/eventfile.h — the format of an --events file: one payload a line,
 * the newline not part of it (a NUL byte is), a last line without a newline
 * a payload too. Pure text, no plugin: plugin/event.c makes the events. */
#ifndef CGOCOST_MODEL_EVENTFILE_H
#define CGOCOST_MODEL_EVENTFILE_H

#include <stddef.h>
#include <stdint.h>

/* The longest payload a line may hold, in bytes. */
#define EVENT_PAYLOAD_MAX (1u << 20)

/* One payload: text[offset .. offset + len). */
struct event_line {
	size_t offset;
	uint32_t len;
};

/* Splits text[0..len) into its payloads. 0 with *lines malloc'd and *n at
 * least 1, or -1 with a message naming path: a line longer than
 * EVENT_PAYLOAD_MAX (numbered from 1), an empty file, no memory. */
int eventfile_split(const char *text, size_t len, const char *path, struct event_line **lines, size_t *n, char *err,
		    size_t errlen);

#endif
