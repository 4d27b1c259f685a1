#!/bin/sh
# Installs what cgocost needs on a fresh Debian 12 machine, for the purposes
# named (scripts/packages.txt; none or "all": every purpose): the missing
# Debian packages through apt-get (only those missing, so a set-up machine
# costs nothing) and, for build and all, the Go modules pinned in
# go.mod/go.sum through the module proxy.
#
#   sh scripts/setup.sh [PURPOSE...]         install
#   sh scripts/setup.sh --list [PURPOSE...]  print the purposes' packages, install nothing
#
# Exit 2 for a purpose the table does not have.
set -eu

TABLE="$(dirname "$0")/packages.txt"
list=0
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
[ $# -gt 0 ] || set -- all

# the table's rows: package and purpose, comments and blank lines skipped
rows() { sed -e 's/#.*//' "$TABLE" | awk 'NF >= 2 { print $1, $2 }'; }

known=" all $(rows | awk '{ print $2 }' | sort -u | tr '\n' ' ')"
modules=0
for p in "$@"; do
	case "$known" in
	*" $p "*) ;;
	*)
		echo "setup: no purpose '$p' in $TABLE (one of:$known)" >&2
		exit 2
		;;
	esac
	[ "$p" != all ] && [ "$p" != build ] || modules=1
done

PKGS=$(rows | awk -v want=" $* " 'index(want, " all ") || index(want, " " $2 " ") { print $1 }' | tr '\n' ' ')
if [ $list -eq 1 ]; then
	echo $PKGS
	exit 0
fi

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup ($*): installing Debian packages:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

if [ $modules -eq 1 ]; then
	GO="${GO:-go}"
	"$GO" mod download
fi
