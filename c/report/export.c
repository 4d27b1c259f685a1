/* report/export.c — see export.h. */
#include "report/export.h"

#include <string.h>

#include "report/gobench.h"
#include "report/json.h"
#include "report/markdown.h"

static const char *const names[] = { "json", "gobench", "markdown", "html" };

const char *export_format_name(enum export_format f)
{
	return names[f];
}

int export_parse(const char *word, struct export_spec *e, char *err, size_t errlen)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : 0;

	if (eq == word) {
		snprintf(err, errlen, "--export: '%.200s' names no FORMAT (json, gobench, markdown or html)", word);
		return -1;
	}
	if (eq == NULL) {
		snprintf(err, errlen, "--export: '%.200s' is not FORMAT=FILE (json, gobench, markdown or html)", word);
		return -1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && strncmp(word, names[i], len) == 0) {
			if (eq[1] == '\0') {
				snprintf(err, errlen, "--export: '%.200s' names no FILE (a path, or - for stdout)",
					 word);
				return -1;
			}
			e->format = (enum export_format)i;
			e->file = eq + 1;
			return 0;
		}
	snprintf(err, errlen, "--export: '%.*s' in '%.200s' is not one of json, gobench, markdown, html",
		 (int)(len > 60 ? 60 : len), word, word);
	return -1;
}

int export_to_stdout(const struct export_spec *e)
{
	return strcmp(e->file, "-") == 0;
}

int export_render(FILE *out, enum export_format f, const struct doc *d)
{
	switch (f) {
	case EXPORT_JSON:
		return report_json(out, d, 0);
	case EXPORT_GOBENCH:
		report_gobench(out, d);
		return 0;
	case EXPORT_MARKDOWN:
		return report_markdown(out, d);
	case EXPORT_HTML:
		break;
	}
	return -1;
}
