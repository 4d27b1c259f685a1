/* plugin/plugin_fields.h — the mock plugin's field identifiers and value rules.
 * Mirrors plugin-mock/mock/mock.go; tests/unit/test_extractor.c checks
 * both against the field list the plugin declares. */
#ifndef CGOCOST_PLUGIN_PLUGIN_FIELDS_H
#define CGOCOST_PLUGIN_PLUGIN_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/names.h"

/* The untimed probe fields. */
enum mock_field {
	FIELD_TID = 0,
	FIELD_CPU,
	FIELD_CALLS,
	FIELD_GOMAXPROCS,
	FIELD_ASYNC_CONFIGURED,
	FIELD_GO_ALLOCS,
	FIELD_WORK_BASE
};

/* Work fields come in lanes of MOCK_NUM_KINDS (noop, u64, str, bare,
 * event: the numbers of enum work): the SDK keys result buffers by field
 * id, so K fields in one call need K distinct ids. This is the one place
 * the C side numbers them. */
#define MOCK_MAX_LANES	 256
#define MOCK_NUM_KINDS	 WORK_JSON
/* After the work fields, so that no other id moved: mock.hostcalls, the
 * plugin_extract_fields calls the instance served (counted only with the
 * mock's "count_calls" key; all ones otherwise), then the json lanes
 * mock.json.<lane> (no lane of the others: the Go mock serves them out of
 * the code every other field runs). */
#define FIELD_HOST_CALLS (FIELD_WORK_BASE + MOCK_NUM_KINDS * MOCK_MAX_LANES)
#define FIELD_JSON	 (FIELD_HOST_CALLS + 1)
/* Last, so that no other id moved: mock.goroutine, the goroutine that ran
 * Extract (with async, the SDK's worker serving the caller's slot). */
#define FIELD_GOROUTINE	 (FIELD_JSON + MOCK_MAX_LANES)
#define MOCK_NUM_FIELDS	 (FIELD_GOROUTINE + 1)

static inline uint32_t mock_work_field(enum work kind, uint32_t lane)
{
	return kind == WORK_JSON ? FIELD_JSON + lane : FIELD_WORK_BASE + MOCK_NUM_KINDS * lane + (uint32_t)kind;
}

/* The kind of a work field id; -1 for a probe field or an unknown id. */
static inline int mock_field_kind(uint32_t id)
{
	if (id >= FIELD_JSON && id < FIELD_GOROUTINE)
		return WORK_JSON;
	return id >= FIELD_WORK_BASE && id < FIELD_HOST_CALLS ? (int)((id - FIELD_WORK_BASE) % MOCK_NUM_KINDS) : -1;
}

/* The lane of a work field id (mock.<kind>.<lane>). */
static inline uint32_t mock_field_lane(uint32_t id)
{
	return id >= FIELD_JSON ? id - FIELD_JSON : (id - FIELD_WORK_BASE) / MOCK_NUM_KINDS;
}

/* The declared name of a field id ("mock.tid", "mock.u64.3"); 0 or -1. */
int mock_field_name(uint32_t id, char *buf, size_t len);

/* What mock.u64.<lane> returns (mock.U64Value). */
static inline uint64_t mock_u64_value(uint64_t evtnum, uint64_t lane)
{
	return evtnum * UINT64_C(0x9E3779B97F4A7C15) + lane;
}

/* The "key" of the synthetic JSON document (--work json), and what
 * mock.json.<lane> returns once it decoded it (mock.JSONValue). */
#define MOCK_JSON_KEY UINT64_C(0x5eedc0de)
static inline uint64_t mock_json_value(uint64_t evtnum, uint64_t lane, uint64_t key)
{
	return mock_u64_value(evtnum, lane) ^ key;
}

/* What mock.str.<lane> returns (mock.StrValue): "cgocost-<hex digit>". */
const char *mock_str_value(uint64_t evtnum, uint64_t lane);

#endif
