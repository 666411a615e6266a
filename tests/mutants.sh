#!/usr/bin/env bash
# Show that the KUnit suite can fail: break the helpers it tests, one
# mutant at a time (tests/mutants/*.diff, each naming the cases that must
# catch it), build the suite as a module on the mutated tree, load it in
# the guest and check that those cases fail. The unmutated series runs
# first and must pass. Then the same for the ftracetest tests of the
# series (tests/mutants/selftest/*.diff, each naming the tests that must
# fail), on a test kernel built from the mutated tree. Then scenarios of
# tests/debug.sh (quick sizes) on a debug kernel built from the mutated
# tree (tests/mutants/debug/*.diff, each naming the scenarios that must
# fail). Last, build mutants (tests/mutants/build/*.diff, each naming a
# check of scripts/lib.sh that must fail on the debug kernel's objects of
# the mutated tree, and pass on the series' own). Then the second
# series' suite against its mutants (tests/mutants/lookup/*.diff, on
# branch lookup; -k matches them as lookup-FILE). Ends with
# "N passed, N failed, N skipped"; a mutant passes when everything it names failed.
#
# Usage: tests/mutants.sh [-k PATTERN] [BASE]   (default 7.3; about a
#                                   minute per mutant once the kernel is in ccache)
#   -k PATTERN: only the mutants whose file name (tests/mutants/*.diff,
#   tests/mutants/{selftest,debug,build}/*.diff) matches the extended
#   regular expression PATTERN; the unmutated suite runs first whenever
#   a KUnit mutant is picked (the build mutants check the series' own
#   objects first).
#        tests/mutants.sh --harness
#   --harness: instead, break the project's own parsers of guest output
#   (tests/mutants/harness/*.diff, on a copy of this repository) and check
#   that the fixture cases of tests/parsers.sh they name fail; seconds, no
#   kernel (the quick tier runs it as any:repo:parser-mutants).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/result.sh
. "$TOP/scripts/result.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=tests/checks/lookup.sh
. "$TOP/tests/checks/lookup.sh"

FRAG=$TOP/config/x86_64-bench.config
KFRAG=$TOP/config/e2e-series.config

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

# failed_lookup_cases DIR: failed_cases for the second series' suite
# (module_kallsyms_kunit.ko), built on the tree as it is (at lookup),
# and "init_index_split" when its second load did not index of the init
# symtab only what the core one lacks (init_index_split,
# tests/checks/lookup.sh).
failed_lookup_cases() {
	local dir=$1 obj=$CACHE/build/$BASE/kunit-lookup-mutant
	rm -rf "$dir"
	mkdir -p "$dir"
	"$TOP/scripts/build-kernel.sh" "$TREE" HEAD "$obj" "$FRAG" "$KFRAG" "$TOP/config/e2e-lookup.config" \
		>"$dir/build.log" 2>&1 || { tail -n 5 "$dir/build.log" >&2; return 1; }
	"$TOP/scripts/kunit-guest.sh" "$TREE" "$obj" "$dir/run" module_kallsyms_kunit \
		"${INDEX_BUILD_FUNCS[@]}" >"$dir/guest.log" 2>&1 || true
	[ -s "$dir/run/cases" ] || { tail -n 5 "$dir/guest.log" >&2; return 1; }
	awk -F '\t' '$1 == "FAIL" { sub(/^[^.]*\./, "", $2); print $2 }' "$dir/run/cases"
	# What no case sees: the init symtab split at load, not walked whole
	if [ ! -s "$dir/run/guest/files/graph" ] ||
		! init_index_split "$dir/run/guest/files/graph" >/dev/null; then
		echo init_index_split
	fi
}

# lookup_mutants BASE: the mutants of the second series (with -k, those
# picked), after its unmutated suite, on branch lookup of the mutant tree.
lookup_mutants() {
	local diff failed any=""
	[ -d "$TOP/patches/$1/$LOOKUP_SERIES" ] || return 0
	for diff in "$TOP/tests/mutants/lookup/"*.diff; do
		picked "lookup-${diff##*/}" && any=1
	done
	[ -n "$any" ] || return 0
	kind_tree "$1" lookup >/dev/null
	git -C "$TREE" checkout -q --detach lookup
	failed=$(failed_lookup_cases "$CACHE/mutants/lookup-baseline") || die "the unmutated second series' suite did not run"
	[ -z "$failed" ] || die "the unmutated second series' suite fails: $failed"
	result PASS "lookup-baseline" "every case passes on the second series as it is"
	for diff in "$TOP/tests/mutants/lookup/"*.diff; do
		picked "lookup-${diff##*/}" || continue
		run_mutant "$diff" failed_lookup_cases lookup-
	done
	git -C "$TREE" checkout -q --detach series
}

# run_mutant DIFF [CASES PREFIX]: apply DIFF to the tree as it is, run
# the suite there with CASES (default failed_cases; failed_lookup_cases
# for the second series' mutants, named PREFIX-FILE), and check that the
# cases DIFF names failed.
run_mutant() {
	local diff=$1 cases=${2:-failed_cases} name what expect failed c missed=""
	name=${3:-}$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	expect=$(sed -n 's/^Expect-fail: //p' "$diff")
	git -C "$TREE" apply "$diff" || die "mutant $name does not apply to $TREE"
	failed=$("$cases" "$CACHE/mutants/$name") || { restore; die "mutant $name: no test run"; }
	restore
	for c in $expect; do
		grep -qx "$c" <<<"$failed" || missed="$missed $c"
	done
	if [ -z "$missed" ]; then
		result PASS "$name ($what)" "caught by $(paste -sd' ' <<<"$failed")"
	else
		result FAIL "$name ($what)" "passed$missed"
	fi
}

# run_selftest_mutant DIFF: build the test kernel (config/e2e.config and
# e2e-series.config) on the tree with DIFF applied, run the ftracetest
# tests of the series on it (tests/checks/selftests.sh), and check that the tests
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
		# shellcheck source=tests/checks/selftests.sh
		. "$TOP/tests/checks/selftests.sh"
		"$TOP/scripts/build-kernel.sh" "$TREE" series "$CACHE/build/$BASE/e2e-mutant" \
			"$FRAG" "$TOP/config/e2e.config" "$TOP/config/e2e-series.config"
		t_e2e_stage mutant
		t_ftracetest mutant weak || true
	) >"$log" 2>&1 || { restore; tail -n 5 "$log" >&2; die "mutant $mut: no test run (log $log)"; }
	restore
	cases=$CACHE/test-e2e/mutant/ftracetest-weak/cases
	[ -s "$cases" ] || die "mutant $mut: no ftracetest results (log $log)"
	while IFS= read -r t; do
		grep -qF "FAIL	ftracetest: $t	" "$cases" || missed="$missed '$t'"
	done <<<"$want"
	if [ -z "$missed" ]; then
		result PASS "$mut ($what)" "failed: $(awk -F '\t' '$1 == "FAIL" { sub(/^ftracetest: /, "", $2); print $2 }' "$cases" | paste -sd';'); passed: $(awk -F '\t' '$1 == "PASS" { sub(/^ftracetest: /, "", $2); print $2 }' "$cases" | paste -sd';')"
	else
		result FAIL "$mut ($what)" "passed$missed"
	fi
}

# run_debug_mutant DIFF: the scenarios DIFF names, on a debug kernel of
# the series with DIFF applied (tests/debug.sh --mutant, quick sizes, no
# control boots: the patched kernel's runs show its detectors); each must
# fail.
run_debug_mutant() {
	local diff=$1 mut what want log cases s missed=""
	mut=debug-$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	want=$(sed -n 's/^Expect-fail: //p' "$diff")
	log=$CACHE/mutants/$mut.log
	mkdir -p "$CACHE/mutants"
	LOCKED=1 "$TOP/tests/debug.sh" --base "$BASE" --quick --mutant "$diff" --scenarios "$want" >"$log" 2>&1 || true
	cases=$CACHE/debug/$BASE-lazy/cases
	grep -q '^[A-Z]' "$cases" 2>/dev/null || die "mutant $mut: no scenario ran (log $log)"
	for s in $want; do
		grep -q "^FAIL	$s on debug-mutant-" "$cases" || missed="$missed $s"
	done
	if [ -z "$missed" ]; then
		result PASS "$mut ($what)" "failed: $(grep -o '^FAIL	[a-z-]* on debug-mutant-[a-z]*: [^(]*' "$cases" | cut -f2 | paste -sd';')"
	else
		result FAIL "$mut ($what)" "passed:$missed (log $log)"
	fi
}

# debug_objs OBJ LOG: the objects of the files the series changes, of
# the tree as it is, built in OBJ with the config of the debug kernels
# (tests/debug.sh, the quick tier's preemption model) by
# scripts/build-objs.sh; its output to LOG.
debug_objs() {
	"$TOP/scripts/build-objs.sh" "$TREE" series "$1" x86_64 tinyconfig "$FRAG" \
		"$TOP/config/debug.config" "$TOP/config/preempt-$(debug_model "$TREE").config" >>"$2" 2>&1
}

# run_build_mutant DIFF: the check DIFF names (a function of
# scripts/lib.sh, given kernel/module/kallsyms.o) must pass on the debug
# objects of the series as it is and fail on those of the tree with DIFF
# applied (debug_objs).
run_build_mutant() {
	local diff=$1 mut what check obj log out
	mut=build-$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	check=$(sed -n 's/^Expect-fail: //p' "$diff")
	obj=$CACHE/build/$BASE/objs-debug-mutant
	log=$CACHE/mutants/$mut.log
	mkdir -p "$CACHE/mutants"
	: >"$log"
	debug_objs "$obj" "$log" || die "mutant $mut: the series did not build (log $log)"
	out=$("$check" "$obj/kernel/module/kallsyms.o") ||
		die "mutant $mut: $check fails on the series as it is: $out"
	git -C "$TREE" apply "$diff" || die "mutant $mut does not apply to $TREE"
	debug_objs "$obj" "$log" || die "mutant $mut: the mutated tree did not build (log $log)"
	if out=$("$check" "$obj/kernel/module/kallsyms.o"); then
		result FAIL "$mut ($what)" "$check passed: $out"
	else
		result PASS "$mut ($what)" "$check failed: $out"
	fi
	restore
}

# run_harness_mutant DIFF: apply DIFF to a copy of this repository and run
# its tests/parsers.sh; the cases DIFF names must fail.
run_harness_mutant() {
	local diff=$1 name what copy out t missed=""
	name=harness-$(basename "$diff" .diff)
	what=$(sed -n 's/^Mutant: //p' "$diff")
	copy=$(mktemp -d)
	(cd "$TOP" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion --ignore-failed-read) | tar -xf - -C "$copy"
	git -C "$copy" apply "$diff" 2>/dev/null || (cd "$copy" && patch -s -p1 <"$diff") ||
		{ rm -rf "$copy"; die "mutant $name does not apply"; }
	out=$(CASES="" "$copy/tests/parsers.sh" 2>&1 || true)
	rm -rf "$copy"
	while IFS= read -r t; do
		grep -qF "FAIL  $t:" <<<"$out" || missed="$missed '$t'"
	done < <(sed -n 's/^Expect-fail: //p' "$diff")
	if [ -z "$missed" ]; then
		case_result PASS "$name ($what)" "failed: $(sed -n 's/^FAIL  \(parser: [^:]*\):.*/\1/p' <<<"$out" | paste -sd';')"
	else
		case_result FAIL "$name ($what)" "passed$missed"
	fi
}

# picked DIFF: whether DIFF is among the mutants -k asked for.
picked() {
	[ -z "$PICK" ] || grep -qE -- "$PICK" <<<"${1##*/}"
}

# kunit_mutants_picked: whether -k picks any mutant of the KUnit suite
# (tests/mutants/*.diff), the ones the KUnit baseline is for.
kunit_mutants_picked() {
	local diff
	for diff in "$TOP/tests/mutants/"*.diff; do
		picked "$diff" && return 0
	done
	return 1
}

main() {
	local diff failed
	PICK=""
	if [ "${1:-}" = -k ]; then
		[ $# -ge 2 ] || die "-k needs a PATTERN"
		PICK=$2
		shift 2
	fi
	if [ "${1:-}" = --harness ]; then
		for diff in "$TOP/tests/mutants/harness/"*.diff; do
			run_harness_mutant "$diff"
		done
		[ -n "${CASES:-}" ] || result_summary
		return
	fi
	BASE=${1:-7.3}
	# LOCKED=1: the caller holds the cache's lock (as for tests/debug.sh).
	[ -n "${LOCKED:-}" ] || lock_cache
	"$TOP/scripts/install-deps.sh"
	TREE=$(kind_tree "$BASE" mutant)
	git -C "$TREE" checkout -q --detach series
	[ -z "$(git -C "$TREE" status --porcelain)" ] || die "$TREE has local changes"
	trap restore EXIT
	if kunit_mutants_picked; then
		failed=$(failed_cases "$CACHE/mutants/baseline") || die "the unmutated suite did not run"
		[ -z "$failed" ] || die "the unmutated suite fails: $failed"
		result PASS "baseline" "every case passes on the series as it is"
	fi
	for diff in "$TOP/tests/mutants/"*.diff; do
		picked "$diff" || continue
		run_mutant "$diff"
	done
	for diff in "$TOP/tests/mutants/selftest/"*.diff; do
		picked "$diff" || continue
		run_selftest_mutant "$diff"
	done
	for diff in "$TOP/tests/mutants/debug/"*.diff; do
		picked "$diff" || continue
		run_debug_mutant "$diff"
	done
	for diff in "$TOP/tests/mutants/build/"*.diff; do
		picked "$diff" || continue
		run_build_mutant "$diff"
	done
	lookup_mutants "$BASE"
	echo
	result_summary
}

main "$@"
