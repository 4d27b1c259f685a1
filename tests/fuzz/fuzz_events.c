/* fuzz_events.c — libFuzzer target for the --events file's format
 * (model/eventfile.c, what plugin/event.c loads): the input is the file.
 * What it accepts must be the file's lines: in order, inside the text, no
 * newline in a payload, none longer than EVENT_PAYLOAD_MAX, and between two
 * payloads exactly one newline. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/eventfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct event_line *lines;
	size_t n, at = 0;
	char err[512];

	if (eventfile_split(text, size, "fuzz.txt", &lines, &n, err, sizeof(err)) != 0) {
		if (err[0] == '\0')
			abort(); /* a refusal always says why */
		return 0;
	}
	if (n == 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (lines[i].offset != at || lines[i].len > EVENT_PAYLOAD_MAX ||
		    lines[i].offset + lines[i].len > size || memchr(text + lines[i].offset, '\n', lines[i].len) != NULL)
			abort();
		at = lines[i].offset + lines[i].len;
		if (i + 1 < n && text[at] != '\n')
			abort();
		at++;
	}
	/* the last payload ends the text, or one newline does */
	if (at != size && at != size + 1)
		abort();
	free(lines);
	return 0;
}
