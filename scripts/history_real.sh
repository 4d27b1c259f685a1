#!/bin/sh
# make history-real K=24: the history of this repository's own last K
# commits (docs/results.md, "The history of the real commits").
#
# For each of the last K commits of the main line (git rev-list
# --first-parent, oldest first) it checks the commit out in a detached git
# worktree under a scratch directory, builds its build/bench there, and
# records one document of `bench --count instructions -n N` (and, with
# HISTORY_COMPARE=SECONDS, one of a short `bench --compare --time SECONDS`).
# Then build/cgocost-history reads them all: text on stdout, markdown,
# an HTML page and the gated series' chart beside the documents.
#
# Every document gets a source section (commit, commit time, label). A
# build that has --commit (this one and later) writes it itself; an older
# build cannot, so this script adds the section to its document with jq,
# the same keys the codec writes (docs/schema.md, "source"): the commit's
# own history is not rewritten, only the recorded document is labelled.
#
# A commit that does not build, or whose count fails, is skipped with a line
# saying why; the documents already recorded in OUT are kept, so a second
# run only measures what is missing.
#
# valgrind 3.19 cannot decode RDTSCP, which the Go runtime uses for its
# clock when the CPU has it (AMD EPYC guests: the counted child dies of
# SIGILL); GODEBUG=cpu.rdtscp=off makes the runtime take its fenced RDTSC
# instead, a handful of instructions in the scheduler's clock, not in an
# extraction. It is set for every count here.
#
# Environment: HISTORY_OUT (default build/history-real), HISTORY_SCRATCH
# (default a fresh directory under ${TMPDIR:-/tmp}), HISTORY_N (default
# 100000; make history-real: 50000), HISTORY_COMPARE (seconds of --compare; default: none),
# HISTORY_LABEL (default main), HISTORY_TOOL (default build/cgocost-history),
# HISTORY_REV (the newest commit, default HEAD).
set -u
K="${1:-24}"
case "$K" in '' | *[!0-9]*) echo "history_real.sh: K '$K' is not a number of commits" >&2; exit 2 ;; esac
[ "$K" -ge 1 ] || { echo "history_real.sh: K must be at least 1" >&2; exit 2; }
command -v jq >/dev/null || { echo "history_real.sh: jq is not in PATH (make setup installs it)" >&2; exit 2; }
# the repository of this script (tests/docs runs it from a mirror of the
# tree without .git: its scripts/ is a link into the repository)
REPO=$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --show-toplevel) || exit 2
OUT="${HISTORY_OUT:-$REPO/build/history-real}"
N="${HISTORY_N:-100000}"
LABEL="${HISTORY_LABEL:-main}"
TOOL="${HISTORY_TOOL:-$REPO/build/cgocost-history}"
SCRATCH="${HISTORY_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/cgocost-history.XXXXXX")}"
mkdir -p "$OUT/docs" "$SCRATCH" || exit 3
export GODEBUG="${GODEBUG:+$GODEBUG,}cpu.rdtscp=off"
start=$(date +%s)
got=0
skipped=0
i=0

# add_source FILE SHA TIME: the source section an old build could not write
add_source() {
	jq --arg c "$2" --arg t "$3" --arg l "$LABEL" \
		'if .source then . else .source = {commit: $c, commit_time: $t, label: $l} end' "$1" >"$1.tmp" &&
		mv "$1.tmp" "$1"
}

# record SHA TIME EXE NAME ARGS...: one document, labelled
record() {
	sha=$1 t=$2 exe=$3 name=$4
	shift 4
	doc="$OUT/docs/$name"
	[ -s "$doc" ] && return 0
	src=""
	"$exe" --help 2>/dev/null | grep -q -- '--commit-time' &&
		src="--commit $sha --commit-time $t --label $LABEL"
	# shellcheck disable=SC2086 # src is three options or none
	"$exe" "$@" $src --format json >"$doc.part" 2>"$doc.err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 4 ]; then
		echo "  $name: exit $rc: $(tail -1 "$doc.err")"
		rm -f "$doc.part"
		return 1
	fi
	[ -n "$src" ] || add_source "$doc.part" "$sha" "$t" || return 1
	mv "$doc.part" "$doc" && rm -f "$doc.err"
}

for sha in $(git -C "$REPO" rev-list --first-parent -n "$K" "${HISTORY_REV:-HEAD}" | tac); do
	i=$((i + 1))
	short=$(git -C "$REPO" rev-parse --short=7 "$sha")
	t=$(git -C "$REPO" show -s --format=%cI "$sha")
	# a prefix keeps the main line's order among commits of the same second
	name=$(printf '%03d-%s' "$i" "$short")
	if [ -s "$OUT/docs/$name-count.json" ] && { [ -z "${HISTORY_COMPARE:-}" ] || [ -s "$OUT/docs/$name-compare.json" ]; }; then
		echo "== $i/$K $short $t: recorded already"
		got=$((got + 1))
		continue
	fi
	wt="$SCRATCH/$short"
	echo "== $i/$K $short $t: build"
	git -C "$REPO" worktree add --detach -f "$wt" "$sha" >/dev/null 2>&1 || {
		echo "  skipped: no worktree"
		skipped=$((skipped + 1))
		continue
	}
	if ! make -C "$wt" build/bench >"$SCRATCH/$short-build.log" 2>&1; then
		why=$(grep -m1 'error:' "$SCRATCH/$short-build.log" || tail -1 "$SCRATCH/$short-build.log")
		echo "  skipped: the build failed: $why"
		skipped=$((skipped + 1))
	elif record "$sha" "$t" "$wt/build/bench" "$name-count.json" --count instructions -n "$N"; then
		got=$((got + 1))
		[ -z "${HISTORY_COMPARE:-}" ] ||
			record "$sha" "$t" "$wt/build/bench" "$name-compare.json" --compare --time "$HISTORY_COMPARE" ||
			echo "  (its --compare document is missing)"
	else
		skipped=$((skipped + 1))
	fi
	git -C "$REPO" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
done
echo "== $got of $K commits recorded, $skipped skipped, in $(($(date +%s) - start)) s; documents in $OUT/docs"
[ "$got" -ge 1 ] || exit 3
[ -x "$TOOL" ] || { echo "history_real.sh: $TOOL is not built (make all builds it)" >&2; exit 3; }
"$TOOL" --markdown "$OUT/docs" >"$OUT/history.md"
# a chart needs a series of two segments' commits (8)
[ "$got" -ge 8 ] && chart="--svg $OUT/history.svg" || chart=""
# shellcheck disable=SC2086 # chart is two words or none
"$TOOL" --html "$OUT/history.html" $chart "$OUT/docs"
status=$?
# this is a measurement, not a gate: a regression in the newest segment
# is said (and in history.md), the run still succeeded
[ "$status" -ne 1 ] || echo "== the newest segment of a gated series is a regression (cgocost-history exit 1)"
[ "$status" -le 1 ] || exit "$status"
echo "== $OUT/history.md, $OUT/history.html${chart:+, $OUT/history.svg}"
