/* plugin/event.h — the events a plugin extracts from: plugin events (type
 * 322, PPME_PLUGINEVENT_E) laid out as the plugin API defines, one per
 * payload of --events FILE, or one synthetic payload of --payload-size
 * bytes. Syscall events are out of scope. */
#ifndef CGOCOST_PLUGIN_EVENT_H
#define CGOCOST_PLUGIN_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "model/eventfile.h" /* the file's format, EVENT_PAYLOAD_MAX */

#define PLUGIN_EVENT_TYPE     322
/* header (26 bytes, packed) + two 4-byte parameter lengths + the plugin id */
#define PLUGIN_EVENT_OVERHEAD 38

/* Writes a plugin event into buf: | ts | tid | len | type | nparams=2 |
 * len(plugin id)=4 | len(data) | plugin id | data |, integers in host byte
 * order, ts and tid (uint64_t)-1 (no time, no thread, as the API allows).
 * Returns its length, or 0 when cap is too small. */
size_t plugin_event_build(unsigned char *buf, size_t cap, uint32_t plugin_id, const void *data, uint32_t len);

struct event_set {
	unsigned char **events; /* each a plugin event */
	size_t n;
	size_t payload_bytes; /* sum of the payloads */
};

/* One event per line of path (model/eventfile.h: the newline is not part
 * of the payload). 0, or -1 with a message naming the problem (unreadable,
 * empty, a line too long). */
int event_set_load(struct event_set *s, const char *path, uint32_t plugin_id, char *err, size_t errlen);
/* One event with a synthetic payload of size bytes. */
int event_set_synthetic(struct event_set *s, uint32_t size, uint32_t plugin_id, char *err, size_t errlen);

/* --work json: one event whose payload is a JSON document shaped like a
 * Kubernetes audit event, with "key": MOCK_JSON_KEY, padded to size bytes
 * (a smaller size gives the unpadded document, about 410 bytes). */
int event_set_json(struct event_set *s, uint32_t size, uint32_t plugin_id, char *err, size_t errlen);
/* The document itself, into buf of cap bytes: its length, or 0 when it
 * does not fit (with its terminating NUL). */
size_t event_json_document(char *buf, size_t cap, uint32_t size, uint64_t key);
void event_set_free(struct event_set *s);

#endif
