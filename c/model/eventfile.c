/* model/eventfile.c — see eventfile.h. */
#include "model/eventfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eventfile_split(const char *text, size_t len, const char *path, struct event_line **lines, size_t *n, char *err,
		    size_t errlen)
{
	size_t at = 0, cap = 0;

	*lines = NULL;
	*n = 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		if (end - at > EVENT_PAYLOAD_MAX) {
			snprintf(err, errlen, "--events %s: line %zu is longer than %u bytes", path, *n + 1,
				 EVENT_PAYLOAD_MAX);
			break;
		}
		if (*n == cap) {
			struct event_line *grown = realloc(*lines, (cap = cap ? cap * 2 : 64) * sizeof(**lines));
			if (grown == NULL) {
				snprintf(err, errlen, "out of memory for %zu events", *n + 1);
				break;
			}
			*lines = grown;
		}
		(*lines)[(*n)++] = (struct event_line){ .offset = at, .len = (uint32_t)(end - at) };
		at = end + 1;
	}
	if (at < len || *n == 0) {
		if (at >= len) /* nothing was wrong but the emptiness */
			snprintf(err, errlen, "--events %s: the file is empty (one payload a line)", path);
		free(*lines);
		*lines = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
