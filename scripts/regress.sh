#!/bin/sh
# make regress: proves the regression check end to end on this machine.
#  1. save a baseline of the --compare run;
#  2. rerun unchanged: expect no regression (exit 0);
#  3. rerun with +20% on the async path (a calibrated busy loop inside
#     Extract, only in async cells): expect a regression (exit 1);
# and show the async/sync ratios against the baseline each time.
set -u
BENCH="${1:-build/bench}"
DIR="$(dirname "$BENCH")"
BASE="$DIR/regress-baseline.json"
ARGS="--compare -n 200000 -r 10 --launches 20"
fail=0
start=$(date +%s)

ratios() {
	jq -r '.comparison.changes[] | select(.kind == "ratio" and (.scenario | startswith("async/sync")))
	       | "  \(.scenario): \(.line) \(.sentence)"' "$1"
}

echo "== 1. baseline: $BENCH $ARGS --save-baseline $BASE"
"$BENCH" $ARGS --save-baseline "$BASE" --format json >/dev/null || { echo "regress: the baseline run failed"; exit 3; }
async=$(jq '[.cells[] | select(.lib == "archive" and .mode.in_effect == "async")][0].statistics.median' "$BASE")
if [ -z "$async" ] || [ "$async" = "null" ]; then
	echo "regress: async is not in effect on this machine (see the baseline's mode); nothing to demonstrate"
	exit 3
fi
extra=$(awk -v m="$async" 'BEGIN { printf "%d", m * 0.20 + 0.5 }')

echo "== 2. unchanged rerun against the baseline"
"$BENCH" $ARGS --baseline "$BASE" --format json >"$DIR/regress-same.json"
rc=$?
echo "  exit status $rc (want 0)"
ratios "$DIR/regress-same.json"
[ "$rc" -eq 0 ] || { echo "  UNEXPECTED: the unchanged rerun was judged a regression (a noisy machine?)"; fail=1; }

echo "== 3. +20% on the async path: --async-extra-ns $extra (20% of the baseline's async median ${async} ns)"
"$BENCH" $ARGS --baseline "$BASE" --async-extra-ns "$extra" --format json >"$DIR/regress-slow.json"
rc=$?
echo "  exit status $rc (want 1)"
ratios "$DIR/regress-slow.json"
jq -r '.comparison.changes[] | select(.kind == "cell" and (.scenario | contains("mode=async")))
       | "  \(.scenario): \(.line) \(.sentence)"' "$DIR/regress-slow.json"
[ "$rc" -eq 1 ] || { echo "  UNEXPECTED: the slowed-down run was not judged a regression"; fail=1; }

echo "== make regress took $(( $(date +%s) - start )) s; $( [ $fail -eq 0 ] && echo 'both verdicts as expected' || echo 'a verdict was not as expected')"
exit $fail
