/* model/source.c — see source.h. */
#include "model/source.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int source_check_commit(const char *s, char *err, size_t errlen)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i])) {
			snprintf(err, errlen, "'%.80s' is not a commit: hex digits only", s);
			return -1;
		}
	if (n < SOURCE_COMMIT_MIN || n > SOURCE_COMMIT_MAX) {
		snprintf(err, errlen, "'%.80s' is not a commit: %d to %d hex digits", s, SOURCE_COMMIT_MIN,
			 SOURCE_COMMIT_MAX);
		return -1;
	}
	return 0;
}

/* n digits at *p into *v, advancing *p; -1 when they are not there. */
static int digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		*v = *v * 10 + (**p - '0');
	}
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int month_days(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

int source_parse_time(const char *s, int64_t *epoch, char *err, size_t errlen)
{
	const char *p = s;
	int y, mo, d, h, mi, se, oh = 0, om = 0, sign = 0;
	int ok = digits(&p, 4, &y) == 0 && *p++ == '-' && digits(&p, 2, &mo) == 0 && *p++ == '-' &&
		 digits(&p, 2, &d) == 0 && (*p == 'T' || *p == 't' || *p == ' ') && p++ && digits(&p, 2, &h) == 0 &&
		 *p++ == ':' && digits(&p, 2, &mi) == 0 && *p++ == ':' && digits(&p, 2, &se) == 0;

	if (ok && *p == '.') {
		ok = isdigit((unsigned char)p[1]);
		for (p++; isdigit((unsigned char)*p); p++)
			;
	}
	if (ok && (*p == 'Z' || *p == 'z'))
		p++;
	else if (ok && (*p == '+' || *p == '-')) {
		sign = *p++ == '-' ? -1 : 1;
		ok = digits(&p, 2, &oh) == 0 && *p++ == ':' && digits(&p, 2, &om) == 0 && oh <= 23 && om <= 59;
	} else
		ok = 0;
	ok = ok && *p == '\0' && mo >= 1 && mo <= 12 && d >= 1 && d <= month_days(y, mo) && h <= 23 && mi <= 59 &&
	     se <= 60;
	if (!ok) {
		snprintf(err, errlen, "'%.80s' is not an RFC 3339 time (2026-12-05T07:14:07+00:00 or ...Z)", s);
		return -1;
	}
	*epoch = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - sign * (oh * 3600 + om * 60);
	return 0;
}

int source_check(const struct source_rec *s, char *err, size_t errlen)
{
	char why[160];
	int64_t t;

	if (s->commit[0] && source_check_commit(s->commit, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "commit: %s", why);
		return -1;
	}
	if (s->commit_time[0] && source_parse_time(s->commit_time, &t, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "commit_time: %s", why);
		return -1;
	}
	for (const char *c = s->label; *c; c++)
		if (*c < 0x20 || *c > 0x7e) {
			snprintf(err, errlen, "label: '%.80s' has a character that is not printable ASCII", s->label);
			return -1;
		}
	return 0;
}
