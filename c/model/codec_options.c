/* model/codec_options.c — the options record of a document, made from the
 * option table: each recorded option's key is the table's json column, so
 * the keys are spelled once, in model/options.c. */
#include "model/codec_options.h"

#include <stdio.h>
#include <string.h>

typedef const char *cstr; /* a text option's field */

/* A recorded count within the table's bounds (those of the command line,
 * with its messages); also sets the option's "given" flag. */
static int record_number(const struct optdef *d, struct options *o, json_int_t v, char *err, size_t errlen)
{
	uint64_t min = d->type == T_INSTANCES ? 1 : d->min;
	uint64_t max = d->type == T_INSTANCES ? OPT_MAX_PLUGINS : d->max;
	char name[40], shown[24];

	option_name(d, name, sizeof(name));
	if (d->has_set)
		*option_set(o, d) = 1;
	snprintf(shown, sizeof(shown), "%lld", (long long)v);
	if (option_in_bounds(name, shown, (uint64_t)v, min, max, err, errlen) != 0)
		return -1;
	if (d->type == T_U64)
		*(uint64_t *)option_field(o, d) = (uint64_t)v;
	else
		*(uint32_t *)option_field(o, d) = (uint32_t)v;
	return 0;
}

/* A recorded work, scenario or allocator: one the command line takes, with
 * its messages. */
static int record_name(const struct optdef *d, struct options *o, const char *s, char *err, size_t errlen)
{
	char name[40];

	option_name(d, name, sizeof(name));
	if (d->has_set)
		*option_set(o, d) = 1;
	return option_set_choice(d, o, name, s, err, errlen);
}

static json_t *field_to_json(const struct optdef *d, const struct options *o)
{
	switch (d->type) {
	case T_FLAG:
		return json_boolean(*(const int *)option_cfield(o, d));
	case T_U64:
		return json_integer((json_int_t) * (const uint64_t *)option_cfield(o, d));
	case T_U32:
	case T_INSTANCES:
		return json_integer((json_int_t) * (const uint32_t *)option_cfield(o, d));
	case T_WORK:
		return json_string(work_name(*(const enum work *)option_cfield(o, d)));
	case T_SCENARIO:
		return json_string(*(const int *)option_cfield(o, d) ? "lifecycle" : "extract");
	case T_HOSTCALLS:
		return json_string(host_calls_name(*(const enum host_calls *)option_cfield(o, d)));
	case T_ALLOCATOR:
		return json_string(*(const cstr *)option_cfield(o, d) ? *(const cstr *)option_cfield(o, d) : "glibc");
	case T_CPUS: {
		json_t *a = json_array();
		for (int i = 0; i < o->ncpus; i++)
			json_array_append_new(a, json_integer(o->cpus[i]));
		return a;
	}
	case T_CPU:
		return *(const int *)option_cfield(o, d) < 0 ? json_null()
							     : json_integer(*(const int *)option_cfield(o, d));
	case T_TEXT:
		return *(const cstr *)option_cfield(o, d) ? json_string(*(const cstr *)option_cfield(o, d))
							  : json_null();
	case T_LIST: {
		json_t *a = json_array();
		int n = option_cset(o, d);
		for (int i = 0; i < n; i++)
			json_array_append_new(a, json_string(((const cstr *)option_cfield(o, d))[i]));
		return a;
	}
	default:
		return json_null();
	}
}

json_t *options_to_json(const struct options *o)
{
	json_t *rec = json_object();
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (options_table[i].json)
			json_object_set_new(rec, options_table[i].json, field_to_json(&options_table[i], o));
	return rec;
}

static int field_from_json(const struct optdef *d, struct options *o, const json_t *v, char *err, size_t errlen)
{
	size_t k;
	json_t *e;

	switch (d->type) {
	case T_FLAG:
		if (!json_is_boolean(v))
			break;
		*(int *)option_field(o, d) = json_is_true(v);
		return 0;
	case T_U64:
	case T_U32:
	case T_INSTANCES:
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			break;
		if (d->type == T_INSTANCES && json_integer_value(v) == 0) {
			*(uint32_t *)option_field(o, d) = 0; /* --pool without the lifecycle */
			return 0;
		}
		return record_number(d, o, json_integer_value(v), err, errlen);
	case T_WORK:
	case T_SCENARIO:
	case T_ALLOCATOR:
	case T_HOSTCALLS:
		if (!json_is_string(v))
			break;
		return record_name(d, o, json_string_value(v), err, errlen);
	case T_CPUS:
		if (!json_is_array(v) || json_array_size(v) > OPT_MAX_CPUS)
			break;
		o->ncpus = 0;
		json_array_foreach (v, k, e) {
			if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) >= OPT_MAX_CPUS)
				goto bad;
			o->cpus[o->ncpus++] = (int)json_integer_value(e);
		}
		return 0;
	case T_CPU:
		if (json_is_null(v)) {
			*(int *)option_field(o, d) = -1;
			return 0;
		}
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (json_int_t)d->max)
			break;
		*(int *)option_field(o, d) = (int)json_integer_value(v);
		return 0;
	case T_TEXT:
		/* the text stays in the document (its owner): checked, not kept */
		if (!json_is_string(v) && !json_is_null(v))
			break;
		return 0;
	case T_LIST:
		if (!json_is_array(v) || json_array_size(v) > d->max)
			break;
		json_array_foreach (v, k, e)
			if (!json_is_string(e))
				goto bad;
		return 0;
	default:
		return 0;
	}
bad:
	snprintf(err, errlen, "options.%s: not a valid value", d->json);
	return -1;
}

int options_from_json(struct options *o, const json_t *rec, char *err, size_t errlen)
{
	size_t known = 0;

	options_defaults(o);
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "options: not an object");
		return -1;
	}
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const json_t *v;
		if (options_table[i].json == NULL)
			continue;
		v = json_object_get(rec, options_table[i].json);
		if (v == NULL && options_table[i].json_opt)
			continue;
		if (v == NULL) {
			snprintf(err, errlen, "options.%s: missing", options_table[i].json);
			return -1;
		}
		if (field_from_json(&options_table[i], o, v, err, errlen) != 0)
			return -1;
		known++;
	}
	if (json_object_size(rec) != known) {
		const char *key;
		json_t *v;
		json_object_foreach ((json_t *)rec, key, v) {
			size_t i;
			for (i = 0;
			     i < OPT_COUNT && !(options_table[i].json && strcmp(options_table[i].json, key) == 0); i++)
				;
			if (i == OPT_COUNT) {
				snprintf(err, errlen, "options.%s: unknown key", key);
				return -1;
			}
		}
	}
	return 0;
}
