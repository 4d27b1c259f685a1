/* test_codec_report.c — a report's command and decisions in the codec
 * (model/codec.c): written and read back the same, null for what is not
 * known, absent from a document without them (a child's, an older
 * baseline), which still reads; six decisions in their order or refused. */
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
#include "model/model.h"
#include "model_fixture.h"

static void one_cell(struct doc *d)
{
	fixture_doc(d);
	fixture_cell(d, "archive", "sync", fixture_launches(3, 70, 1, 140), 3);
}

/* Six decisions: the first measured with an interval, the rest not. */
static void six_decisions(struct doc *d)
{
	d->decisions = calloc(DECISION_KEYS, sizeof(*d->decisions));
	assert_non_null(d->decisions);
	d->ndecisions = DECISION_KEYS;
	for (int i = 0; i < DECISION_KEYS; i++) {
		struct decision_rec *r = &d->decisions[i];
		snprintf(r->key, sizeof(r->key), "%s", decision_key_name((enum decision_key)i));
		snprintf(r->question, sizeof(r->question), "%s", decision_question((enum decision_key)i));
		r->estimate = r->low = r->high = NAN;
		snprintf(r->command, sizeof(r->command), "bench --compare");
	}
	d->decisions[0].measured = 1;
	d->decisions[0].command[0] = '\0';
	snprintf(d->decisions[0].answer, sizeof(d->decisions[0].answer), "leave async off");
	snprintf(d->decisions[0].figure, sizeof(d->decisions[0].figure), "async/sync lib=archive wall");
	snprintf(d->decisions[0].flips_when, sizeof(d->decisions[0].flips_when), "never | here");
	d->decisions[0].estimate = 2.5;
	d->decisions[0].low = 2.25;
	d->decisions[0].high = 2.75;
}

static void test_round_trip(void **state)
{
	const char *argv[] = { "./build/bench", "--compare", "it's \"quoted\"", "caf\xc3\xa9" };
	struct doc d, back;
	char err[512] = "";
	char *one, *two;
	json_t *j;

	(void)state;
	one_cell(&d);
	assert_int_equal(doc_set_command(&d, 4, argv), 0);
	six_decisions(&d);
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	assert_int_equal(back.ncommand, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(back.command[i], argv[i]);
	assert_int_equal(back.ndecisions, DECISION_KEYS);
	assert_true(back.decisions[0].measured);
	assert_string_equal(back.decisions[0].answer, "leave async off");
	assert_true(back.decisions[0].low == 2.25 && back.decisions[0].high == 2.75);
	assert_string_equal(back.decisions[5].key, "toolchain");
	assert_true(isnan(back.decisions[5].estimate));
	/* the unknown is null, in the contract's key order */
	j = json_loads(one, 0, NULL);
	assert_non_null(j);
	{
		json_t *t = json_array_get(json_object_get(j, "decisions"), 5);
		static const char *const keys[] = { "key",	"question", "measured", "answer",     "figure",
						    "estimate", "low",	    "high",	"flips_when", "command" };
		const char *k;
		json_t *v;
		size_t i = 0;
		assert_true(json_is_null(json_object_get(t, "answer")));
		assert_true(json_is_null(json_object_get(t, "estimate")));
		assert_true(json_is_false(json_object_get(t, "measured")));
		json_object_foreach (t, k, v) {
			assert_true(i < 10);
			assert_string_equal(k, keys[i++]);
		}
		assert_int_equal(i, 10);
	}
	json_decref(j);
	free(one);
	free(two);
	doc_free(&d);
	doc_free(&back);
}

/* A document without them: none written, and one read back has none. */
static void test_absent(void **state)
{
	struct doc d, back;
	char err[512] = "";
	char *text;

	(void)state;
	one_cell(&d);
	text = doc_dumps(&d, 0);
	assert_null(strstr(text, "\"command\""));
	assert_null(strstr(text, "\"decisions\""));
	if (doc_loads(&back, text, strlen(text), err, sizeof(err)) != 0)
		fail_msg("an older document: %s", err);
	assert_null(back.command);
	assert_int_equal(back.ncommand, 0);
	assert_null(back.decisions);
	assert_int_equal(back.ndecisions, 0);
	free(text);
	doc_free(&d);
	doc_free(&back);
}

/* Bytes that are not UTF-8 are written as '?', never as a null. */
static void test_not_utf8(void **state)
{
	const char *argv[] = { "bench", "--plugin", "/tmp/\xff\xfe.so" };
	struct doc d;
	char *text;

	(void)state;
	one_cell(&d);
	assert_int_equal(doc_set_command(&d, 3, argv), 0);
	six_decisions(&d);
	text = doc_dumps(&d, 1);
	assert_non_null(strstr(text, "\"command\":[\"bench\",\"--plugin\",\"/tmp/??.so\"]"));
	free(text);
	doc_free(&d);
}

/* Read back: five decisions, or six out of order, are refused, naming the
 * decisions. */
static void test_refusals(void **state)
{
	const char *argv[] = { "bench" };
	struct doc d, back;
	char err[512];
	char *text, *at;

	(void)state;
	one_cell(&d);
	assert_int_equal(doc_set_command(&d, 1, argv), 0);
	six_decisions(&d);
	snprintf(d.decisions[1].key, sizeof(d.decisions[1].key), "language");
	snprintf(d.decisions[2].key, sizeof(d.decisions[2].key), "link");
	text = doc_dumps(&d, 0);
	err[0] = '\0';
	assert_int_equal(doc_loads(&back, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "decisions"));
	assert_non_null(strstr(err, "in that order"));
	free(text);
	d.ndecisions = 5;
	snprintf(d.decisions[1].key, sizeof(d.decisions[1].key), "link");
	snprintf(d.decisions[2].key, sizeof(d.decisions[2].key), "language");
	text = doc_dumps(&d, 0);
	err[0] = '\0';
	assert_int_equal(doc_loads(&back, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "decisions"));
	free(text);
	d.ndecisions = 6;
	/* a command that is not an array of strings */
	text = doc_dumps(&d, 1);
	at = strstr(text, "\"command\":[\"bench\"]");
	assert_non_null(at);
	memcpy(at, "\"command\":7        ", strlen("\"command\":[\"bench\"]"));
	err[0] = '\0';
	assert_int_equal(doc_loads(&back, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "command"));
	free(text);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests_name("codec_report", tests, NULL, NULL);
}
