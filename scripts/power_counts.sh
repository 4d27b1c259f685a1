#!/bin/sh
# make power COUNT=instructions: measures the counting gate (--against EXE
# --count instructions) the way make power measures the timing gate, and
# ends with two lines, the figures and the targets met or which were missed
# (exit 0 either way: a finding; 2 on bad input, 3 when a run failed):
#   N A/A trials (the build against itself: "regressed", exit 1, is a false
#   alarm) and N A/B trials with --slowdown-pct 1 (one more extraction after
#   every 100, in the build under test only: +1% of the work; "regressed" is
#   a detection), each with its own seed.
# Targets: no false alarm, detections >= N - N/20 (19 of 20), median verdict
# time <= 30 s. Counts see work, not the clock; but a verdict's time is the
# counted runs' wall time, which a loaded machine stretches: the script
# prints the load average beside it.
set -u
BENCH="${1:-build/bench}"
N="${2:-20}"
ARGS="${POWER_COUNT_ARGS:-}" # more options of the gate's runs (e.g. -n 50000)
OUT="${POWER_OUT:-$(dirname "$BENCH")/power-counts}"
mkdir -p "$OUT"
case "$N" in '' | *[!0-9]* | 0) echo "power: TRIALS must be a whole number above 0, not '$N'" >&2; exit 2 ;; esac

. "$(dirname "$0")/power_lib.sh"

# one verdict: prints "<exit status> <seconds> <change point %>"
trial() {
	json="$1"
	shift
	t0=$(now)
	"$BENCH" --against "$BENCH" --count instructions "$@" $ARGS --format json >"$json" 2>"$json.err"
	rc=$?
	t1=$(now)
	point=$(jq -r '.comparison.changes[0].point // "nan"' "$json" 2>/dev/null)
	echo "$rc $(elapsed "$t0" "$t1") $(percent "$point")"
}

echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $N trials each: $BENCH --against $BENCH --count instructions $ARGS [--slowdown-pct 1]: exit status (0 no regression, 1 regressed, 4 inconclusive), seconds, change %"
printf '%5s  %-22s %-22s %s\n' trial "A/A" "A/B +1%" "load"
: >"$OUT/trials.txt"
i=1
while [ "$i" -le "$N" ]; do
	aa=$(trial "$OUT/aa.json" --seed "$i")
	ab=$(trial "$OUT/ab.json" --slowdown-pct 1 --seed "$i")
	printf '%5d  %-22s %-22s %s\n' "$i" "$aa" "$ab" "$(cut -d' ' -f1 /proc/loadavg)"
	echo "$aa | $ab" >>"$OUT/trials.txt"
	i=$((i + 1))
done

fa=$(count 1)
det=$(count 2)
aa_n=$(count 1 0); aa_i=$(count 1 4)
ab_n=$(count 2 0); ab_i=$(count 2 4)
bad=$(($(failed 1) + $(failed 2)))
vt=$( (col 1 2; col 2 2) | median)
[ "$bad" -eq 0 ] || echo "power: $bad runs failed (exit status other than 0, 1 and 4): see $OUT" >&2
echo "power (instructions): A/A regressed $fa/$N, no regression $aa_n/$N, inconclusive $aa_i/$N; A/B +1% regressed $det/$N, no regression $ab_n/$N, inconclusive $ab_i/$N; median verdict time $vt s"
# the targets: met or missed is a finding, said on the last line (exit 0);
# a failed run is exit 3; exit 2 is bad input alone
missed=$(awk -v fa="$fa" -v det="$det" -v abn="$ab_n" -v n="$N" -v vt="$vt" 'BEGIN {
	m = ""
	if (fa > 0) m = m sprintf(", false alarms %d/%d > 0", fa, n)
	if (abn > 0) m = m sprintf(", A/B no regression %d/%d > 0", abn, n)
	if (det < n - int(n / 20)) m = m sprintf(", detected %d/%d < %d", det, n, n - int(n / 20))
	if (vt > 30) m = m sprintf(", median verdict time %s s > 30 s", vt)
	print substr(m, 3) }')
if [ -n "$missed" ]; then echo "power: targets missed: $missed"; else echo "power: targets met"; fi
[ "$bad" -eq 0 ] || exit 3
exit 0
