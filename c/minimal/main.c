/* c/minimal/main.c — build/bench-minimal, the textbook loop and nothing
 * else, outside the layers on purpose: plugin_init (config "async" with
 * -a), one thread calling plugin_extract_fields on mock.bare.0 with a
 * constant request and event, reading nothing back, one clock read before
 * and after. make compare sets it beside bench --work bare: cgocost's check
 * that its own harness adds nothing. The mode in effect is still verified,
 * by one untimed mock.tid extraction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <plugin_api.h> /* from the plugin SDK's module directory */

#include "base/status.h"
#include "plugin/plugin_fields.h"

/* The plugin API, exported by the SDK inside the linked c-archive. */
ss_plugin_t *plugin_init(const ss_plugin_init_input *in, ss_plugin_rc *rc);
void plugin_destroy(ss_plugin_t *s);
/* the mock's own: the toolchain that built it and the SDK it uses */
char *cgocost_go_version(void);
char *cgocost_sdk_version(void);
ss_plugin_rc plugin_extract_fields(ss_plugin_t *s, const ss_plugin_event_input *evt,
				   const ss_plugin_field_extract_input *in);

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned char ev[64] = { 0 };
	ss_plugin_event hdr = { .len = sizeof(hdr) + 16, .type = 322, .nparams = 2 };
	uint32_t params[4] = { 4, 4, 999, 0 }; /* two lengths, the plugin id, a payload */
	ss_plugin_extract_field bare = { .field_id = mock_work_field(WORK_BARE, 0),
					 .field = "mock.bare.0",
					 .ftype = 8 };
	ss_plugin_extract_field tid = { .field_id = FIELD_TID, .field = "mock.tid", .ftype = 8 };
	ss_plugin_field_extract_input in = { .num_fields = 1, .fields = &bare },
				      probe = { .num_fields = 1, .fields = &tid };
	ss_plugin_event_input evt = { .evt = (ss_plugin_event *)(void *)ev, .evtnum = 1, .evtsrc = "cgocost" };
	ss_plugin_init_input init = { 0 };
	ss_plugin_rc rc = SS_PLUGIN_FAILURE;
	ss_plugin_t *s;
	unsigned long long n = 100000;
	int async = 0, c;
	uint64_t t0, t1;

	while ((c = getopt(argc, argv, "an:")) != -1) {
		if (c == 'a')
			async = 1;
		else if (c != 'n' || (n = strtoull(optarg, NULL, 10)) == 0 ||
			 strspn(optarg, "0123456789") != strlen(optarg))
			return fprintf(stderr, "usage: bench-minimal [-a] [-n count >= 1]\n"), EXIT_BAD_INPUT;
	}
	memcpy(ev, &hdr, sizeof(hdr));
	memcpy(ev + sizeof(hdr), params, sizeof(params));
	init.config = async ? "async" : "";
	s = plugin_init(&init, &rc);
	if (rc != SS_PLUGIN_SUCCESS)
		return fprintf(stderr, "bench-minimal: plugin_init failed\n"), EXIT_RUN_FAILED;
	for (int i = 0; i < 10000; i++) /* warm-up, untimed */
		plugin_extract_fields(s, &evt, &in);
	if (plugin_extract_fields(s, &evt, &probe) != SS_PLUGIN_SUCCESS || tid.res_len != 1)
		return fprintf(stderr, "bench-minimal: the mode probe failed\n"), EXIT_RUN_FAILED;
	t0 = now_ns();
	for (unsigned long long i = 0; i < n; i++)
		if (plugin_extract_fields(s, &evt, &in) != SS_PLUGIN_SUCCESS)
			return fprintf(stderr, "bench-minimal: extraction %llu failed\n", i), EXIT_RUN_FAILED;
	t1 = now_ns();
	printf("plugin 1: %.2f ns/extraction (elapsed time %lluns, extractions %llu)\n", (double)(t1 - t0) / (double)n,
	       (unsigned long long)(t1 - t0), n);
	printf("# mode: %s requested, %s in effect (verified: Extract ran on thread %llu, the caller is %d)\n",
	       async ? "async" : "sync", tid.res.u64[0] == (uint64_t)gettid() ? "sync" : "async",
	       (unsigned long long)tid.res.u64[0], (int)gettid());
	printf("# built: %s, plugin-sdk-go %s\n", cgocost_go_version(), cgocost_sdk_version());
	plugin_destroy(s);
	return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_RUN_FAILED;
}
