/* jsonutil.h — small helpers over jansson: undefined numbers are null, and
 * reading a number that is absent or null gives NAN. */
#ifndef CGOCOST_JSONUTIL_H
#define CGOCOST_JSONUTIL_H

#include <stdint.h>

#include <jansson.h>

/* A real, or null when x is NAN or infinite. */
json_t *jnum(double x);
json_t *jint(uint64_t x);
/* An integer that may be unknown (negative means unknown: null). */
json_t *jint_or_null(int64_t x);

/* obj[key] as a double (integer or real); NAN if absent or null. */
double jget_num(const json_t *obj, const char *key);
/* obj[key] as a string; NULL if absent or not a string. */
const char *jget_str(const json_t *obj, const char *key);
/* The same with a default for absent values. */
const char *jget_str_or(const json_t *obj, const char *key, const char *dflt);
/* The element of an array of objects whose "name" is name; NULL if none. */
json_t *jfind_named(const json_t *array, const char *name);

#endif
