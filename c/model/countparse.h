/* model/countparse.h — the counts --count reads from its tools' own
 * output: cachegrind's summary (valgrind --tool=cachegrind, on stderr) and
 * perf stat's CSV lines (perf stat -x, on stderr). Pure text parsing, so
 * that recorded outputs test it (tests/unit/model/fixtures/). */
#ifndef CGOCOST_MODEL_COUNTPARSE_H
#define CGOCOST_MODEL_COUNTPARSE_H

#include <stddef.h>
#include <stdint.h>

/* The instructions cachegrind counted: its summary line "==PID== I   refs:
 * 110,797,910" (3.19; "I refs:" in later versions), and the valgrind
 * version of its banner ("Using Valgrind-3.19.0 and LibVEX") into version
 * ("" when absent). 0, or -1 with why when the text holds no such line. */
int countparse_cachegrind(const char *text, uint64_t *irefs, char *version, size_t vlen, char *why, size_t whylen);

/* The count of event in perf stat -x, output: the line "VALUE,UNIT,EVENT,
 * ..." whose third field is event. 0; or -1 with why: no such line, or a
 * value perf could not take ("<not supported>", "<not counted>"). */
int countparse_perf_stat(const char *text, const char *event, uint64_t *value, char *why, size_t whylen);

#endif
