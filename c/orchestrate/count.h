/* orchestrate/count.h — --count: what one extraction of a cell (a single
 * launch's, or each of a --compare or --anatomy plan's) costs in counted
 * work, read from no clock. The cell runs again as child launches of
 * this executable (--emit-launch, its document thrown away) under a
 * counting tool, at two lengths: -n N and -n 2N, the same
 * warm-up, batches and options, no floors. The longer run's total less the
 * shorter's, over the extractions it made more, is the count per
 * extraction: start-up, loading, warm-up and exit cancel out. COUNT_PAIRS
 * pairs are run; the figure is their median, with their range.
 *   - instructions: valgrind --tool=cachegrind --cache-sim=no, its "I refs"
 *     total; GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off in the child
 *     (valgrind cannot take the Go runtime's preemption signal, nor decode
 *     the RDTSCP its emulated CPUID offers where the host lacks it). Counts every thread: so refused
 *     for an async single launch (the worker spins while it waits) and for
 *     -p > 1; in a counted --compare or --anatomy an async cell is left out
 *     of the instructions (said, not an error).
 *   - syscalls: perf stat -x, -e raw_syscalls:sys_enter (every system
 *     call), a tracepoint per usual name (count_syscall_names; "other" is
 *     the rest), and the software events context-switches and page-faults.
 * The children are of orchestrate/child.h: none outlives its run. */
#ifndef CGOCOST_ORCHESTRATE_COUNT_H
#define CGOCOST_ORCHESTRATE_COUNT_H

#include <stddef.h>

#include "model/model.h"

#define COUNT_PAIRS 3

/* The largest -n a count takes: its longer run is -n 2N, which must be a
 * run's -n (OPT_MAX_N); past it the shorter run would be counted for days
 * before the longer one was refused. */
#define COUNT_MAX_N (OPT_MAX_N / 2)

/* The environment variable that sets fewer pairs (1 to COUNT_PAIRS): a
 * test hook, so that a test of a whole counted --anatomy fits its budget
 * (each pair's figure is counted the same; only the range has fewer
 * values). Not for the counting gate, which sets its own pairs. */
#define COUNT_PAIRS_ENV "CGOCOST_TEST_COUNT_PAIRS"

/* The system calls counted by name, NULL-terminated (x86-64 and arm64
 * tracepoint names). */
extern const char *const count_syscall_names[];

/* Why the options cannot be counted as asked (the message of an exit 2,
 * given before anything is measured), or NULL when they can. o's kind is
 * resolved. */
const char *count_refusal(const struct options *o, char *buf, size_t len);

/* Which counting tool o's counts need and PATH lacks: the message of an
 * exit 3 given before anything is measured or counted (a timed run would
 * otherwise be made, and thrown away), or NULL when every one is there. */
const char *count_tool_missing(const struct options *o, char *buf, size_t len);

/* Counts the instructions of exe's cell as o says into r (has_instructions
 * and its figures; r's lengths too). EXIT_OK, or EXIT_RUN_FAILED with one
 * line in err: valgrind not in PATH, or a run that failed. */
int count_instructions(const struct options *o, const char *exe, struct counts_rec *r, char *err, size_t errlen);

/* The counting gate's parts (--against EXE --count instructions,
 * orchestrate/countgate.h): r's lengths as o says (the record emptied of
 * figures is the caller's); then one pair of counted runs of exe (the
 * longer first when long_first), its figure appended to r->instructions
 * (median and range recomputed, the tool named, has_instructions set).
 * With output, the first run's document (its stdout, malloc'd) is given
 * back: what was counted. EXIT_OK, or EXIT_RUN_FAILED with one line. */
void count_lengths(const struct options *o, struct counts_rec *r);
int count_instructions_pair(const struct options *o, const char *exe, struct counts_rec *r, int long_first,
			    char **output, char *err, size_t errlen);

/* The same for the system calls, context switches and page faults (perf). */
int count_syscalls(const struct options *o, const char *exe, struct counts_rec *r, char *err, size_t errlen);

/* The same for a cell of a plan (--compare, --anatomy): the variant v's
 * launch as the plan runs it (child_args: its mode, work, library; the
 * minimal driver with -n and -a only, its output thrown away), at the two
 * lengths. With floor (1 + FLOOR_C_CALL or FLOOR_GO_RAW), v's executable
 * runs only that floor's loop of calls -n times (--count-floor, nothing
 * measured): a count per call. The minimal driver and a floor have one
 * caller whatever -p says. The C call, a few instructions, runs
 * COUNT_C_CALL_SCALE times -n: so many more calls that the Go runtime's
 * own run-to-run differences (tens of thousands of instructions) fall
 * below a hundredth of an instruction per call. */
#define COUNT_C_CALL_SCALE 100
struct variant;
int count_variant_instructions(const struct options *o, const struct variant *v, int floor, struct counts_rec *r,
			       char *err, size_t errlen);
int count_variant_syscalls(const struct options *o, const struct variant *v, int floor, struct counts_rec *r, char *err,
			   size_t errlen);

/* Why an async cell of a counted --compare or --anatomy run has no
 * instructions (counts_rec's instructions_not_counted). */
const char *count_async_reason(void);

#endif
