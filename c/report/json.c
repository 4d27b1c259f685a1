/* report/json.c — see json.h. */
#include "report/json.h"

#include <stdlib.h>

#include "model/codec.h"

int report_json(FILE *out, const struct doc *d, int compact)
{
	char *s = doc_dumps(d, compact);

	if (s == NULL)
		return -1;
	fputs(s, out);
	free(s);
	return 0;
}
