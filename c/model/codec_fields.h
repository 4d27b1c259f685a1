/* model/codec_fields.h — the machinery of the codec's two-way field
 * lists: one function per record lists its fields once (the record files
 * model/codec.c and model/codec_launch.c), and a direction says whether the
 * list writes the record, reads it back (every key checked, an error naming
 * its path) or frees it. Only the codec's own files include this. */
#ifndef CGOCOST_MODEL_CODEC_FIELDS_H
#define CGOCOST_MODEL_CODEC_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum dir { WRITE, READ, FREE };

struct codec {
	enum dir dir;
	char *err;
	size_t errlen;
	int bad;
	char path[512]; /* where the reader is, for messages */
};

/* One JSON object being written or read. */
struct obj {
	struct codec *c;
	json_t *j;
	const char *seen[48];
	int nseen;
};

typedef void (*visit_fn)(struct obj *o, void *rec);

void codec_failf(struct codec *c, const char *fmt, ...);

/* path += ".key" or "[i]" for the duration of a nested visit. */
size_t codec_path_push(struct codec *c, const char *key, long index);

void codec_path_pop(struct codec *c, size_t len);

/* READ: the value at key (NULL and an error when absent and required). */
json_t *codec_get(struct obj *o, const char *key, int required);

void codec_put(struct obj *o, const char *key, json_t *v);

void codec_wrong(struct obj *o, const char *key, const char *want);

void f_u64(struct obj *o, const char *key, uint64_t *v);

void f_u32(struct obj *o, const char *key, uint32_t *v);

void f_int(struct obj *o, const char *key, int *v);

/* An integer that may be unknown: -1 <-> null. */
void f_i64n(struct obj *o, const char *key, int64_t *v);

/* A real; undefined (NAN) <-> null. as_int writes a whole number. */
void f_real(struct obj *o, const char *key, double *v, int as_int);

void f_num(struct obj *o, const char *key, double *v);

void f_bool(struct obj *o, const char *key, int *v);

/* A string into a buffer; nullable: "" <-> null. */
void f_text(struct obj *o, const char *key, char *buf, size_t len, int nullable);

/* A key that only some records have. WRITE: whether to write it (*present);
 * READ: whether it is there (sets *present). FREE: *present. */
int f_opt(struct obj *o, const char *key, int *present);

void codec_visit(struct codec *c, json_t *j, visit_fn fn, void *rec);

/* A nested object; nullable: *present 0 <-> null. */
void f_sub(struct obj *o, const char *key, visit_fn fn, void *rec, int *present);

/* An array of records of size bytes each, malloc'd. */
void f_items(struct obj *o, const char *key, void **items, size_t *n, size_t size, visit_fn fn);

/* An array of numbers (null for an undefined one), malloc'd. */
void f_nums(struct obj *o, const char *key, double **x, size_t *n);

/* An array of strings, each malloc'd, the array too (NULL-terminated);
 * a string that is not UTF-8 is written with its other bytes as '?'. */
void f_strs(struct obj *o, const char *key, char ***v, size_t *n);

#define f_str(o, key, buf)	     f_text(o, key, buf, sizeof(buf), 0)
#define f_strn(o, key, buf)	     f_text(o, key, buf, sizeof(buf), 1)
#define f_list(o, key, items, n, fn) f_items(o, key, (void **)(items), n, sizeof(**(items)), fn)

#endif
