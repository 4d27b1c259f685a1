#!/bin/sh
# make regress: proves the regression check end to end on this machine, the
# way CI should gate: the build under test against the base build, paired
# on the same machine (bench --against, its default budget).
#  1. the build against itself: expect no regression (exit 0), or
#     inconclusive (exit 4: the machine too noisy to rule out +2% in the
#     budget, said as such); a regression (1) or a failed run fails;
#  2. the build under test 20% slower (--slowdown-pct 20: one more
#     extraction after every 5, which reaches the build under test only,
#     never the --against base): expect a regression (exit 1).
# Each verdict shows the change with its interval and the generations and
# pairs it came from.
set -u
BENCH="${1:-build/bench}"
# the smoke form's knobs (docs/long-commands.txt); empty: the full form
# (the --against default budget and generations, +20%)
DIR="${REGRESS_OUT:-$(dirname "$BENCH")}"
SLOW="${REGRESS_SLOWDOWN:-20}"
ARGS="-a --against $BENCH${REGRESS_TIME:+ --time $REGRESS_TIME}${REGRESS_LAUNCHES:+ --launches $REGRESS_LAUNCHES}"
fail=0
start=$(date +%s)

change() {
	jq -r '.paired.ratios[] | select(.judged)
	       | "  \(.name): change \(100 * (.estimate - 1) | . * 100 | round / 100)% [\(100 * (.low - 1) | . * 100 | round / 100)%, \(100 * (.high - 1) | . * 100 | round / 100)%], p = \(.signed_rank_p | . * 1000 | round / 1000), \(.samples | length) generations, \(.pair_statistics.n) pairs: \(.change.verdict)"' "$1"
}

echo "== 1. unchanged: $BENCH $ARGS"
"$BENCH" $ARGS --format json >"$DIR/regress-same.json"
rc=$?
echo "  exit status $rc (want 0, or 4: inconclusive)"
{ [ "$rc" -le 1 ] || [ "$rc" -eq 4 ]; } && change "$DIR/regress-same.json"
[ "$rc" -ne 4 ] || echo "  inconclusive: this machine was too noisy to rule out +2% within the budget; no false alarm"
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || { echo "  UNEXPECTED: the unchanged build was judged a regression (or the run failed)"; fail=1; }

echo "== 2. +$SLOW%: $BENCH $ARGS --slowdown-pct $SLOW"
"$BENCH" $ARGS --slowdown-pct "$SLOW" --format json >"$DIR/regress-slow.json"
rc=$?
echo "  exit status $rc (want 1)"
{ [ "$rc" -le 1 ] || [ "$rc" -eq 4 ]; } && change "$DIR/regress-slow.json"
[ "$rc" -eq 1 ] || { echo "  UNEXPECTED: the slowed-down build was not judged a regression"; fail=1; }

echo "== make regress took $(($(date +%s) - start)) s; $([ $fail -eq 0 ] && echo 'both verdicts as expected' || echo 'a verdict was not as expected')"
exit $fail
