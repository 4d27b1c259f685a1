/* model/codec_fields.c — see codec_fields.h: the field functions every
 * record's field list is made of, each writing, reading or freeing by the
 * codec's direction. */
#include "model/codec_fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void codec_failf(struct codec *c, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	if (c->bad)
		return;
	c->bad = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s%s%s", c->path, c->path[0] ? ": " : "", msg);
}

/* path += ".key" or "[i]" for the duration of a nested visit. */
size_t codec_path_push(struct codec *c, const char *key, long index)
{
	size_t len = strlen(c->path);
	if (c->dir != READ)
		return len;
	if (index >= 0)
		snprintf(c->path + len, sizeof(c->path) - len, "[%ld]", index);
	else
		snprintf(c->path + len, sizeof(c->path) - len, "%s%s", len ? "." : "", key);
	return len;
}

void codec_path_pop(struct codec *c, size_t len)
{
	if (c->dir == READ && !c->bad)
		c->path[len] = '\0';
}

/* READ: the value at key (NULL and an error when absent and required). */
json_t *codec_get(struct obj *o, const char *key, int required)
{
	json_t *v = json_object_get(o->j, key);
	if (v == NULL) {
		if (required) {
			size_t at = codec_path_push(o->c, key, -1);
			codec_failf(o->c, "missing");
			codec_path_pop(o->c, at);
		}
		return NULL;
	}
	for (int i = 0; i < o->nseen; i++)
		if (o->seen[i] == key || strcmp(o->seen[i], key) == 0)
			return v; /* an optional key, asked for twice */
	if (o->nseen < (int)(sizeof(o->seen) / sizeof(o->seen[0])))
		o->seen[o->nseen++] = key;
	return v;
}

void codec_put(struct obj *o, const char *key, json_t *v)
{
	json_object_set_new(o->j, key, v ? v : json_null());
}

void codec_wrong(struct obj *o, const char *key, const char *want)
{
	size_t at = codec_path_push(o->c, key, -1);
	codec_failf(o->c, "not %s", want);
	codec_path_pop(o->c, at);
}

/* READ: every key of the object was visited. */
static void close_obj(struct obj *o)
{
	const char *key;
	json_t *v;

	if (o->c->dir != READ || o->c->bad || (int)json_object_size(o->j) == o->nseen)
		return;
	json_object_foreach (o->j, key, v) {
		int known = 0;
		for (int i = 0; i < o->nseen && !known; i++)
			known = strcmp(o->seen[i], key) == 0;
		if (!known) {
			size_t at = codec_path_push(o->c, key, -1);
			codec_failf(o->c, "unknown key");
			codec_path_pop(o->c, at);
			return;
		}
	}
}

void f_u64(struct obj *o, const char *key, uint64_t *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, json_integer((json_int_t)*v));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (!json_is_integer(j) || json_integer_value(j) < 0)
			codec_wrong(o, key, "a whole number >= 0");
		else
			*v = (uint64_t)json_integer_value(j);
	}
}

void f_u32(struct obj *o, const char *key, uint32_t *v)
{
	uint64_t x = *v;
	f_u64(o, key, &x);
	*v = (uint32_t)x;
}

void f_int(struct obj *o, const char *key, int *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, json_integer(*v));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (!json_is_integer(j))
			codec_wrong(o, key, "a whole number");
		else
			*v = (int)json_integer_value(j);
	}
}

/* An integer that may be unknown: -1 <-> null. */
void f_i64n(struct obj *o, const char *key, int64_t *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, *v < 0 ? json_null() : json_integer((json_int_t)*v));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (json_is_null(j))
			*v = -1;
		else if (!json_is_integer(j) || json_integer_value(j) < 0)
			codec_wrong(o, key, "a whole number >= 0 or null");
		else
			*v = (int64_t)json_integer_value(j);
	}
}

/* A real; undefined (NAN) <-> null. as_int writes a whole number. */
void f_real(struct obj *o, const char *key, double *v, int as_int)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, !isfinite(*v) ? json_null() : as_int ? json_integer((json_int_t)*v) : json_real(*v));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (json_is_null(j))
			*v = NAN;
		else if (!json_is_number(j))
			codec_wrong(o, key, "a number or null");
		else
			*v = json_number_value(j);
	}
}

void f_num(struct obj *o, const char *key, double *v)
{
	f_real(o, key, v, 0);
}

void f_bool(struct obj *o, const char *key, int *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, json_boolean(*v));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (!json_is_boolean(j))
			codec_wrong(o, key, "true or false");
		else
			*v = json_is_true(j);
	}
}

/* A string into a buffer; nullable: "" <-> null. */
void f_text(struct obj *o, const char *key, char *buf, size_t len, int nullable)
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, key, nullable && buf[0] == '\0' ? json_null() : json_string(buf));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		if (nullable && json_is_null(j))
			buf[0] = '\0';
		else if (!json_is_string(j))
			codec_wrong(o, key, nullable ? "a string or null" : "a string");
		else if (json_string_length(j) >= len)
			codec_wrong(o, key, "a string of a sensible length");
		else
			snprintf(buf, len, "%s", json_string_value(j));
	}
}

/* A key that only some records have. WRITE: whether to write it (*present);
 * READ: whether it is there (sets *present). FREE: *present. */
int f_opt(struct obj *o, const char *key, int *present)
{
	if (o->c->dir == READ)
		*present = codec_get(o, key, 0) != NULL;
	return *present;
}

void codec_visit(struct codec *c, json_t *j, visit_fn fn, void *rec)
{
	struct obj o = { .c = c, .j = j };
	fn(&o, rec);
	close_obj(&o);
}

/* A nested object; nullable: *present 0 <-> null. */
void f_sub(struct obj *o, const char *key, visit_fn fn, void *rec, int *present)
{
	json_t *j;
	size_t at;

	if (o->c->dir == FREE) {
		if (present == NULL || *present)
			codec_visit(o->c, NULL, fn, rec);
		return;
	}
	if (o->c->dir == WRITE) {
		if (present && !*present) {
			codec_put(o, key, json_null());
			return;
		}
		j = json_object();
		codec_visit(o->c, j, fn, rec);
		codec_put(o, key, j);
		return;
	}
	if ((j = codec_get(o, key, 1)) == NULL)
		return;
	if (present && json_is_null(j)) {
		*present = 0;
		return;
	}
	if (!json_is_object(j)) {
		codec_wrong(o, key, present ? "an object or null" : "an object");
		return;
	}
	if (present)
		*present = 1;
	at = codec_path_push(o->c, key, -1);
	codec_visit(o->c, j, fn, rec);
	codec_path_pop(o->c, at);
}

/* An array of records of size bytes each, malloc'd. */
void f_items(struct obj *o, const char *key, void **items, size_t *n, size_t size, visit_fn fn)
{
	json_t *j, *a;
	size_t i, at;

	if (o->c->dir == FREE) {
		for (i = 0; i < *n; i++)
			codec_visit(o->c, NULL, fn, (char *)*items + i * size);
		free(*items);
		*items = NULL;
		*n = 0;
		return;
	}
	if (o->c->dir == WRITE) {
		a = json_array();
		for (i = 0; i < *n; i++) {
			j = json_object();
			codec_visit(o->c, j, fn, (char *)*items + i * size);
			json_array_append_new(a, j);
		}
		codec_put(o, key, a);
		return;
	}
	if ((a = codec_get(o, key, 1)) == NULL)
		return;
	if (!json_is_array(a)) {
		codec_wrong(o, key, "an array");
		return;
	}
	*items = calloc(json_array_size(a) + 1, size);
	if (*items == NULL) {
		codec_failf(o->c, "out of memory");
		return;
	}
	at = codec_path_push(o->c, key, -1);
	json_array_foreach (a, i, j) {
		size_t at2 = codec_path_push(o->c, "", (long)i);
		*n = i + 1;
		if (!json_is_object(j))
			codec_failf(o->c, "not an object");
		else
			codec_visit(o->c, j, fn, (char *)*items + i * size);
		codec_path_pop(o->c, at2);
		if (o->c->bad)
			break;
	}
	codec_path_pop(o->c, at);
}

/* An array of numbers (null for an undefined one), malloc'd. */
void f_nums(struct obj *o, const char *key, double **x, size_t *n)
{
	json_t *a, *v;
	size_t i;

	if (o->c->dir == FREE) {
		free(*x);
		*x = NULL;
		*n = 0;
	} else if (o->c->dir == WRITE) {
		a = json_array();
		for (i = 0; i < *n; i++)
			json_array_append_new(a, isfinite((*x)[i]) ? json_real((*x)[i]) : json_null());
		codec_put(o, key, a);
	} else if ((a = codec_get(o, key, 1)) != NULL) {
		if (!json_is_array(a)) {
			codec_wrong(o, key, "an array of numbers");
			return;
		}
		*x = malloc((json_array_size(a) + 1) * sizeof(double));
		if (*x == NULL) {
			codec_failf(o->c, "out of memory");
			return;
		}
		json_array_foreach (a, i, v) {
			if (!json_is_number(v) && !json_is_null(v)) {
				codec_wrong(o, key, "an array of numbers");
				return;
			}
			(*x)[i] = json_is_null(v) ? NAN : json_number_value(v);
			*n = i + 1;
		}
	}
}

/* s as a JSON string: as it is when it is UTF-8, else with every byte
 * beyond ASCII as '?'. */
static json_t *utf8_string(const char *s)
{
	json_t *j = json_string(s);
	char *t;

	if (j != NULL || (t = strdup(s)) == NULL)
		return j;
	for (char *p = t; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(t);
	free(t);
	return j;
}

static void free_strs(char ***v, size_t *n)
{
	for (size_t i = 0; *v && i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

void f_strs(struct obj *o, const char *key, char ***v, size_t *n)
{
	json_t *a, *s;
	size_t i;

	if (o->c->dir == FREE) {
		free_strs(v, n);
	} else if (o->c->dir == WRITE) {
		a = json_array();
		for (i = 0; i < *n; i++)
			json_array_append_new(a, utf8_string((*v)[i]));
		codec_put(o, key, a);
	} else if ((a = codec_get(o, key, 1)) != NULL) {
		if (!json_is_array(a)) {
			codec_wrong(o, key, "an array of strings");
			return;
		}
		if ((*v = calloc(json_array_size(a) + 1, sizeof(**v))) == NULL) {
			codec_failf(o->c, "out of memory");
			return;
		}
		json_array_foreach (a, i, s) {
			if (!json_is_string(s)) {
				codec_wrong(o, key, "an array of strings");
				return;
			}
			if (((*v)[i] = strdup(json_string_value(s))) == NULL) {
				codec_failf(o->c, "out of memory");
				return;
			}
			*n = i + 1;
		}
	}
}
