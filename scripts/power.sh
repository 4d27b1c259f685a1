#!/bin/sh
# make power: measures the regression check itself on this machine and ends
# with two lines: the figures, then the targets met or which were missed.
# Exit 0 when it measured (a missed target is a finding, not a failure), 2
# on bad input (TRIALS, LOAD), 3 when a run failed (neither 0, 1 nor 4).
#  1. the injection: --slowdown-pct 5 (one more extraction after every 20),
#     in the build under test only (it never reaches the --against base);
#     its true size from the A/B trials' generations, pooled;
#  2. N trials of each arm, the sequential gate at its default budget (or
#     POWER_TIME): A/A (the build against itself) and A/B (the +5% build
#     against the base); each verdict counted as regressed (exit 1), no
#     regression (0) or inconclusive (4), with the time it took;
#  3. the budget: the share of a `bench --compare --time 10` that is timed
#     blocks, and the async/sync ratio's interval half-width.
# LOAD=K (POWER_LOAD) runs K busy loops beside the whole measurement, the
# loaded condition; they are killed when it ends.
# Targets for N trials (the targets of docs/methodology.md, The
# sequential gate): A/A regressed <= max(1, N/20); A/B no regression 0;
# A/B regressed >= 95% of N (75% loaded); quiet only: A/A no regression >=
# 90% of N, median verdict times <= 15 s, timed share >= 60%; no failed run.
set -u
BENCH="${1:-build/bench}"
N="${2:-20}"
ARGS="${POWER_ARGS:-}" # more options of the paired runs (e.g. --block-ms 8)
T="${POWER_TIME:-}"     # the gate's maximum (--time); empty: its default
LOAD="${POWER_LOAD:-0}"
# the smoke form's knobs (docs/long-commands.txt); empty: the full form
PREC_T="${POWER_PRECISION_TIME:-10}"
OUT="${POWER_OUT:-$(dirname "$BENCH")/power}"
mkdir -p "$OUT"
case "$N" in '' | *[!0-9]* | 0) echo "power: TRIALS must be a whole number above 0, not '$N'" >&2; exit 2 ;; esac
case "$LOAD" in '' | *[!0-9]*) echo "power: LOAD must be a whole number of busy loops, not '$LOAD'" >&2; exit 2 ;; esac

. "$(dirname "$0")/power_lib.sh"

# the busy loops of the loaded condition, ended with the script
loops=""
stop_loops() { [ -z "$loops" ] || kill $loops 2>/dev/null; loops=""; }
trap 'stop_loops' EXIT
trap 'stop_loops; exit 130' INT
trap 'stop_loops; exit 143' TERM
k=0
while [ "$k" -lt "$LOAD" ]; do
	sh -c 'while :; do :; done' &
	loops="$loops $!"
	k=$((k + 1))
done

# one verdict: prints "<exit status> <seconds> <change point %>"
trial() {
	json="$1"
	shift
	t0=$(now)
	"$BENCH" "$@" --format json >"$json" 2>"$json.err"
	rc=$?
	t1=$(now)
	point=$(jq -r '[.comparison.changes[]? | select(.scenario | contains("mode=async")) | .point][0] // "nan"' "$json" 2>/dev/null)
	echo "$rc $(elapsed "$t0" "$t1") $(percent "$point")"
}

TIME_ARG="${T:+--time $T}"
echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; $LOAD busy loops beside the run; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 1. the injection: --slowdown-pct 5, in the build under test only"
# One more extraction of the same event after every 20 timed ones: +5% of
# whatever a call costs, in the fast and the slow state of the machine
# alike. Its true size is measured from the A/B trials themselves, every
# generation of every trial pooled (a run of its own would stop at its
# first sure look): the line after the trials.
echo "== 2. $N trials each, the sequential gate${T:+ at --time $T}: exit status (0 no regression, 1 regressed, 4 inconclusive), seconds, change %"
printf '%5s  %-22s %-22s\n' trial "A/A" "A/B +5%"
: >"$OUT/trials.txt"
i=1
while [ "$i" -le "$N" ]; do
	pa=$(trial "$OUT/pa-$i.json" -a --against "$BENCH" $TIME_ARG --seed "$i" $ARGS)
	pb=$(trial "$OUT/pb-$i.json" -a --against "$BENCH" $TIME_ARG --slowdown-pct 5 --seed "$i" $ARGS)
	printf '%5d  %-22s %-22s\n' "$i" "$pa" "$pb"
	echo "$pa | $pb" >>"$OUT/trials.txt"
	i=$((i + 1))
done

# the generations' ratios of every trial of an arm, pooled: their median
# and its middle 90%
pooled() {
	cat "$OUT"/"$1"-*.json 2>/dev/null | jq -s -r '[.[] | .paired.ratios[]? | select(.judged) | .samples[]] | sort
	  | if length == 0 then "none" else "\(100 * (.[length / 2 | floor] - 1) | . * 100 | round / 100)% [\(100 * (.[length / 20 | floor] - 1) | . * 100 | round / 100)%, \(100 * (.[length * 19 / 20 | floor] - 1) | . * 100 | round / 100)%] over \(length) generations" end'
}
echo "  the injection's size, the A/B trials' generations pooled: $(pooled pb) (median [5th, 95th percentile])"
echo "  the A/A trials' generations pooled, the harness's own: $(pooled pa)"

aa_r=$(count 1 1); aa_n=$(count 1 0); aa_i=$(count 1 4)
ab_r=$(count 2 1); ab_n=$(count 2 0); ab_i=$(count 2 4)
bad=$(($(failed 1) + $(failed 2)))
aa_t=$(col 1 2 | median); ab_t=$(col 2 2 | median)
aa_t90=$(col 1 2 | p90); ab_t90=$(col 2 2 | p90)

echo "== 3. the budget: bench --compare --time $PREC_T $ARGS"
t0=$(now)
"$BENCH" --compare --time "$PREC_T" $ARGS --format json >"$OUT/precision.json" 2>/dev/null
t1=$(now)
wall=$(elapsed "$t0" "$t1")
hw=$(jq '.paired.ratios[] | select(.name == "async/sync lib=archive wall") | .half_width_pct' "$OUT/precision.json")
share=$(jq --argjson w "$wall" '100 * .paired.timed_s / $w' "$OUT/precision.json")

echo
printf '%-44s %10s %10s\n' "" "A/A" "A/B +5%"
printf '%-44s %10s %10s\n' "regressed" "$aa_r/$N" "$ab_r/$N"
printf '%-44s %10s %10s\n' "no regression" "$aa_n/$N" "$ab_n/$N"
printf '%-44s %10s %10s\n' "inconclusive" "$aa_i/$N" "$ab_i/$N"
printf '%-44s %10s %10s\n' "verdict time, s: median" "$aa_t" "$ab_t"
printf '%-44s %10s %10s\n' "verdict time, s: 90th percentile" "$aa_t90" "$ab_t90"
printf '%-44s %10.1f%%\n' "timed share of --compare --time $PREC_T ($wall s)" "$share"
printf '%-44s %10.2f%%\n' "async/sync half-width" "$hw"
[ "$bad" -eq 0 ] || echo "power: $bad runs failed (exit status other than 0, 1 and 4): see $OUT" >&2

echo "power: load $LOAD; A/A regressed $aa_r/$N, no regression $aa_n/$N, inconclusive $aa_i/$N, median $aa_t s; A/B +5% regressed $ab_r/$N, no regression $ab_n/$N, inconclusive $ab_i/$N, median $ab_t s; timed share $(printf '%.1f' "$share")% of $PREC_T s"
# the targets: met or missed is a finding, said on the last line (exit 0);
# a failed run is exit 3; exit 2 is bad input alone
missed=$(awk -v n="$N" -v load="$LOAD" -v aar="$aa_r" -v aan="$aa_n" -v abr="$ab_r" -v abn="$ab_n" \
	-v aat="$aa_t" -v abt="$ab_t" -v share="$share" 'BEGIN {
	maxfa = int(n / 20); if (maxfa < 1) maxfa = 1
	m = ""
	if (aar > maxfa) m = m sprintf(", A/A regressed %d/%d > %d", aar, n, maxfa)
	if (abn > 0) m = m sprintf(", A/B no regression %d/%d > 0", abn, n)
	if (abr < (load > 0 ? 0.75 : 0.95) * n) m = m sprintf(", A/B regressed %d/%d < %d%%", abr, n, load > 0 ? 75 : 95)
	if (load == 0 && aan < 0.9 * n) m = m sprintf(", A/A no regression %d/%d < 90%%", aan, n)
	if (load == 0 && (aat > 15 || abt > 15)) m = m sprintf(", median verdict time %s/%s s > 15 s", aat, abt)
	if (load == 0 && share < 60) m = m sprintf(", timed share %.1f%% < 60%%", share)
	print substr(m, 3) }')
if [ -n "$missed" ]; then echo "power: targets missed: $missed"; else echo "power: targets met"; fi
[ "$bad" -eq 0 ] || exit 3
exit 0
