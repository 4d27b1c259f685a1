# scripts/power_lib.sh — what the two power scripts (power.sh: the timing
# gate; power_counts.sh: the counting gate) share: the clock, a duration,
# the median of numbers on stdin, a change point as a percent, and the
# columns of $OUT/trials.txt. Sourced, not run.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the 90th percentile of numbers on stdin (the smallest value with at least
# 90% of them at or below it)
p90() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else { k = int(0.9 * NR + 0.999999); if (k < 1) k = 1; print v[k] } }'; }
# a change's point (a fraction, "nan" or "null") as "+1.42", or nan
percent() { awk -v p="${1:-nan}" 'BEGIN { if (p == "nan" || p == "null") print "nan"; else printf "%+.2f", 100 * p }'; }
# $OUT/trials.txt: one line a trial, " | " between its verdicts, each
# "<exit status> <seconds> <change %>"; field f of every trial's verdict c
col() { awk -F' [|] ' -v c="$1" -v f="$2" '{ split($c, x, " "); print x[f] }' "$OUT/trials.txt"; }
# how many of verdict c's trials exited with status s (default 1:
# regressed); how many with none of a verdict's 0, 1 and 4 (failed)
count() { col "$1" 1 | grep -c "^${2:-1}\$"; }
failed() { col "$1" 1 | grep -vc '^[014]$'; }
