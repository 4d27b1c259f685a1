/* plugin/load.h — the plugin libraries of one launch: each opened
 * (library.c), checked against the options (-p limit, -a, fields, events,
 * event types), started (plugin_init and a first extraction) and its load
 * cost taken: from dlopen to the first successful extraction, with the RSS
 * and OS threads of the process before and after. A problem with a library
 * or its options is bad input, found here before anything is measured. */
#ifndef CGOCOST_PLUGIN_LOAD_H
#define CGOCOST_PLUGIN_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "plugin/event.h"
#include "plugin/extractor.h"
#include "plugin/library.h"

enum lib_role { ROLE_MEASURED = 0, ROLE_IDLE, ROLE_BUSY, ROLE_BUILTIN };

struct lib_run {
	struct plugin_lib lib;
	enum lib_role role;
	struct event_set events;
	struct field_sel *sel; /* --field, resolved; NULL: the work fields */
	uint32_t nsel;
	char evtsrc[64];
	uint32_t plugin_id;
	struct plugin_config pc; /* what every instance of this library gets */
	struct extractor first;	 /* idle and busy: the started instance, kept */
	int has_first;
	int has_load;
	uint64_t load_ns;
	long rss_before_kb, rss_after_kb, threads_before, threads_after;
	uint64_t extractions; /* busy: extractions beside the timed callers */
};

struct session {
	struct lib_run builtin; /* bench, bench-shared: the linked mock */
	int has_builtin;
	struct lib_run *libs; /* measured: the --plugin libraries, or the built-in */
	int nlibs;
	struct lib_run *other; /* --idle or --busy, or NULL */
	int go_runtimes;
};

/* Opens the built-in plugin, then every library the options name, in
 * order. Returns EXIT_OK, EXIT_BAD_INPUT (a named problem with a library or
 * its options) or EXIT_RUN_FAILED (a failed init, with the plugin's own
 * error, or a failed first extraction), the message in err. */
int session_open(struct session *s, const struct options *o, char *err, size_t errlen);
void session_close(struct session *s);

/* What session_open is calling now ("plugin_init of its first instance",
 * ...) and of which library (*lib), for a message when it hangs; NULL or ""
 * outside a library's load. Async-signal-safe. */
const char *session_open_step(const char **lib);

/* The records of the session's libraries (malloc'd array). */
int session_records(const struct session *s, struct library_rec **recs, size_t *n);

#endif
