#!/usr/bin/env bash
# One line per test of an ftracetest output: "STATUS<TAB>ftracetest:
# TITLE<TAB>RESULT". A test of test.d/ftrace (its title starts "ftrace - ")
# must pass; another one that cannot run in this guest (UNSUPPORTED,
# UNTESTED, UNRESOLVED) is a SKIP, with its result; FAIL and UNDEFINED
# fail. Exits 1 when the output holds no test at all.
#
# Usage: scripts/ftracetest-cases.sh FTRACETEST.OUT
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 FTRACETEST.OUT" >&2; exit 2; }
gawk -F '\t' '/^\[[0-9]+\] / {
	name = $1; sub(/^\[[0-9]+\] /, "", name)
	r = $NF; gsub(/[][]/, "", r)
	if (r == "PASS" || r == "XFAIL") s = "PASS"
	else if (r == "FAIL" || r == "UNDEFINED" || name ~ /^ftrace - /) s = "FAIL"
	else s = "SKIP"
	printf "%s\tftracetest: %s\t%s\n", s, name, r
	n++
}
END { if (!n) { print "no ftracetest result in " FILENAME > "/dev/stderr"; exit 1 } }' "$1"
