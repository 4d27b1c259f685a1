/* base/names.h — the names a run is described by, each spelled once: work
 * kinds, scenarios and allocators. Go-free, so the option parser can be built
 * (and fuzzed) without the plugin. */
#ifndef CGOCOST_BASE_NAMES_H
#define CGOCOST_BASE_NAMES_H

/* What each timed field returns, and what an extraction touches
 * (docs/methodology.md, "What each work kind touches"): bare touches
 * nothing (constant request and event, no result read); event adds a new
 * event number each call, read by Extract; noop adds the result read back;
 * u64 and str return a value the driver checks. The numbers are the mock's
 * kinds within a lane (plugin/plugin_fields.h). */
/* json: a realistic field, the event's payload decoded as a JSON document
 * (the mock's encoding/json, the C plugin's jansson) and a value returned */
enum work { WORK_NOOP = 0, WORK_U64, WORK_STR, WORK_BARE, WORK_EVENT, WORK_JSON, WORK_COUNT };

/* What one timed iteration is: an extraction on the caller's own instance,
 * or in the lifecycle a new instance (alloc) or one from a pool (reuse). */
enum scenario { SCEN_EXTRACT = 0, SCEN_ALLOC, SCEN_REUSE, SCEN_COUNT };

/* How the requests of an open-loop run (--rate) are spaced. */
enum arrival { ARRIVAL_EVEN = 0, ARRIVAL_POISSON };

/* "noop", "u64", "str". */
const char *work_name(enum work w);
/* 0 and *w set, or -1 for an unknown name. */
int work_parse(const char *s, enum work *w);

/* "extract", "alloc", "reuse". */
const char *scenario_name(enum scenario s);
int scenario_parse(const char *s, enum scenario *sc);

/* The allocators --malloc and --allocators know, by their canonical name:
 * "glibc" (none preloaded), "jemalloc", "tcmalloc", "mimalloc". Returns the
 * canonical (static) spelling of s, or NULL for an unknown name. */
const char *allocator_name(const char *s);
/* "glibc, jemalloc, tcmalloc, mimalloc", for messages. */
const char *allocator_names(void);

#endif
