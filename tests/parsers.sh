#!/usr/bin/env bash
# The parsers that judge guest output, on the small logs of
# tests/fixtures/ (no kernel, no qemu): KUnit cases (scripts/kunit-cases.py),
# ftracetest results (scripts/ftracetest-cases.sh), the lines a module
# load adds (scripts/list-delta.sh), the splat detector, the KMSAN report
# reader and the verdict of a boot (scripts/splat.sh), the benchmark's
# medians (scripts/stats.sh) and the times and index bytes of one load
# (insmod_times, guest/lib.sh), and for the second series' lookups the
# time of one operation (op_us, guest/lib.sh), the index build's time
# (graph_us, guest/lib.sh), a function_graph trace summed per function
# (graph_sums, guest/lib.sh, for bench/profile.sh), the index build's
# calls at a load (init_index_split, tests/checks/lookup.sh), the /proc/kallsyms lines
# and the sprint_symbol() runs made comparable across kernels
# (kallsyms_lines, sprint_lines, bench/lib.sh) and their table
# (bench/report.sh).
# Each fixture has the output its parser must give; ends with
# "N passed, N failed, N skipped" (tests/run.sh runs it first, as
# any:repo:parsers).
#
# Usage: tests/parsers.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/result.sh
. "$TOP/scripts/result.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=scripts/stats.sh
. "$TOP/scripts/stats.sh"
# shellcheck source=guest/lib.sh
. "$TOP/guest/lib.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"
# shellcheck source=bench/report.sh
. "$TOP/bench/report.sh"
# shellcheck source=tests/checks/lookup.sh
. "$TOP/tests/checks/lookup.sh"

FIX=$TOP/tests/fixtures

# expect NAME EXPECTED CMD...: CMD's output must be EXPECTED's content.
expect() {
	local name=$1 want=$2 got
	shift 2
	if ! got=$("$@" 2>&1); then
		case_result FAIL "$name" "exited non-zero: $(head -n 3 <<<"$got" | paste -sd' ')"
	elif [ "$got" = "$(cat "$want")" ]; then
		case_result PASS "$name" "$(wc -l <"$want") lines as expected"
	else
		case_result FAIL "$name" "differs from $want: $(diff <(echo "$got") "$want" | head -n 4 | paste -sd' ')"
	fi
}

# long_console FILE: a console whose test started early and went on for
# more than a pipe buffer, with a WARNING at its end: after the boot.
long_console() {
	local i
	{
		echo 'Linux version 7.3.0 (fixture)'
		echo 'GUEST-START'
		for ((i = 0; i < 2000; i++)); do
			echo "[    1.000000] line $i of a test that prints more than a pipe buffer"
		done
		echo '[    9.000000] WARNING: CPU: 0 PID: 1 at lib/fixture.c:1 fixture+0x0/0x10'
		echo 'GUEST-DONE rc=0'
	} >"$1"
}

# set_verdicts DIR: the verdict and files of each scenario of the set run
# in DIR, once split_boot has made it into one run per scenario.
set_verdicts() {
	local t s
	t=$(mktemp -d)
	split_boot "$1" "$t" load,parallel,tracing,cycles,nomem
	for s in load parallel tracing cycles nomem; do
		echo "$s: $(boot_verdict "$t/$s"); files: $(find "$t/$s/files" -type f -printf '%f\n' | sort | paste -sd' ')"
	done
	rm -rf "$t"
}

# load_times DIR: insmod_times of each trace of one load in DIR, by name.
load_times() {
	local f
	for f in "$1"/*.trace; do
		echo "$(basename "$f" .trace): $(insmod_times "$f")"
	done
}

# refuses NAME PATTERN CMD...: CMD must fail with an error matching PATTERN.
refuses() {
	local name=$1 pat=$2 got
	shift 2
	if got=$("$@" 2>&1); then
		case_result FAIL "$name" "accepted bad input"
	elif grep -qE "$pat" <<<"$got"; then
		case_result PASS "$name" "refused: $(grep -E -m1 "$pat" <<<"$got")"
	else
		case_result FAIL "$name" "unclear error: $(head -n 2 <<<"$got" | paste -sd' ')"
	fi
}

# lookup_report DIR: the lookups' table of DIR/lookups.tsv and
# DIR/summary.tsv (the loads' summary), as bench/report.sh writes it.
lookup_report() {
	local t rc=0
	t=$(mktemp)
	SIZE=functions UNIT=ms LOAD=insmod
	lookup_summary "$1/lookups.tsv" >"$t"
	lookup_table "$t" "$1/summary.tsv" "$1/lookups.tsv" || rc=1
	rm -f "$t"
	return $rc
}

main() {
	local d long
	expect "parser: KUnit cases from kunit.py json" "$FIX/kunit/expect" \
		"$TOP/scripts/kunit-cases.py" "$FIX/kunit/results.json"
	refuses "parser: KUnit json with no case" 'no KUnit case' \
		"$TOP/scripts/kunit-cases.py" <(echo '{"sub_groups": []}')
	expect "parser: ftracetest results" "$FIX/ftracetest/expect" \
		"$TOP/scripts/ftracetest-cases.sh" "$FIX/ftracetest/out"
	refuses "parser: ftracetest output with no test" 'no ftracetest result' \
		"$TOP/scripts/ftracetest-cases.sh" <(echo 'ftracetest rc=1')
	expect "parser: lines a load adds" "$FIX/delta/expect" \
		"$TOP/scripts/list-delta.sh" "$FIX/delta/before" "$FIX/delta/loaded"
	refuses "parser: a load that lost lines" 'missing from' \
		"$TOP/scripts/list-delta.sh" "$FIX/delta/before" "$FIX/delta/lost"
	for d in pass warn noend hang failed early; do
		expect "parser: boot verdict, $d" "$FIX/boot/$d/expect" boot_verdict "$FIX/boot/$d"
	done
	long=$(mktemp)
	long_console "$long"
	expect "parser: a splat after the test started, in a console longer than a pipe buffer, is not one during boot" \
		/dev/null splat_in_boot "$long"
	rm -f "$long"
	expect "parser: a run of several scenarios, split into one per scenario" "$FIX/boot/set/expect" set_verdicts "$FIX/boot/set"
	expect "parser: KMSAN reports, with the variable and frame they name" "$FIX/kmsan/expect" \
		kmsan_reports "$FIX/kmsan/stock-console.log"
	expect "parser: no KMSAN report in a clean boot" /dev/null kmsan_reports "$FIX/boot/pass/console.log"
	expect "parser: benchmark medians and ranges" "$FIX/bench/expect" summarize "$FIX/bench/times.tsv"
	expect "parser: times and index bytes of one load" "$FIX/insmod/expect" load_times "$FIX/insmod"
	expect "parser: the time of one lookup operation" "$FIX/lookups/op.expect" op_us "$FIX/lookups/op.trace"
	refuses "parser: a lookup operation without its end marker" 'missing op markers' \
		op_us <(head -n 7 "$FIX/lookups/op.trace")
	expect "parser: the index build's time, from function_graph" "$FIX/lookups/graph.expect" \
		graph_us "$FIX/lookups/graph.trace" index_kallsyms
	refuses "parser: a trace without the index build" 'no function_graph line' \
		graph_us <(grep -v index_kallsyms "$FIX/lookups/graph.trace") index_kallsyms
	expect "parser: calls and time per function of a function_graph trace" "$FIX/profile/graph.expect" \
		graph_sums "$FIX/profile/graph.trace"
	expect "parser: the index build's calls, the init symtab split" "$FIX/lookups/split.expect" \
		init_index_split "$FIX/lookups/split.graph"
	refuses "parser: the index build's calls, the init symtab walked too" '2 index_collect_all\(\), 0 mod_kallsyms_index_init' \
		init_index_split "$FIX/lookups/walked.graph"
	expect "parser: /proc/kallsyms lines, text addresses as offsets" "$FIX/lookups/kallsyms.expect" \
		kallsyms_lines "$FIX/lookups/kallsyms"
	expect "parser: sprint_symbol() runs, but the last of MOD_DATA" "$FIX/lookups/sprint.expect" \
		sprint_lines "$FIX/lookups/sprint" m
	expect "parser: sprint_symbol() runs of kvm.ko, without read-only data" "$FIX/lookups/sprint-kvm.expect" \
		sprint_lines "$FIX/lookups/sprint" kvm
	expect "parser: the lookups' table (medians, speed-ups, index build share, index bytes)" "$FIX/lookups/table.expect" \
		lookup_report "$FIX/lookups"
	[ -n "${CASES:-}" ] || result_summary
}

main "$@"
