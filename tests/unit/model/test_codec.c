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
	at = strstr(text, "\"schema_version\": 2,");
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
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_doc_begin),
		cmocka_unit_test(test_choice_words),
	};
	return cmocka_run_group_tests_name("codec", tests, NULL, NULL);
}
