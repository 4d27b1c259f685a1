/* test_codec.c — the model's one JSON serialization (model/codec*.c): a
 * document written and read back is the same document, a document read
 * from text that lacks or mistypes a key is refused naming it, every
 * document begins with the same header (doc_begin), and a named option's
 * word reads alike from argv and from a record (option_set_choice). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <math.h>

#include "model/codec.h"
#include "model/codec_options.h"
#include "model/model.h"
#include "model/options.h"
#include "model_fixture.h"

static void two_cells(struct doc *d)
{
	fixture_doc(d);
	fixture_cell(d, "archive", "sync", fixture_launches(3, 70, 1, 140), 3);
	fixture_cell(d, "archive", "async", fixture_launches(3, 300, 5, 600), 3);
}

/* Written, read back and written again: the same text, the same values. */
static void test_round_trip(void **state)
{
	struct doc d, back;
	char err[512] = "";
	char *one, *two;

	(void)state;
	two_cells(&d);
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_non_null(two);
	assert_string_equal(one, two);
	assert_int_equal(back.schema_version, SCHEMA_VERSION);
	assert_string_equal(back.machine.cpu_model, "Test CPU");
	assert_int_equal(back.ncells, 2);
	assert_string_equal(back.cells[1].name, "lib=archive/mode=async/work=noop/p=1");
	assert_int_equal(back.cells[1].nlaunches, 3);
	assert_int_equal(back.cells[1].launches[2].callers[0].nbatches, 2);
	assert_true(back.cells[1].launches[2].ns_per_extraction == d.cells[1].launches[2].ns_per_extraction);
	assert_int_equal(back.options.n, 1000);
	assert_int_equal(back.options.warmup, 10);
	/* the resolved kind is not recorded: the options say it */
	assert_int_equal(back.options.kind, RUN_UNRESOLVED);
	assert_null(strstr(one, "\"kind\""));
	free(one);
	free(two);
	doc_free(&d);
	doc_free(&back);
}

/* A launch's floors with their spreads, the reference handoff's dropped
 * batches and wake-ups and the rejected attempts: written and read back the
 * same; a document from before them (no such keys) still reads, as no
 * spread, counts unknown and nothing rejected. */
static void test_floors_spread(void **state)
{
	struct doc d, back;
	char err[512] = "";
	char *one, *two;
	struct floors_rec *f;
	json_t *j, *fl;

	(void)state;
	two_cells(&d);
	d.cells[0].launches[0].has_floors = 1;
	f = &d.cells[0].launches[0].floors;
	memset(f, 0, sizeof(*f));
	f->c_call_ns = 1.5;
	f->go_raw_ns = 57;
	f->go_raw_cold_ns = 60000;
	f->handoff_ns = 138;
	f->handoff_cpus[0] = 0;
	f->handoff_cpus[1] = 1;
	f->ref_bare_ns = 143;
	f->ref_event_ns = 199;
	f->ref_result_ns = 170;
	f->ref_wake_ns = 80000;
	f->has_spread = 1;
	f->spread_batches = 10;
	for (int k = 0; k < FLOOR_KINDS; k++)
		f->spread[k] = (struct floor_spread){ 1.0 + k, 100.0 + k };
	f->spread[FLOOR_GO_RAW] = (struct floor_spread){ NAN, NAN };
	f->ref_dropped_batches = 2;
	f->ref_wakeups = 37;
	f->handoff_dropped_batches = 4;
	f->nrejected = 2;
	f->rejected[0] = (struct floor_reject){ FLOOR_REF_EVENT, 12, "only 3 of 10 batches" };
	f->rejected[1] = (struct floor_reject){ FLOOR_HANDOFF, 0, "86x the bare step" };
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	f = &back.cells[0].launches[0].floors;
	assert_int_equal(f->has_spread, 1);
	assert_int_equal(f->spread_batches, 10);
	assert_true(f->spread[FLOOR_REF_RESULT].min_ns == 6 && f->spread[FLOOR_REF_RESULT].max_ns == 105);
	assert_true(isnan(f->spread[FLOOR_GO_RAW].min_ns));
	assert_int_equal(f->ref_dropped_batches, 2);
	assert_int_equal(f->ref_wakeups, 37);
	assert_int_equal(f->handoff_dropped_batches, 4);
	assert_int_equal(f->nrejected, 2);
	assert_int_equal(f->rejected[0].kind, FLOOR_REF_EVENT);
	assert_int_equal(f->rejected[0].wakeups, 12);
	assert_string_equal(f->rejected[1].reason, "86x the bare step");
	doc_free(&back);

	/* an older document: the same without the checks' keys */
	j = json_loads(one, 0, NULL);
	assert_non_null(j);
	fl = json_object_get(
		json_array_get(json_object_get(json_array_get(json_object_get(j, "cells"), 0), "launches"), 0),
		"floors");
	assert_true(json_is_object(fl));
	/* from before the round trip's dropped batches were counted */
	assert_int_equal(json_object_del(fl, "handoff_dropped_batches"), 0);
	free(two);
	two = json_dumps(j, 0);
	if (doc_loads(&back, two, strlen(two), err, sizeof(err)) != 0)
		fail_msg("a document without handoff_dropped_batches: %s", err);
	assert_int_equal(back.cells[0].launches[0].floors.handoff_dropped_batches, -1);
	assert_int_equal(back.cells[0].launches[0].floors.ref_wakeups, 37);
	doc_free(&back);
	assert_int_equal(json_object_del(fl, "spread"), 0);
	assert_int_equal(json_object_del(fl, "ref_wakeups"), 0);
	assert_int_equal(json_object_del(fl, "ref_dropped_batches"), 0);
	assert_int_equal(json_object_del(fl, "rejected"), 0);
	free(two);
	two = json_dumps(j, 0);
	json_decref(j);
	if (doc_loads(&back, two, strlen(two), err, sizeof(err)) != 0)
		fail_msg("an older document: %s", err);
	f = &back.cells[0].launches[0].floors;
	assert_int_equal(f->has_spread, 0);
	assert_int_equal(f->ref_wakeups, -1);
	assert_int_equal(f->ref_dropped_batches, -1);
	assert_int_equal(f->handoff_dropped_batches, -1);
	assert_int_equal(f->nrejected, 0);
	assert_true(isnan(f->spread[FLOOR_C_CALL].min_ns));
	assert_true(f->ref_bare_ns == 143);

	/* a rejected attempt naming no floor is refused, the key named */
	free(two);
	two = strdup(one);
	char *at = strstr(two, "\"floor\": \"ref_event\"");
	assert_non_null(at);
	memcpy(at + strlen("\"floor\": \""), "ref_xxxxx", 9);
	doc_free(&back);
	assert_int_not_equal(doc_loads(&back, two, strlen(two), err, sizeof(err)), 0);
	assert_non_null(strstr(err, "floor"));
	free(one);
	free(two);
	doc_free(&d);
}

/* A caller's async_slot: absent unless looked for; where the slot lay, or
 * why that is unknown, written and read back the same. */
static void test_async_slot(void **state)
{
	struct doc d, back;
	char err[512] = "";
	char *one, *two;
	struct caller_rec *c;

	(void)state;
	two_cells(&d);
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	assert_null(strstr(one, "async_slot"));
	free(one);

	c = &d.cells[1].launches[2].callers[0];
	c->has_async_slot = 1;
	c->slot_line_bytes = 64;
	c->slot_line_offset = 32;
	c->slot_lines = 2;
	c = &d.cells[1].launches[1].callers[0];
	c->has_async_slot = 1;
	snprintf(c->slot_why, sizeof(c->slot_why), "no symbol table (stripped)");
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	assert_non_null(strstr(one, "\"why\": null"));
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	c = &back.cells[1].launches[2].callers[0];
	assert_int_equal(c->has_async_slot, 1);
	assert_int_equal(c->slot_line_bytes, 64);
	assert_int_equal(c->slot_line_offset, 32);
	assert_int_equal(c->slot_lines, 2);
	assert_string_equal(c->slot_why, "");
	c = &back.cells[1].launches[1].callers[0];
	assert_int_equal(c->has_async_slot, 1);
	assert_int_equal(c->slot_line_bytes, 0);
	assert_string_equal(c->slot_why, "no symbol table (stripped)");
	assert_int_equal(back.cells[1].launches[0].callers[0].has_async_slot, 0);
	doc_free(&back);
	free(one);
	free(two);
	doc_free(&d);
}

/* --worker-cpu's records: the option (null when not given), the machine's
 * worker_topology and a launch's worker_side, written and read back the
 * same; without the option none of the three is written, and a bad CPU
 * list is refused naming its key. */
static void test_worker_side(void **state)
{
	struct doc d, back;
	char err[512] = "";
	char *one, *two;
	struct worker_side_rec *w;

	(void)state;
	two_cells(&d);
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	assert_non_null(strstr(one, "\"worker_cpu\": null"));
	assert_null(strstr(one, "worker_topology"));
	assert_null(strstr(one, "worker_side"));
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_int_equal(back.options.worker_cpu, -1);
	assert_int_equal(back.machine.has_worker, 0);
	assert_int_equal(back.cells[1].launches[0].has_worker_side, 0);
	doc_free(&back);
	free(one);

	d.options.worker_cpu = 3;
	d.machine.has_worker = 1;
	d.machine.caller_cpu = 2;
	d.machine.worker_cpu = 3;
	snprintf(d.machine.worker_class, sizeof(d.machine.worker_class), "other_llc");
	d.cells[1].launches[2].has_worker_side = 1;
	w = &d.cells[1].launches[2].worker_side;
	*w = (struct worker_side_rec){ .cpu = 3, .nallowed = 2, .allowed = { 2, 3 }, .nran_on = 1, .ran_on = { 3 } };
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	assert_int_equal(back.options.worker_cpu, 3);
	assert_int_equal(back.machine.has_worker, 1);
	assert_int_equal(back.machine.caller_cpu, 2);
	assert_string_equal(back.machine.worker_class, "other_llc");
	w = &back.cells[1].launches[2].worker_side;
	assert_int_equal(back.cells[1].launches[2].has_worker_side, 1);
	assert_int_equal(w->nallowed, 2);
	assert_int_equal(w->allowed[1], 3);
	assert_int_equal(w->nran_on, 1);
	assert_int_equal(w->ran_on[0], 3);
	assert_int_equal(back.cells[1].launches[1].has_worker_side, 0);
	doc_free(&back);
	free(two);

	/* unreadable masks are null, and read back as unknown */
	w = &d.cells[1].launches[2].worker_side;
	w->nallowed = -1;
	two = doc_dumps(&d, 0);
	assert_non_null(strstr(two, "\"allowed_cpus\": null"));
	if (doc_loads(&back, two, strlen(two), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_int_equal(back.cells[1].launches[2].worker_side.nallowed, -1);
	doc_free(&back);
	free(two);

	/* a CPU list of something else is refused, the key named */
	json_t *j = json_loads(one, 0, NULL), *ws;
	assert_non_null(j);
	ws = json_object_get(
		json_array_get(json_object_get(json_array_get(json_object_get(j, "cells"), 1), "launches"), 2),
		"worker_side");
	assert_true(json_is_object(ws));
	assert_int_equal(json_object_set_new(ws, "allowed_cpus", json_pack("[s]", "x")), 0);
	free(one);
	one = json_dumps(j, 0);
	json_decref(j);
	assert_int_not_equal(doc_loads(&back, one, strlen(one), err, sizeof(err)), 0);
	assert_non_null(strstr(err, "allowed_cpus"));
	free(one);
	doc_free(&d);
}

/* Text that is not the document is refused, the bad key named. */
static void test_refusals(void **state)
{
	struct doc d;
	char err[512];
	char *text, *at;

	(void)state;
	two_cells(&d);
	text = doc_dumps(&d, 0);
	assert_non_null(text);
	doc_free(&d);

	err[0] = '\0';
	assert_int_equal(doc_loads(&d, "{", 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "JSON error"));

	/* a mistyped schema version: named in the message */
	at = strstr(text, "\"schema_version\": 3,");
	assert_non_null(at);
	memcpy(at, "\"schema_version\": 0,", strlen("\"schema_version\": 0,"));
	err[0] = '\0';
	assert_int_equal(doc_loads(&d, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema_version"));
	assert_null(strchr(err, '\n'));

	/* a key that is missing: named in the message */
	memcpy(at, "\"schema_version\": 2,", strlen("\"schema_version\": 2,"));
	at = strstr(text, "\"cpu_model\"");
	assert_non_null(at);
	memcpy(at, "\"cpu_modeX\"", strlen("\"cpu_modeX\""));
	err[0] = '\0';
	assert_int_equal(doc_loads(&d, text, strlen(text), err, sizeof(err)), -1);
	assert_true(strstr(err, "cpu_model") || strstr(err, "cpu_modeX"));
	assert_null(strchr(err, '\n'));
	free(text);
}

/* Every document's header, in one place. */
static void test_doc_begin(void **state)
{
	struct doc d;
	struct machine_rec m;
	struct options o;

	(void)state;
	memset(&m, 0, sizeof(m));
	snprintf(m.cpu_model, sizeof(m.cpu_model), "CPU X");
	options_defaults(&o);
	o.n = 42;
	o.kind = RUN_COMPARE;
	memset(&d, 0xff, sizeof(d)); /* whatever was there is gone */
	doc_begin(&d, &m, &o);
	assert_int_equal(d.schema_version, SCHEMA_VERSION);
	assert_string_equal(d.machine.cpu_model, "CPU X");
	assert_int_equal(d.options.n, 42);
	assert_int_equal(d.options.kind, RUN_COMPARE);
	assert_null(d.cells);
	assert_int_equal(d.ncells, 0);
	assert_int_equal(d.has_paired, 0);
	doc_begin(&d, NULL, &o);
	assert_string_equal(d.machine.cpu_model, "");
}

static const struct optdef *option(const char *name)
{
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (options_table[i].name && strcmp(options_table[i].name, name) == 0)
			return &options_table[i];
	fail_msg("no option --%s", name);
	return NULL;
}

/* A named option's word: one reading for argv and the record. */
static void test_choice_words(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	options_defaults(&o);
	assert_int_equal(option_set_choice(option("work"), &o, "--work", "u64", err, sizeof(err)), 0);
	assert_int_equal(o.work, WORK_U64);
	assert_int_equal(option_set_choice(option("scenario"), &o, "--scenario", "lifecycle", err, sizeof(err)), 0);
	assert_int_equal(o.lifecycle, 1);
	assert_int_equal(option_set_choice(option("format"), &o, "--format", "gobench", err, sizeof(err)), 0);
	assert_int_equal(o.format, FORMAT_GOBENCH);
	assert_int_equal(option_set_choice(option("interleave"), &o, "--interleave", "launches", err, sizeof(err)), 0);
	assert_int_equal(o.interleave, INTERLEAVE_LAUNCHES);
	assert_int_equal(option_set_choice(option("work"), &o, "--work", "nope", err, sizeof(err)), -1);
	assert_string_equal(err, "--work: 'nope' is not one of bare, event, noop, u64, str, json");
	assert_int_equal(option_set_choice(option("arrival"), &o, "--arrival", "burst", err, sizeof(err)), -1);
	assert_string_equal(err, "--arrival: 'burst' is not one of even, poisson");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_floors_spread),
		cmocka_unit_test(test_refusals),     cmocka_unit_test(test_doc_begin),
		cmocka_unit_test(test_choice_words), cmocka_unit_test(test_worker_side),
		cmocka_unit_test(test_async_slot),
	};
	return cmocka_run_group_tests_name("codec", tests, NULL, NULL);
}
