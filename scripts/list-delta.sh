#!/usr/bin/env bash
# Print the lines a module load added to available_filter_functions: the
# difference between whole-file snapshots taken before and after the load.
# Lines that disappeared are an error (loading must only add records).
#
# Usage: scripts/list-delta.sh BEFORE AFTER
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	[ $# -eq 2 ] || die "usage: $0 BEFORE AFTER"
	local d
	[ -s "$1" ] || die "snapshot $1 is missing or empty"
	[ -s "$2" ] || die "snapshot $2 is missing or empty"
	d=$(mktemp)
	diff --unchanged-line-format= --old-line-format='-%L' \
		--new-line-format='+%L' "$1" "$2" >"$d" || true
	if grep -q '^-' "$d"; then
		{ grep '^-' "$d" || true; } | head -n 5 >&2 || true
		rm -f "$d"
		die "lines of $1 are missing from $2"
	fi
	sed -n 's/^+//p' "$d"
	rm -f "$d"
}

main "$@"
