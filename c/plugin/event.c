/* plugin/event.c — see event.h. */
#include "plugin/event.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomicfile.h"
#include "plugin/plugin_fields.h"

#include <plugin_api.h>

_Static_assert(sizeof(ss_plugin_event) == 26, "the plugin API's event header is 26 packed bytes");

size_t plugin_event_build(unsigned char *buf, size_t cap, uint32_t plugin_id, const void *data, uint32_t len)
{
	ss_plugin_event hdr;
	uint32_t lens[2] = { sizeof(plugin_id), len };
	size_t total = sizeof(hdr) + sizeof(lens) + sizeof(plugin_id) + len;

	if (total > cap || total > UINT32_MAX)
		return 0;
	memset(&hdr, 0, sizeof(hdr));
	hdr.ts = UINT64_MAX;
	hdr.tid = UINT64_MAX;
	hdr.len = (uint32_t)total;
	hdr.type = PLUGIN_EVENT_TYPE;
	hdr.nparams = 2;
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), lens, sizeof(lens));
	memcpy(buf + sizeof(hdr) + sizeof(lens), &plugin_id, sizeof(plugin_id));
	if (len)
		memcpy(buf + PLUGIN_EVENT_OVERHEAD, data, len);
	return total;
}

static int event_add(struct event_set *s, uint32_t plugin_id, const void *data, uint32_t len, char *err, size_t errlen)
{
	size_t cap = PLUGIN_EVENT_OVERHEAD + (size_t)len;
	unsigned char *e = malloc(cap), **grown;

	grown = e ? realloc(s->events, (s->n + 1) * sizeof(*s->events)) : NULL;
	if (grown == NULL) {
		free(e);
		snprintf(err, errlen, "out of memory for %zu events", s->n + 1);
		return -1;
	}
	s->events = grown;
	plugin_event_build(e, cap, plugin_id, data, len);
	s->events[s->n++] = e;
	s->payload_bytes += len;
	return 0;
}

/* All that f holds, NUL-terminated, malloc'd; NULL on a read error or no
 * memory (errno says which). */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *grown;

	while (buf != NULL) {
		n += fread(buf + n, 1, cap - 1 - n, f);
		if (ferror(f)) {
			free(buf);
			return NULL;
		}
		if (feof(f))
			break;
		grown = cap * 2 > cap ? realloc(buf, cap * 2) : NULL;
		if (grown == NULL)
			free(buf);
		buf = grown;
		cap *= 2;
	}
	if (buf != NULL) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

int event_set_load(struct event_set *s, const char *path, uint32_t plugin_id, char *err, size_t errlen)
{
	const char *refused = input_refusal(path); /* a FIFO or a device would block or never end */
	FILE *f = refused ? NULL : fopen(path, "r");
	char *text;
	struct event_line *lines;
	size_t len = 0, n;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (refused) {
		snprintf(err, errlen, "--events %s: %s", path, refused);
		return -1;
	}
	if (f == NULL) {
		snprintf(err, errlen, "--events %s: cannot read it: %s", path, strerror(errno));
		return -1;
	}
	text = read_all(f, &len);
	if (text == NULL)
		snprintf(err, errlen, "--events %s: cannot read it: %s", path, strerror(errno));
	fclose(f);
	/* the format's rules: model/eventfile.c */
	if (text == NULL || eventfile_split(text, len, path, &lines, &n, err, errlen) != 0) {
		free(text);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = event_add(s, plugin_id, text + lines[i].offset, lines[i].len, err, errlen);
	free(lines);
	free(text);
	if (rc != 0)
		event_set_free(s);
	return rc;
}

int event_set_synthetic(struct event_set *s, uint32_t size, uint32_t plugin_id, char *err, size_t errlen)
{
	char *data = malloc(size + 1u);
	int rc;

	memset(s, 0, sizeof(*s));
	if (data == NULL) {
		snprintf(err, errlen, "out of memory for a payload of %u bytes", size);
		return -1;
	}
	for (uint32_t i = 0; i < size; i++)
		data[i] = "cgocost-"[i % 8];
	rc = event_add(s, plugin_id, data, size, err, errlen);
	free(data);
	return rc;
}

size_t event_json_document(char *buf, size_t cap, uint32_t size, uint64_t key)
{
	int n = snprintf(buf, cap,
			 "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\","
			 "\"auditID\":\"6d8b1d2e-cgocost\",\"stage\":\"ResponseComplete\",\"verb\":\"get\","
			 "\"requestURI\":\"/api/v1/namespaces/default/pods/cgocost\",\"user\":{\"username\":"
			 "\"system:serviceaccount:kube-system:cgocost\",\"groups\":[\"system:serviceaccounts\","
			 "\"system:authenticated\"]},\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"default\","
			 "\"name\":\"cgocost\"},\"key\":%llu,\"pad\":\"",
			 (unsigned long long)key);
	if (n < 0 || (size_t)n + 3 > cap || (size_t)size + 1 > cap)
		return 0;
	while ((uint32_t)n + 2 < size)
		buf[n++] = 'x';
	buf[n++] = '"';
	buf[n++] = '}';
	buf[n] = '\0';
	return (size_t)n;
}

int event_set_json(struct event_set *s, uint32_t size, uint32_t plugin_id, char *err, size_t errlen)
{
	size_t cap = (size_t)size + 1024, len; /* the unpadded document is about 410 bytes */
	char *doc = malloc(cap);
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (doc == NULL) {
		snprintf(err, errlen, "out of memory for a payload of %u bytes", size);
		return -1;
	}
	if ((len = event_json_document(doc, cap, size, MOCK_JSON_KEY)) == 0)
		snprintf(err, errlen, "the JSON payload does not fit %zu bytes", cap);
	else
		rc = event_add(s, plugin_id, doc, (uint32_t)len, err, errlen);
	free(doc);
	return rc;
}

void event_set_free(struct event_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->events[i]);
	free(s->events);
	memset(s, 0, sizeof(*s));
}
