#!/bin/sh
# Installs what cgocost needs on a fresh Debian 12 machine: Debian packages
# through apt-get (only those missing, so a set-up machine costs nothing) and
# the Go modules pinned in go.mod/go.sum through the module proxy.
set -eu

# clang-14 with its sanitizer runtimes (libclang-rt-14-dev) and libFuzzer
# (libfuzzer-14-dev) build the fuzz targets (make fuzz). chromium renders the
# HTML report in its browser test (make test-browser, mk/report.mk), with the
# fonts its charts are measured in (fonts-liberation: gonum/plot's Liberation).
PKGS="gcc make pkg-config jq clang-format libcmocka-dev libjansson-dev libmongocrypt-dev \
golang-1.19-go libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 \
clang-14 libclang-rt-14-dev libfuzzer-14-dev chromium fonts-liberation valgrind linux-perf"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing Debian packages:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

GO="${GO:-go}"
"$GO" mod download
