#!/bin/sh
# make gate-mongocrypt's verdict (docs/ci.md, "Gating a Go binding of a C
# library"): two count files of scripts/count_mongocrypt.sh, the base
# build's and the head build's, judged benchmark by benchmark on
# instructions per operation, no clock. Each file holds, per benchmark, the
# per-pair counts (a comment line); counts repeat to a fraction of a
# percent, so a pair's spread is the noise:
#   regression     the head's smallest pair above the base's largest by more
#                  than THRESHOLD percent
#   no regression  the head's largest pair within THRESHOLD percent above
#                  the base's smallest
#   inconclusive   anything between (the pairs spread wider than the band)
# Arguments: BASE_COUNTS HEAD_COUNTS THRESHOLD_PCT. One line a benchmark,
# then the verdict; exit 0 no regression, 1 a regression (any benchmark),
# 4 inconclusive (none regressed, one could not tell), 2 bad input (a file
# missing, unreadable, or a benchmark of the head's missing in the base's).
set -u
if [ $# -ne 3 ]; then
	echo "gate_counts: usage: BASE_COUNTS HEAD_COUNTS THRESHOLD_PCT" >&2
	exit 2
fi
for f in "$1" "$2"; do
	if [ ! -r "$f" ]; then
		echo "gate_counts: cannot read $f" >&2
		exit 2
	fi
done
awk -v t="$3" '
function minmax(s, which,   n, a, i, m) {
	n = split(s, a, " ")
	m = a[1] + 0
	for (i = 2; i <= n; i++)
		if ((which == "min" && a[i] + 0 < m) || (which == "max" && a[i] + 0 > m))
			m = a[i] + 0
	return m
}
# "# NAME: instr/op by pair v1 v2; syscalls/op by pair ..."
function pairs(line,   s) {
	s = line
	sub(/^# [^:]*: instr\/op by pair */, "", s)
	sub(/;.*$/, "", s)
	return s
}
/^# [^ ]*: instr\/op by pair/ {
	name = $2
	sub(/:$/, "", name)
	if (NR == FNR)
		base[name] = pairs($0)
	else {
		head[name] = pairs($0)
		order[++n] = name
	}
}
END {
	if (n == 0) {
		print "gate_counts: no counted benchmark in the head file" > "/dev/stderr"
		exit 2
	}
	worst = 0
	for (i = 1; i <= n; i++) {
		name = order[i]
		if (!(name in base)) {
			printf "gate_counts: %s is not counted in the base file\n", name > "/dev/stderr"
			exit 2
		}
		blo = minmax(base[name], "min"); bhi = minmax(base[name], "max")
		hlo = minmax(head[name], "min"); hhi = minmax(head[name], "max")
		if (blo <= 0) {
			printf "gate_counts: %s: a base count of %g instructions cannot be judged\n", name, blo > "/dev/stderr"
			exit 2
		}
		lo = 100 * (hlo / bhi - 1); hi = 100 * (hhi / blo - 1)
		if (lo > t) { v = "regressed"; worst = 1 }
		else if (hi <= t) v = "no regression"
		else { v = "inconclusive"; if (worst == 0) worst = 4 }
		printf "%s: instr/op base [%s] head [%s]: change %+.2f%% .. %+.2f%% (threshold %+g%%): %s\n", name, base[name], head[name], lo, hi, t, v
	}
	if (worst == 1)
		print "verdict: regression detected (exit status 1)"
	else if (worst == 4)
		print "verdict: inconclusive: the pairs spread wider than the threshold; count more pairs (exit status 4)"
	else
		print "verdict: no regression (exit status 0)"
	exit worst
}' "$1" "$2"
