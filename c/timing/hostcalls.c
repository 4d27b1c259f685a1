/* timing/hostcalls.c — see hostcalls.h. */
#include "timing/hostcalls.h"

#include <math.h>
#include <stdio.h>

int hostcalls_check(const struct probe *before, const struct probe *after, uint64_t events, uint32_t calls_per_event,
		    double *counted, char *err, size_t errlen)
{
	uint64_t got, want = events * calls_per_event + 1; /* + the after probe's own call */

	*counted = NAN;
	if (!PROBE_KNOWN(before, PROBE_HOSTCALLS) || !PROBE_KNOWN(after, PROBE_HOSTCALLS) ||
	    before->host_calls == PROBE_NOT_COUNTED || after->host_calls == PROBE_NOT_COUNTED)
		return 0;
	got = after->host_calls - before->host_calls;
	if (after->host_calls < before->host_calls || got != want) {
		snprintf(err, errlen,
			 "the plugin counted %llu plugin_extract_fields calls between the probes, the driver made %llu "
			 "(%llu events of %u calls, and the probe)",
			 (unsigned long long)got, (unsigned long long)want, (unsigned long long)events,
			 calls_per_event);
		return -1;
	}
	*counted = events ? (double)(got - 1) / (double)events : NAN;
	return 0;
}
