# shellcheck shell=bash
# The ftrace selftests (ftracetest) on the end-to-end kernels.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# The modules of the e2e-KIND kernel, staged for the guest in
# $CACHE/test-e2e/KIND/stage, and the ftrace selftests of the series in
# $CACHE/test-e2e/KIND/tools/. On stock, the sample module of the series
# is built out of tree, so that the same tests run there.
t_e2e_stage() {
	local kind=$1 tree work=$CACHE/test-e2e/$1 ext=()
	tree=$(kind_tree "$TEST_BASE" "$kind")
	rm -rf "$work"
	mkdir -p "$work"
	git -C "$tree" archive series tools/testing/selftests/ftrace | tar -x -C "$work"
	if [ "$kind" = stock ]; then
		mkdir -p "$work/ext"
		git -C "$tree" archive series samples/ftrace | tar -x -C "$work/ext"
		ext=("$work/ext/samples/ftrace")
	fi
	# The tree the kernel was built from, as it was built (t_e2e_build).
	"$TOP/scripts/stage-modules.sh" "$tree" "$CACHE/build/$TEST_BASE/e2e-$kind" "$work/stage" "${ext[@]}"
	echo "  $kind: $(find "$work/stage" -name '*.ko' -printf '%f\n' | sort | paste -sd' ') staged with modules.dep${ext[*]:+; ftrace-weak.ko of the series built out of tree}"
}

# ftracetest in a guest of the e2e-KIND kernel, on a SET of tests: weak
# (the tests of the series) or basic (ftrace/func_mod_trace.tc and
# 00basic), each in a boot of its own.
t_ftracetest() {
	local kind=$1 set=$2 work=$CACHE/test-e2e/$1 out rc=0
	out=$work/ftracetest-$set
	[ -d "$work/stage" ] || { echo "no staged modules in $work (t_e2e_stage)"; return 1; }
	rm -rf "$out"
	mkdir -p "$out"
	case $set in
	weak) printf '%s\n' test.d/ftrace/func_mod_weak.tc test.d/ftrace/func_mod_weak_filter.tc ;;
	basic) printf '%s\n' test.d/ftrace/func_mod_trace.tc test.d/00basic ;;
	esac >"$out/ftracetest.list"
	"$TOP/scripts/mkinitramfs.sh" "$out/initrd.cpio" "$TOP/guest/ftracetest.sh" \
		"$work/stage/lib/modules" "$work/tools/testing/selftests/ftrace" "$out/ftracetest.list"
	"$TOP/scripts/run-guest.sh" "$(e2e_kernel "$kind")" \
		"$out/initrd.cpio" "$out/guest" 600
	"$TOP/scripts/ftracetest-cases.sh" "$out/guest/files/ftracetest.out" >"$out/cases" ||
		{ cat "$out/guest/files/ftracetest.out"; return 1; }
	grep -q "ftracetest rc=" "$out/guest/files/ftracetest.out"
	echo "  $kind kernel, ftracetest $(tr '\n' ' ' <"$out/ftracetest.list")in a fresh boot: $(cut -f3 "$out/cases" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')"
	# The basic set is judged against stock (t_ftracetest_vs_stock).
	if [ "$set" = weak ]; then
		export_cases "$kind: " "$out/cases"
		! grep -v '^PASS' "$out/cases" || rc=1
	fi
	if kernel_warned "$out/guest/files/dmesg"; then
		echo "the kernel warned"
		rc=1
	else
		echo "  no WARN or BUG in the kernel log"
	fi
	return $rc
}

# The ftracetest SET on patched, test by test, against stock: a test that
# passes on stock must pass on patched; one that does not pass on either,
# with the same result, is a skip (the guest or the base, not the series).
# Writes $CACHE/test-e2e/SET-vs-stock.cases for the summary.
t_ftracetest_vs_stock() {
	local set=$1 work=$CACHE/test-e2e out
	out=$work/$set-vs-stock.cases
	rm -f "$out"
	if [ ! -s "$work/stock/ftracetest-$set/cases" ] || [ ! -s "$work/patched/ftracetest-$set/cases" ]; then
		echo "no ftracetest results of the $set set on both kernels"
		return 1
	fi
	awk -F '\t' 'NR == FNR { stock[$2] = $3; next }
		{
			s = ($2 in stock) ? stock[$2] : "missing"
			if ($3 == "PASS" || $3 == "XFAIL") print "PASS\t" $2 "\t" $3
			else if ($3 == s) print "SKIP\t" $2 "\t" $3 " on stock too"
			else print "FAIL\t" $2 "\t" $3 ", on stock " s
		}' "$work/stock/ftracetest-$set/cases" "$work/patched/ftracetest-$set/cases" >"$out"
	echo "  $(grep -c '^PASS' "$out") pass on patched; not passing on either kernel, with the same result:"
	grep '^SKIP' "$out" | cut -f2,3 | sed 's/^/    /; s/\t/: /' || true
	export_cases "patched vs stock: " "$out"
	if grep '^FAIL' "$out"; then
		return 1
	fi
	echo "  no test that passes on stock fails on patched"
}
