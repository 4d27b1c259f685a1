/* plugin/fieldlist.c — see fieldlist.h. */
#include "plugin/fieldlist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fieldlist_find(const struct field_list *l, const char *name)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (strcmp(l->fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Levenshtein distance, capped rows of 128. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[FIELD_DECL_NAME_MAX + 1];

	if (la > FIELD_DECL_NAME_MAX || lb > FIELD_DECL_NAME_MAX)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

void fieldlist_closest(const struct field_list *l, const char *name, int max, char *buf, size_t len)
{
	int taken[16];
	int ntaken = 0;
	size_t used = 0;

	buf[0] = '\0';
	if (max > 16)
		max = 16;
	while (ntaken < max && ntaken < (int)l->n) {
		size_t best = (size_t)-1;
		int at = -1;
		for (uint32_t i = 0; i < l->n; i++) {
			size_t d;
			int seen = 0;
			for (int k = 0; k < ntaken; k++)
				seen |= taken[k] == (int)i;
			if (seen)
				continue;
			d = distance(name, l->fields[i].name);
			if (d < best) {
				best = d;
				at = (int)i;
			}
		}
		if (at < 0)
			break;
		taken[ntaken++] = at;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", ntaken > 1 ? ", " : "",
					 l->fields[at].name);
	}
}

/* Splits "name[arg]" into its parts; 0, or -1 when malformed (an empty
 * name or argument, a bracket inside the argument). */
static int spec_split(const char *spec, char *name, char *arg, int *has_arg)
{
	const char *open = strchr(spec, '[');
	size_t nlen = open ? (size_t)(open - spec) : strlen(spec);

	*has_arg = 0;
	if (nlen == 0 || nlen >= FIELD_DECL_NAME_MAX)
		return -1;
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	if (open == NULL)
		return 0;
	size_t alen = strlen(open + 1); /* the argument and its ']' */
	if (alen < 2 || open[alen] != ']' || alen - 1 >= FIELD_ARG_MAX || memchr(open + 1, '[', alen - 1) ||
	    memchr(open + 1, ']', alen - 1))
		return -1;
	memcpy(arg, open + 1, alen - 1);
	arg[alen - 1] = '\0';
	*has_arg = 1;
	return 0;
}

int fieldlist_resolve(const struct field_list *l, const char *spec, struct field_sel *sel, char *err, size_t errlen)
{
	char name[FIELD_DECL_NAME_MAX], arg[FIELD_ARG_MAX] = "", near[512];
	int has_arg, id;
	const struct field_decl *f;

	memset(sel, 0, sizeof(*sel));
	if (spec_split(spec, name, arg, &has_arg) != 0) {
		snprintf(err, errlen, "--field '%s': not NAME or NAME[arg]", spec);
		return -1;
	}
	if ((id = fieldlist_find(l, name)) < 0) {
		fieldlist_closest(l, name, 3, near, sizeof(near));
		snprintf(err, errlen, "--field '%s': the plugin declares no such field (closest: %s)", name, near);
		return -1;
	}
	f = &l->fields[id];
	if (has_arg && !f->arg_index && !f->arg_key && !f->arg_required) {
		snprintf(err, errlen, "--field '%s': field %s takes no argument", spec, name);
		return -1;
	}
	if (!has_arg && f->arg_required) {
		snprintf(err, errlen, "--field '%s': field %s requires an argument: %s[%s]", spec, name, name,
			 f->arg_index ? "index" : "key");
		return -1;
	}
	if (has_arg && f->arg_index && !f->arg_key) {
		char *end;
		errno = 0;
		sel->arg_index = strtoull(arg, &end, 10);
		/* digits only: strtoull also takes spaces and a sign ("[ -1]" was 2^64 - 1) */
		if (*end != '\0' || strspn(arg, "0123456789") != strlen(arg) || errno == ERANGE) {
			snprintf(err, errlen, "--field '%s': field %s takes a numeric index", spec, name);
			return -1;
		}
	}
	sel->id = (uint32_t)id;
	sel->ftype = f->ftype;
	sel->is_list = f->is_list;
	snprintf(sel->name, sizeof(sel->name), "%s", name);
	sel->arg_present = has_arg;
	snprintf(sel->arg_key, sizeof(sel->arg_key), "%s", arg);
	return 0;
}
