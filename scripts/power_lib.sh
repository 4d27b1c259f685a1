# scripts/power_lib.sh — what the two power scripts (power.sh: the timing
# gate; power_counts.sh: the counting gate) share: the clock, a duration,
# the median of numbers on stdin. Sourced, not run.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
