#!/usr/bin/env bash
# Run every test of the project and end with "N passed, N failed".
#
# Usage: tests/run.sh [BASE]
#   Without BASE: every check on the mainline base (the first in bases),
#   then the backport checks (run_backport_checks) on each other base.
#   With BASE: every check on that base.
#
# Each check prints what it checked; its log is kept under
# $CACHE/test-logs/ and its tail is shown when it fails.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

PASSED=0
FAILED=0
LOGS=$CACHE/test-logs

# check NAME CMD...: run CMD, count and report it.
check() {
	local name=$1 logf rc=0 t0
	shift
	logf=$LOGS/$(tr -c 'A-Za-z0-9_.-' '_' <<<"$name").log
	t0=$SECONDS
	# In a subshell outside any "||" context, so that set -e holds in the
	# check: a failing step fails the check even if it is not the last.
	set +e
	(
		set -e
		"$@"
	) >"$logf" 2>&1
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		PASSED=$((PASSED + 1))
		printf 'PASS  %s (%ss)\n' "$name" $((SECONDS - t0))
		grep '^  ' "$logf" || true
	else
		FAILED=$((FAILED + 1))
		printf 'FAIL  %s (exit %s, log %s)\n' "$name" "$rc" "$logf"
		tail -n 30 "$logf" | sed 's/^/      /'
	fi
}

# count_cases WHAT FILE: count each case of FILE ("STATUS<TAB>name<TAB>
# detail" lines: scripts/kunit-cases.py, ftracetest_cases) in the summary;
# a skipped case counts as neither.
count_cases() {
	local what=$1 file=$2 status name detail
	[ -s "$file" ] || return 0
	while IFS=$'\t' read -r status name detail; do
		case $status in
		PASS) PASSED=$((PASSED + 1)) ;;
		SKIP) ;;
		*) FAILED=$((FAILED + 1)) ;;
		esac
		printf '%-5s %s: %s%s\n' "$status" "$what" "$name" "${detail:+ ($detail)}"
	done <"$file"
}

main() {
	local b mainline backports
	mainline=$(mainline_base)
	[ $# -eq 0 ] || base_info "$1" pkg >/dev/null
	lock_cache
	rm -rf "$LOGS"
	mkdir -p "$LOGS"
	"$TOP/scripts/install-deps.sh"
	# shellcheck source=tests/checks.sh
	. "$TOP/tests/checks.sh"
	export TEST_BASE=${1:-$mainline}
	run_checks
	if [ $# -eq 0 ]; then
		mapfile -t backports < <(awk '!/^#/ && $1 != m {print $1}' m="$mainline" "$TOP/bases")
		for b in "${backports[@]}"; do
			TEST_BASE=$b
			echo
			echo "== backport $b"
			run_backport_checks
		done
	fi
	echo
	echo "tests took $((SECONDS / 60)) min $((SECONDS % 60)) s"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

main "$@"
