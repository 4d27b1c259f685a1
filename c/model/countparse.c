/* model/countparse.c — see countparse.h. */
#include "model/countparse.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A number with thousands separators ("110,797,910"): 0 with *v, or -1
 * when p holds no digit. */
static int grouped_number(const char *p, uint64_t *v)
{
	int digits = 0;

	*v = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	for (; isdigit((unsigned char)*p) || (*p == ',' && digits > 0 && isdigit((unsigned char)p[1])); p++) {
		if (*p == ',')
			continue;
		if (*v > (UINT64_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(*p - '0');
		digits++;
	}
	return digits > 0 ? 0 : -1;
}

int countparse_cachegrind(const char *text, uint64_t *irefs, char *version, size_t vlen, char *why, size_t whylen)
{
	const char *line, *v;

	if (vlen)
		version[0] = '\0';
	if (text == NULL) {
		snprintf(why, whylen, "no output");
		return -1;
	}
	if (vlen && (v = strstr(text, "Using Valgrind-")) != NULL) {
		v += strlen("Using ");
		snprintf(version, vlen, "%.*s", (int)strcspn(v, " \n"), v);
	}
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *p = line, *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		/* "==25620== " before the summary: valgrind's prefix */
		if (len > 2 && p[0] == '=' && p[1] == '=') {
			const char *q = memchr(p + 2, '=', len - 2);
			if (q == NULL || q[1] != '=')
				continue;
			p = q + 2;
		} else {
			continue;
		}
		while (*p == ' ')
			p++;
		if (*p != 'I' || p[1] != ' ')
			continue;
		for (p++; *p == ' '; p++)
			;
		if (strncmp(p, "refs:", 5) != 0)
			continue;
		if (grouped_number(p + 5, irefs) == 0)
			return 0;
	}
	snprintf(why, whylen, "no \"I refs\" summary line in cachegrind's output");
	return -1;
}

/* The three first fields of a CSV line at line (len bytes). 0, or -1 when
 * it has fewer. */
static int csv_fields(const char *line, size_t len, const char **f, size_t *flen)
{
	const char *p = line, *end = line + len;

	for (int i = 0; i < 3; i++) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		if (c == NULL && i < 2)
			return -1;
		f[i] = p;
		flen[i] = c ? (size_t)(c - p) : (size_t)(end - p);
		p = c ? c + 1 : end;
	}
	return 0;
}

int countparse_perf_stat(const char *text, const char *event, uint64_t *value, char *why, size_t whylen)
{
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *end = strchr(line, '\n'), *f[3];
		size_t len = end ? (size_t)(end - line) : strlen(line), flen[3];

		if (csv_fields(line, len, f, flen) != 0 || flen[2] != strlen(event) ||
		    strncmp(f[2], event, flen[2]) != 0)
			continue;
		for (size_t i = 0; i < flen[0]; i++)
			if (!isdigit((unsigned char)f[0][i])) {
				snprintf(why, whylen, "perf stat could not count %s: %.*s", event, (int)flen[0], f[0]);
				return -1;
			}
		if (flen[0] == 0 || grouped_number(f[0], value) != 0) {
			snprintf(why, whylen, "perf stat gave no count of %s", event);
			return -1;
		}
		return 0;
	}
	snprintf(why, whylen, "perf stat printed no count of %s", event);
	return -1;
}
