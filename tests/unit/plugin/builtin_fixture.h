/* builtin_fixture.h — the built-in mock opened as the driver opens it, and
 * a synthetic event set, as a cmocka group's setup and teardown: for the
 * tests of plugin/ and the layers above it that call the real plugin. */
#ifndef CGOCOST_TEST_BUILTIN_FIXTURE_H
#define CGOCOST_TEST_BUILTIN_FIXTURE_H

#include "plugin/event.h"
#include "plugin/library.h"

static struct plugin_lib builtin;
static struct event_set events;

static int setup(void **state)
{
	char err[512];
	(void)state;
	if (library_open_builtin(&builtin, err, sizeof(err)) != 0)
		return -1;
	return event_set_synthetic(&events, 64, 999, err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	event_set_free(&events);
	library_close(&builtin);
	return 0;
}

#endif
