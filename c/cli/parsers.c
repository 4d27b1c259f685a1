/* cli/parsers.c — the strict value parsers of the command line: every bad
 * value is a one-line message naming the option and the problem. */
#include "cli/parsers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strict unsigned decimal: digits only, no sign, no overflow, within [min, max]. */
int parse_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	unsigned long long v;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "%s: missing number", name);
		return -1;
	}
	for (const char *c = s; *c; c++)
		if (*c < '0' || *c > '9') {
			if (*c == '-' && c == s)
				snprintf(err, errlen, "%s: '%s' is negative", name, s);
			else
				snprintf(err, errlen, "%s: '%s' is not a whole number", name, s);
			return -1;
		}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno == ERANGE) {
		snprintf(err, errlen, "%s: '%s' is too large", name, s);
		return -1;
	}
	if (option_in_bounds(name, s, v, min, max, err, errlen) != 0)
		return -1;
	*out = v;
	return 0;
}

int parse_cpu_list(const char *s, int *cpus, int max, char *err, size_t errlen)
{
	int count = 0;
	const char *p = s;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "--cpus: empty CPU list");
		return -1;
	}
	while (*p) {
		char *end;
		long a, b;

		if (*p < '0' || *p > '9')
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a > b || b >= OPT_MAX_CPUS)
			goto bad;
		for (long c = a; c <= b; c++) {
			for (int i = 0; i < count; i++)
				if (cpus[i] == c) {
					snprintf(err, errlen, "--cpus: CPU %ld listed twice in '%s'", c, s);
					return -1;
				}
			if (count >= max)
				goto bad;
			cpus[count++] = (int)c;
		}
		if (*p == ',') {
			p++;
			if (*p == '\0')
				goto bad;
		} else if (*p != '\0') {
			goto bad;
		}
	}
	return count;
bad:
	snprintf(err, errlen, "--cpus: '%s' is not a CPU list such as 0,1 or 0-3", s);
	return -1;
}

int parse_allocators(struct options *o, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;

	o->nallocators = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[32];
		const char *canon;

		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) - 1 ? len : sizeof(name) - 1), p);
		p += len + (p[len] == ',');
		if (len == 0 || (p[-1] == ',' && *p == '\0')) {
			snprintf(err, errlen, "--allocators: '%s' has an empty name: list names such as glibc,jemalloc",
				 arg);
			return -1;
		}
		if ((canon = allocator_name(name)) == NULL) {
			snprintf(err, errlen, "--allocators: '%s' is not one of %s", name, allocator_names());
			return -1;
		}
		for (int k = 0; k < o->nallocators; k++)
			if (o->allocators[k] == canon) {
				snprintf(err, errlen, "--allocators: '%s' listed twice", name);
				return -1;
			}
		if (o->nallocators == OPT_MAX_ALLOCATORS) {
			snprintf(err, errlen, "--allocators: at most %d", OPT_MAX_ALLOCATORS);
			return -1;
		}
		o->allocators[o->nallocators++] = canon;
	}
	if (o->nallocators == 0) {
		snprintf(err, errlen, "--allocators: empty list");
		return -1;
	}
	return 0;
}

/* A strict positive decimal number (digits, one optional point) within
 * (0, max]: no sign, exponent, "inf" or "nan". */
int parse_positive(const char *name, const char *s, double max, const char *unit, double *out, char *err, size_t errlen)
{
	int digits = 0, points = 0;
	double v;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "%s: missing number", name);
		return -1;
	}
	for (const char *c = s; *c; c++) {
		if (*c >= '0' && *c <= '9') {
			digits++;
		} else if (*c == '.' && points++ == 0) {
		} else {
			if (*c == '-' && c == s)
				snprintf(err, errlen, "%s: '%s' is negative", name, s);
			else
				snprintf(err, errlen,
					 "%s: '%s' is not a plain decimal number (digits and one point, no exponent)",
					 name, s);
			return -1;
		}
	}
	if (digits == 0 || digits > 30) {
		snprintf(err, errlen, "%s: '%s' is not a plain decimal number (digits and one point, no exponent)",
			 name, s);
		return -1;
	}
	v = strtod(s, NULL);
	if (!(v > 0.0)) {
		snprintf(err, errlen, "%s: '%s' must be more than 0", name, s);
		return -1;
	}
	if (v < OPT_MIN_POSITIVE) {
		/* absurd, and a child launch could not be given it without an
		 * exponent, which the parser refuses (found by fuzzing) */
		snprintf(err, errlen, "%s: '%s' is too small (at least %g%s)", name, s, OPT_MIN_POSITIVE, unit);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is too large (at most %.0f%s)", name, s, max, unit);
		return -1;
	}
	*out = v;
	return 0;
}

/* "10,100,1000" into gaps (us), or rates with "max" as 0. */
int parse_list(const char *name, const char *arg, int rates, struct options *o, char *err, size_t errlen)
{
	const char *p = arg;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		char item[40];
		uint64_t g;
		double r;

		snprintf(item, sizeof(item), "%.*s", (int)(len < sizeof(item) - 1 ? len : sizeof(item) - 1), p);
		p += len + (p[len] == ',');
		if (n == OPT_MAX_LIST) {
			snprintf(err, errlen, "%s: at most %d entries", name, OPT_MAX_LIST);
			return -1;
		}
		if (rates && strcmp(item, "max") == 0) {
			o->sweep[n++] = 0;
		} else if (rates) {
			if (parse_positive(name, item, OPT_MAX_RATE, " per second", &r, err, errlen))
				return -1;
			o->sweep[n++] = r;
		} else {
			if (parse_u64(name, item, 0, OPT_MAX_GAP_US, &g, err, errlen))
				return -1;
			o->gaps_us[n++] = g;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: empty list", name);
		return -1;
	}
	if (rates)
		o->nsweep = n;
	else
		o->ngaps = n;
	return 0;
}
