#!/bin/sh
# make test-under-load: runs a command while LOAD_LOOPS busy loops (default
# 4, twice the CPUs of the 2-CPU reference machine: a load average of about
# 5 with the command itself) compete with it at the same priority, and exits
# with the command's status.
#
# The loops are killed for sure: on any exit of this script (success,
# failure, SIGINT, SIGTERM, SIGHUP) by the trap; and, should this script be
# killed with SIGKILL (no trap runs), each loop ends by itself, since every
# iteration checks that this script is still its parent, and after
# LOAD_MAX_S seconds whatever happens.
#
#   sh scripts/under_load.sh COMMAND [ARG...]
set -u
LOOPS="${LOAD_LOOPS:-4}"
MAX_S="${LOAD_MAX_S:-900}"
case "$LOOPS" in '' | *[!0-9]*) echo "under_load: LOAD_LOOPS must be a whole number, not '$LOOPS'" >&2; exit 2 ;; esac
case "$MAX_S" in '' | *[!0-9]* | 0) echo "under_load: LOAD_MAX_S must be a whole number above 0, not '$MAX_S'" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "under_load: no command to run" >&2; exit 2; }

parent=$$
pids=""
stop() {
	[ -n "$pids" ] && kill $pids 2>/dev/null
	[ -n "$pids" ] && wait $pids 2>/dev/null
	pids=""
}
trap 'stop' EXIT
trap 'stop; trap - EXIT; exit 130' INT
trap 'stop; trap - EXIT; exit 143' TERM
trap 'stop; trap - EXIT; exit 129' HUP

i=0
while [ "$i" -lt "$LOOPS" ]; do
	# a busy loop that ends when this script is gone (it is then no longer
	# the loop's parent: /proc, read by a builtin, no fork) or the time is up
	sh -c 'end=$(($(date +%s) + $2)); n=0
		while read -r _ _ _ pp _ </proc/$$/stat && [ "$pp" = "$1" ]; do
			n=$((n + 1))
			[ $((n % 20000)) -ne 0 ] || [ "$(date +%s)" -lt "$end" ] || exit 0
		done' load "$parent" "$MAX_S" &
	pids="$pids $!"
	i=$((i + 1))
done
echo "under_load: $LOOPS busy loops at the same priority (pids$pids), load average $(cut -d' ' -f1-3 /proc/loadavg); running: $*" >&2

start=$(date +%s)
"$@"
rc=$?
echo "under_load: exit status $rc after $(($(date +%s) - start)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$rc"
