#!/bin/sh
# make count-mongocrypt: instructions and system calls per operation of the
# Go->C micro benchmarks (go/mongocrypt), counted the way bench --count
# counts an extraction (docs/methodology.md, Counts): each benchmark runs
# alone at -test.benchtime Nx and 2Nx, under valgrind's cachegrind (with
# GODEBUG=asyncpreemptoff=1: valgrind cannot deliver the runtime's
# preemption signal; and cpu.rdtscp=off: valgrind 3.19 does not decode
# RDTSCP, which Go 1.26's runtime.cputicks runs where the CPU has it, in a
# contended lock's spin, SIGILL under valgrind on an AMD EPYC guest) and under perf stat -e raw_syscalls:sys_enter; the
# longer total less the shorter, over N, is the count per operation, and
# everything both runs do alike (start-up, the b.N=1 probe, exit) cancels.
# GOMAXPROCS=1: the benchmarks run one goroutine, and an idle P's thread
# spins looking for work for as long as it takes, which under valgrind
# (one thread at a time) put millions of instructions, different in every
# run, into the difference.
# PAIRS pairs of runs, alternating which length goes first. Arguments:
#   TEST_BINARY OUT_FILE N PAIRS BENCHMARK...
# OUT_FILE gets one line per benchmark in the go test format (benchstat
# reads instr/op and syscalls/op), then a comment line of every pair's
# values. Exit 3 when a tool is missing or a run fails, saying which.
set -u
test_bin=$1 out=$2 n=$3 pairs=$4
shift 4
for tool in valgrind perf; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "count-mongocrypt: $tool is not in PATH (make setup installs it): nothing counted" >&2
		exit 3
	fi
done
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM

# pattern NAME: the -test.bench expression of one benchmark, its name split
# into anchored parts (BenchmarkX/a=b/c=d).
pattern() {
	printf '%s\n' "$1" | awk -F/ '{ for (i = 1; i <= NF; i++) printf "%s^%s$", (i > 1 ? "/" : ""), $i }'
}

# under WHAT NAME LENGTH COMMAND...: the benchmark NAME run alone at
# LENGTHx under COMMAND (one goroutine), its output in $tmp/out and
# $tmp/err; a failure prints them (and perf's file, if this run wrote one)
# and exits 3.
under() {
	what=$1 bench=$2 length=$3
	shift 3
	rm -f "$tmp/perf"
	GOMAXPROCS=1 "$@" "$test_bin" -test.run '^$' -test.bench "$(pattern "$bench")" \
		-test.benchtime "${length}x" -test.count 1 >"$tmp/out" 2>"$tmp/err" || {
		cat "$tmp/err" "$tmp/out" >&2
		[ ! -f "$tmp/perf" ] || cat "$tmp/perf" >&2
		echo "count-mongocrypt: $bench at ${length}x failed under $what" >&2
		exit 3
	}
}

# instr NAME LENGTH: the run's I refs (every thread, user space).
instr() {
	under valgrind "$1" "$2" env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null
	v=$(sed -n 's/^==[0-9]*== I *refs: *//p' "$tmp/err" | tr -d ,)
	[ -n "$v" ] || { echo "count-mongocrypt: valgrind printed no I refs for $1" >&2; exit 3; }
	echo "$v"
}

# calls NAME LENGTH: the run's system calls.
calls() {
	under "perf stat" "$1" "$2" perf stat -x, -e raw_syscalls:sys_enter -o "$tmp/perf" --
	v=$(awk -F, '$3 == "raw_syscalls:sys_enter" { print $1 }' "$tmp/perf")
	case $v in
	'' | *[!0-9]*)
		cat "$tmp/perf" >&2
		echo "count-mongocrypt: perf stat cannot count raw_syscalls:sys_enter ($v): no tracepoint access?" >&2
		exit 3
		;;
	esac
	echo "$v"
}

# per_op COUNTER NAME: PAIRS differences over N, space-separated; the
# first pair runs the short length first, the next the long one, and so on.
per_op() {
	vals="" p=1
	while [ "$p" -le "$pairs" ]; do
		if [ $((p % 2)) -eq 1 ]; then
			s=$($1 "$2" "$n") || exit 3
			l=$($1 "$2" $((2 * n))) || exit 3
		else
			l=$($1 "$2" $((2 * n))) || exit 3
			s=$($1 "$2" "$n") || exit 3
		fi
		vals="$vals $(awk -v l="$l" -v s="$s" -v n="$n" 'BEGIN { printf "%.4f", (l - s) / n }')"
		p=$((p + 1))
	done
	echo "$vals"
}

median() {
	printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.4f", v[(NR + 1) / 2]; else printf "%.4f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$out.tmp"
echo "count-mongocrypt: $# benchmarks x $pairs pairs x (valgrind + perf) at ${n}x and $((2 * n))x" >&2
for name in "$@"; do
	i=$(per_op instr "$name") || exit 3
	c=$(per_op calls "$name") || exit 3
	printf '%s 1 %s instr/op %s syscalls/op\n' "$name" "$(median "$i")" "$(median "$c")" >>"$out.tmp"
	printf '# %s: instr/op by pair%s; syscalls/op by pair%s\n' "$name" "$i" "$c" >>"$out.tmp"
done
mv "$out.tmp" "$out"
