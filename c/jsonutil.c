/* jsonutil.c — see jsonutil.h. */
#include "jsonutil.h"

#include <math.h>
#include <string.h>

json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *jint(uint64_t x)
{
	return json_integer((json_int_t)x);
}

json_t *jint_or_null(int64_t x)
{
	return x < 0 ? json_null() : json_integer((json_int_t)x);
}

double jget_num(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v);
	return NAN;
}

const char *jget_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

const char *jget_str_or(const json_t *obj, const char *key, const char *dflt)
{
	const char *s = jget_str(obj, key);
	return s ? s : dflt;
}

json_t *jfind_named(const json_t *array, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(array, i, v)
	{
		const char *n = jget_str(v, "name");
		if (n && strcmp(n, name) == 0)
			return v;
	}
	return NULL;
}
