#!/usr/bin/env bash
# Run every test of the project and end with "N passed, N failed".
#
# Usage: tests/run.sh [BASE]        (default: 7.3, the mainline base)
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

main() {
	local base=${1:-7.3}
	lock_cache
	rm -rf "$LOGS"
	mkdir -p "$LOGS"
	"$TOP/scripts/install-deps.sh"
	export TEST_BASE=$base
	# shellcheck source=tests/checks.sh
	. "$TOP/tests/checks.sh"
	run_checks
	echo
	echo "tests took $((SECONDS / 60)) min $((SECONDS % 60)) s"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

main "$@"
