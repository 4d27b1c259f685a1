#!/bin/sh
# Runs fuzz targets for a time each, FUZZ_JOBS at a time (default: the
# number of CPUs), and fails on any finding (crash, hang, leak or sanitizer
# report; for Go, a failing input): make fuzz.
#   scripts/fuzz.sh FUZZ_DIR SECONDS TARGET...
# A TARGET is a libFuzzer target's name (FUZZ_DIR/fuzz_TARGET, its seeds in
# tests/fuzz/corpus/TARGET), or a Go fuzz test as PACKAGE:FuzzName (run by
# `$GO test -fuzz` in ./PACKAGE, one process each: Go fuzzes one target per
# invocation). libFuzzer's new inputs go to FUZZ_DIR/corpus-TARGET (the seeds
# are only read) and a finding is saved as FUZZ_DIR/TARGET-crash-*; Go keeps
# its new inputs in $(go env GOCACHE)/fuzz/ and writes a failing one to
# PACKAGE/testdata/fuzz/FuzzName/ (keep it in git). One line per target, in
# the order given, says how many inputs it ran; the status is 1 when any
# target found something.
set -u
dir=$1
secs=$2
shift 2
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
GO=${GO:-go}
mkdir -p "$dir"

# The name of a target's log and result files.
name_of() {
	case $1 in
	*:*) echo "go-${1##*:}" ;;
	*) echo "$1" ;;
	esac
}

# Whether a Go fuzz run that failed ended on Go's own fuzztime race
# (golang/go#75804, fixed in Go 1.27): when the -fuzztime deadline fires
# while a worker is busy, go test prints a bare "context deadline exceeded"
# under "--- FAIL" and exits 1, with no input written and nothing failing
# (a loaded machine, make test's three streams, is where it happens). A
# real finding writes its input ("Failing input written to"), or panics,
# or reports from the target's own code; any of those, and it is a finding.
go_deadline_race() {
	grep -q '^    context deadline exceeded$' "$1" &&
		! grep -qE 'Failing input|panic:|\.go:[0-9]+:' "$1"
}

# Runs one target; writes its summary line to FUZZ_DIR/NAME.result (the
# first word "ok" or "finding") and its output to FUZZ_DIR/NAME.log.
run_one() {
	t=$1
	n=$(name_of "$t")
	log="$dir/$n.log"
	case $t in
	*:*)
		pkg=${t%%:*}
		fn=${t##*:}
		# -parallel 1: one worker process, FUZZ_JOBS counts the CPUs;
		# -fuzzminimizetime 0: minimizing each new input (a 30 KB document)
		# took most of a run, at 0 executions a second
		$GO test -run '^$' -fuzz "^$fn\$" -fuzztime "${secs}s" -fuzzminimizetime 0 -parallel 1 "./$pkg" >"$log" 2>&1
		rc=$?
		last=$(grep 'execs: ' "$log" | tail -1)
		execs=$(echo "$last" | sed -n 's/.*execs: \([0-9]*\).*/\1/p')
		corpus=$(echo "$last" | sed -n 's/.*(total: \([0-9]*\)).*/\1/p')
		where="corpus ${corpus:-?} inputs, new ones in the Go cache's fuzz/ folder"
		if [ "$rc" -ne 0 ] && go_deadline_race "$log"; then
			rc=0
			where="$where; it ended on Go's fuzztime race, golang/go#75804: no input failed"
		fi
		;;
	*)
		mkdir -p "$dir/corpus-$t"
		# -timeout: an input taking over 10 s is a hang; -max_len: the
		# largest seed (a --compare baseline) fits twice
		"$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
			-print_final_stats=1 -artifact_prefix="$dir/$t-" \
			"$dir/corpus-$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		where="corpus $(ls "$dir/corpus-$t" | wc -l) files"
		;;
	esac
	if [ "$rc" -ne 0 ]; then
		{
			echo "finding fuzz $t: FINDING after ${execs:-?} inputs (exit $rc); see $log:"
			grep -E 'ERROR|SUMMARY|Test unit written|--- FAIL|Failing input|panic:' "$log" | head -5
		} >"$dir/$n.result"
	else
		echo "ok fuzz $t: ${execs:-?} inputs in ${secs} s, no finding ($where)" >"$dir/$n.result"
	fi
}

# Waits for the oldest running target and prints its summary.
status=0
running=""
report_oldest() {
	set -- $running
	pid=${1%%=*}
	n=${1#*=}
	shift
	running="$*"
	wait "$pid"
	if [ ! -s "$dir/$n.result" ]; then
		echo "fuzz $n: ended without a result; see $dir/$n.log" >&2
		status=1
	elif [ "$(sed -n '1s/ .*//p' "$dir/$n.result")" = ok ]; then
		sed '1s/^ok //' "$dir/$n.result"
	else
		sed '1s/^finding //' "$dir/$n.result" >&2
		status=1
	fi
}

count=0
for t in "$@"; do
	n=$(name_of "$t")
	rm -f "$dir/$n.result"
	run_one "$t" &
	running="$running $!=$n"
	count=$((count + 1))
	if [ "$count" -ge "$jobs" ]; then
		report_oldest
		count=$((count - 1))
	fi
done
while [ -n "$(echo $running)" ]; do
	report_oldest
done
exit $status
