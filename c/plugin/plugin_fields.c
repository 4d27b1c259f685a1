/* plugin_fields.c — names and expected values of the mock plugin's fields. */
#include "plugin/plugin_fields.h"

#include <stdio.h>

static const char *const probe_names[FIELD_WORK_BASE] = {
	"mock.tid", "mock.cpu", "mock.calls", "mock.gomaxprocs", "mock.async", "mock.goallocs",
};

int mock_field_name(uint32_t id, char *buf, size_t len)
{
	int n;

	if (id < FIELD_WORK_BASE)
		n = snprintf(buf, len, "%s", probe_names[id]);
	else if (id == FIELD_HOST_CALLS)
		n = snprintf(buf, len, "mock.hostcalls");
	else if (id == FIELD_GOROUTINE)
		n = snprintf(buf, len, "mock.goroutine");
	else if (id < MOCK_NUM_FIELDS)
		n = snprintf(buf, len, "mock.%s.%u", work_name((enum work)mock_field_kind(id)), mock_field_lane(id));
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static const char *const str_values[16] = {
	"cgocost-0", "cgocost-1", "cgocost-2", "cgocost-3", "cgocost-4", "cgocost-5", "cgocost-6", "cgocost-7",
	"cgocost-8", "cgocost-9", "cgocost-a", "cgocost-b", "cgocost-c", "cgocost-d", "cgocost-e", "cgocost-f",
};

const char *mock_str_value(uint64_t evtnum, uint64_t lane)
{
	return str_values[(evtnum + lane) & 15];
}
