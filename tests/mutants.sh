#!/usr/bin/env bash
# Show that the KUnit suite can fail: break the helpers it tests, one
# mutant at a time (tests/mutants/*.diff, each naming the cases that must
# catch it), build the suite as a module on the mutated tree, load it in
# the guest and check that those cases fail. The unmutated series runs
# first and must pass. Then the same for the ftracetest tests of the
# series (tests/mutants/selftest/*.diff, each naming the tests that must
# fail), on a test kernel built from the mutated tree. Ends with
# "N passed, N failed"; a mutant passes when everything it names failed.
#
# Usage: tests/mutants.sh [BASE]   (default 7.3; about a minute per mutant
#                                   once the kernel is in ccache)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

FRAG=$TOP/config/x86_64-bench.config
KFRAG=$TOP/config/ktest-series.config
PASSED=0
FAILED=0

# failed_cases DIR: build the suite on the tree as it is, run it in the
# guest, print the cases that failed (none when all passed).
failed_cases() {
	local dir=$1 obj=$CACHE/build/$BASE/kunit-mutant
	rm -rf "$dir"
	mkdir -p "$dir"
	"$TOP/scripts/build-kernel.sh" "$TREE" series "$obj" "$FRAG" "$KFRAG" >"$dir/build.log" 2>&1 ||
		{ tail -n 5 "$dir/build.log" >&2; return 1; }
	"$TOP/scripts/kunit-guest.sh" "$TREE" "$obj" "$dir/run" >"$dir/guest.log" 2>&1 || true
	[ -s "$dir/run/cases" ] || { tail -n 5 "$dir/guest.log" >&2; return 1; }
	awk -F '\t' '$1 == "FAIL" { sub(/^[^.]*\./, "", $2); print $2 }' "$dir/run/cases"
}

restore() {
	git -C "$TREE" checkout -q -- .
}

run_mutant() {
	local diff=$1 name what expect failed c missed=""
	name=$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	expect=$(sed -n 's/^Expect-fail: //p' "$diff")
	git -C "$TREE" apply "$diff" || die "mutant $name does not apply to $TREE"
	failed=$(failed_cases "$CACHE/mutants/$name") || { restore; die "mutant $name: no test run"; }
	restore
	for c in $expect; do
		grep -qx "$c" <<<"$failed" || missed="$missed $c"
	done
	if [ -z "$missed" ]; then
		PASSED=$((PASSED + 1))
		printf 'PASS  %s (%s): caught by %s\n' "$name" "$what" "$(paste -sd' ' <<<"$failed")"
	else
		FAILED=$((FAILED + 1))
		printf 'FAIL  %s (%s): passed%s\n' "$name" "$what" "$missed"
	fi
}

# run_selftest_mutant DIFF: build the test kernel (config/ktest.config and
# ktest-series.config) on the tree with DIFF applied, run the ftracetest
# tests of the series on it (tests/checks.sh), and check that the tests
# DIFF names fail.
run_selftest_mutant() {
	local diff=$1 mut what want cases t missed="" log
	mut=selftest-$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	want=$(sed -n 's/^Expect-fail: //p' "$diff")
	log=$CACHE/mutants/$mut.log
	mkdir -p "$CACHE/mutants"
	git -C "$TREE" apply "$diff" || die "mutant $mut does not apply to $TREE"
	(
		TEST_BASE=$BASE
		# shellcheck source=tests/checks.sh
		. "$TOP/tests/checks.sh"
		"$TOP/scripts/build-kernel.sh" "$TREE" series "$CACHE/build/$BASE/ktest-mutant" \
			"$FRAG" "$TOP/config/ktest.config" "$TOP/config/ktest-series.config"
		t_ktest_stage mutant
		t_ftracetest mutant weak || true
	) >"$log" 2>&1 || { restore; tail -n 5 "$log" >&2; die "mutant $mut: no test run (log $log)"; }
	restore
	cases=$CACHE/test-ktest/mutant/ftracetest-weak/cases
	[ -s "$cases" ] || die "mutant $mut: no ftracetest results (log $log)"
	while IFS= read -r t; do
		grep -qF "FAIL	ftracetest: $t	" "$cases" || missed="$missed '$t'"
	done <<<"$want"
	if [ -z "$missed" ]; then
		PASSED=$((PASSED + 1))
		printf 'PASS  %s (%s): failed: %s; passed: %s\n' "$mut" "$what" \
			"$(awk -F '\t' '$1 == "FAIL" { sub(/^ftracetest: /, "", $2); print $2 }' "$cases" | paste -sd';')" \
			"$(awk -F '\t' '$1 == "PASS" { sub(/^ftracetest: /, "", $2); print $2 }' "$cases" | paste -sd';')"
	else
		FAILED=$((FAILED + 1))
		printf 'FAIL  %s (%s): passed%s\n' "$mut" "$what" "$missed"
	fi
}

main() {
	local diff failed
	BASE=${1:-7.3}
	lock_cache
	"$TOP/scripts/install-deps.sh"
	TREE=$("$TOP/scripts/make-tree.sh" "$BASE")
	git -C "$TREE" checkout -q series
	[ -z "$(git -C "$TREE" status --porcelain)" ] || die "$TREE has local changes"
	trap restore EXIT
	failed=$(failed_cases "$CACHE/mutants/baseline") || die "the unmutated suite did not run"
	[ -z "$failed" ] || die "the unmutated suite fails: $failed"
	echo "PASS  baseline: every case passes on the series as it is"
	for diff in "$TOP/tests/mutants/"*.diff; do
		run_mutant "$diff"
	done
	for diff in "$TOP/tests/mutants/selftest/"*.diff; do
		run_selftest_mutant "$diff"
	done
	echo
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

main "$@"
