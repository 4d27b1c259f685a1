#!/bin/sh
# make bench-mongocrypt, the bulk decryption part: the benchmark binary run
# PASSES times, each a separate process with the access modes in a rotated
# order (-mongocrypt.pass), appended to one file. Arguments:
#   TEST_BINARY OUT_FILE PASSES OPS BYTES [REPS [WARMUP]]
set -u
test_bin=$1 out=$2 passes=$3 ops=$4 bytes=$5 reps=${6:-10} warmup=${7:-1s}
: >"$out"
pass=1
while [ "$pass" -le "$passes" ]; do
	if ! "$test_bin" -test.run '^$' -test.bench '^BenchmarkBulkDecryption$' \
		-test.benchtime "${ops}x" -mongocrypt.bytes "$bytes" -mongocrypt.pass "$pass" \
		-mongocrypt.reps "$reps" -mongocrypt.warmup "$warmup" >>"$out" 2>&1; then
		cat "$out" >&2
		echo "bench-mongocrypt: the bulk decryption benchmark failed (pass $pass)" >&2
		exit 3
	fi
	pass=$((pass + 1))
done
