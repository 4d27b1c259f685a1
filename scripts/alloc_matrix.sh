#!/bin/sh
# make alloc-matrix: the lifecycle and extraction scenarios, and the
# mongocrypt bulk decryption at one thread, under every allocator the
# machine has; one table: scenario x allocator, the median with its
# interval, and the change against glibc with its interval and verdict.
# Allocators are interleaved round by round, never run one after another.
set -u
BUILD="${1:-build}"
GO="${GO:-go}"
BENCH="$BUILD/bench"
OUT="${ALLOC_OUT:-$BUILD/alloc-matrix}"
N="${ALLOC_N:-200000}" # extractions per batch of the extraction loop
LAUNCHES="${ALLOC_LAUNCHES:-10}"
ROUNDS="${ALLOC_MONGO_ROUNDS:-6}"
mkdir -p "$OUT"
start=$(date +%s)

have=""
for a in glibc jemalloc tcmalloc mimalloc; do
	if "$BENCH" --malloc "$a" -n 100 -r 1 --warmup 0 >/dev/null 2>"$OUT/probe.err"; then
		have="$have${have:+,}$a"
	else
		echo "alloc-matrix: skipping $a: $(head -1 "$OUT/probe.err")"
	fi
done
echo "== allocators: $have ($LAUNCHES launches each, interleaved)"

echo "== lifecycle: plugin instance alloc vs reuse (sync and async)"
"$BENCH" --allocators "$have" --scenario lifecycle -n 4000 -r 10 --launches "$LAUNCHES" 2>/dev/null || exit 3
"$BENCH" --allocators "$have" --scenario lifecycle -a -n 300 -r 10 --warmup 20 --launches "$LAUNCHES" 2>/dev/null || exit 3
echo "== extraction loop (sync and async)"
"$BENCH" --allocators "$have" -n "$N" -r 10 --launches "$LAUNCHES" 2>/dev/null || exit 3
"$BENCH" --allocators "$have" -a -n "$N" -r 10 --launches "$LAUNCHES" 2>/dev/null || exit 3

echo "== allocations per iteration (glibc, counted by the preloaded counter)"
"$BENCH" --scenario lifecycle -n 2000 -r 2 --count-allocs 2>/dev/null | grep -E "C-side|Go .* allocated"
"$BENCH" --scenario lifecycle -a -n 500 -r 2 --count-allocs 2>/dev/null | grep -E "C-side|Go .* allocated"

echo "== mongocrypt bulk decryption, native crypto, 1 thread (ns per bulk operation of 1500 values)"
if ! $GO test -c -o "$OUT/mongocrypt.test" ./go/mongocrypt >"$OUT/build.log" 2>&1; then
	echo "alloc-matrix: skipping mongocrypt: cannot build its benchmark ($(tail -1 "$OUT/build.log"))"
else
	for a in $(echo "$have" | tr , ' '); do : >"$OUT/mongo-$a.txt"; done
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		for a in $(echo "$have" | tr , ' '); do
			pre=""
			case $a in
			jemalloc) pre=libjemalloc.so.2 ;;
			tcmalloc) pre=libtcmalloc_minimal.so.4 ;;
			mimalloc) pre=libmimalloc.so.2 ;;
			esac
			# verified, not assumed: the process that becomes the benchmark
			# (exec keeps the process and its LD_PRELOAD) has the allocator
			# mapped before it execs; no timing, no race
			LD_PRELOAD="$pre" sh -c '[ -z "$1" ] || grep -q "$1" /proc/$$/maps || exit 97; shift; exec "$@"' \
				check "$pre" "$OUT/mongocrypt.test" -test.run '^$' \
				-test.bench 'BulkDecryption/^crypto=native$/^access=accessor$/^threads=1$' \
				-test.count 1 -test.benchtime 20x -mongocrypt.reps=5 -mongocrypt.warmup=300ms \
				>"$OUT/mongo-run.txt" 2>&1
			if [ $? -eq 97 ]; then
				echo "alloc-matrix: $a is not mapped in the mongocrypt benchmark (round $r)"
			fi
			awk '/^BenchmarkBulkDecryption/ { for (i = 1; i < NF; i++) if ($(i+1) == "ns/op") print $i }' \
				"$OUT/mongo-run.txt" >>"$OUT/mongo-$a.txt"
		done
		r=$((r + 1))
	done
	for a in $(echo "$have" | tr , ' '); do
		med=$(sort -g "$OUT/mongo-$a.txt" | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f", (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }')
		printf '  %-9s median %s ns/op over %s runs' "$a" "${med:-n/a}" "$(wc -l <"$OUT/mongo-$a.txt")"
		if [ "$a" != glibc ]; then
			printf '  '
			"$BENCH" --judge "$OUT/mongo-glibc.txt" "$OUT/mongo-$a.txt" 2>&1 | tr -d '\n'
		fi
		echo
	done
fi
echo "== no allocator can touch the Go heap (the runtime's own allocator serves Go objects): the Go allocations above stay whatever the allocator."
echo "== make alloc-matrix took $(( $(date +%s) - start )) s"
