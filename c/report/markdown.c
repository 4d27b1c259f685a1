/* report/markdown.c — see markdown.h: the placeholder. */
#include "report/markdown.h"

int report_markdown(FILE *out, const struct doc *d)
{
	fprintf(out, "# cgocost\n\n| cell |\n|---|\n");
	for (size_t i = 0; i < d->ncells; i++)
		fprintf(out, "| %s |\n", d->cells[i].name);
	return ferror(out) ? -1 : 0;
}
