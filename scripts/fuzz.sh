#!/bin/sh
# Runs each libFuzzer target for a time from its seed corpus and fails on any
# finding (crash, hang, leak or sanitizer report): make fuzz.
#   scripts/fuzz.sh FUZZ_DIR SECONDS TARGET...
# New inputs go to FUZZ_DIR/corpus-TARGET (the seeds in tests/fuzz/corpus/
# are only read); a finding is saved as FUZZ_DIR/TARGET-crash-* and the run
# stops with status 1. One line per target says how many inputs it ran.
set -u
dir=$1
secs=$2
shift 2
status=0
for t in "$@"; do
	mkdir -p "$dir/corpus-$t"
	log="$dir/$t.log"
	# -timeout: an input taking over 10 s is a hang; -max_len: the largest seed
	# (a --compare baseline) fits twice
	"$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$dir/$t-" \
		"$dir/corpus-$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ "$rc" -ne 0 ]; then
		echo "fuzz $t: FINDING after ${execs:-?} inputs (exit $rc); see $log:" >&2
		grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 >&2
		status=1
	else
		echo "fuzz $t: ${execs:-?} inputs in ${secs} s, no finding (corpus $(ls "$dir/corpus-$t" | wc -l) files)"
	fi
done
exit $status
