/* fuzz_childerr.c — libFuzzer target for the reading of how a child ended
 * (orchestrate/child.c's child_classify: its exit status and its stderr,
 * which an --against executable writes as it likes). The input: byte 0 the
 * exit status (255: killed, by the signal in byte 1), the rest its stderr
 * up to a NUL. The reason is one line, never empty for a failure, within
 * its buffer; the kind follows from the status alone, but for a bad input
 * without a word, which is a failure. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "orchestrate/child.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *errout, why[600];
	int rc, signo = 0;
	enum child_kind k;

	if (size < 2)
		return 0;
	rc = data[0] == 255 ? -1 : data[0];
	if (rc < 0)
		signo = data[1] % 65;
	if ((errout = malloc(size - 1)) == NULL)
		return 0;
	memcpy(errout, data + 2, size - 2);
	errout[size - 2] = '\0';
	memset(why, 'x', sizeof(why));
	k = child_classify(rc, signo, errout, why, sizeof(why));
	if (memchr(why, '\0', sizeof(why)) == NULL || strchr(why, '\n') != NULL)
		abort();
	if ((k == CHILD_OK) != (rc == EXIT_OK) || (k != CHILD_OK && why[0] == '\0'))
		abort();
	if ((rc < 0 && signo == SIGALRM) != (k == CHILD_HUNG) ||
	    (rc < 0 && signo && signo != SIGALRM) != (k == CHILD_CRASHED))
		abort();
	if (k == CHILD_STALLED && rc != EXIT_CHILD_STALLED)
		abort();
	if (k == CHILD_BAD_INPUT && rc != EXIT_CHILD_BAD_INPUT)
		abort();
	if (k == CHILD_PANICKED && rc != EXIT_BAD_INPUT)
		abort();
	free(errout);
	return 0;
}
