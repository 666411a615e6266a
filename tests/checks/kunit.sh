# shellcheck shell=bash
# The KUnit suite of the series: built in (kunit.py run) and as a
# module in the guest.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# The KUnit suite the series adds, built in, run by kunit.py in qemu, for
# ARCH (x86_64 or powerpcle, see scripts/kunit-run.sh). Its cases are
# listed in $CACHE/test-kunit/builtin-ARCH/cases for the summary.
t_kunit_builtin() {
	local arch=$1 tree out=$CACHE/test-kunit/builtin-$1 build=$CACHE/build/$TEST_BASE/kunit-$1 rc=0 how
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	rm -rf "$out"
	"$TOP/scripts/kunit-run.sh" "$tree" series "$build" "$out" "$arch" || rc=$?
	git -C "$tree" checkout -q series
	[ -s "$out/results.json" ] || return 1
	"$TOP/scripts/kunit-cases.py" "$out/results.json" >"$out/cases"
	export_cases "kunit.py $arch: " "$out/cases"
	kunit_info "$build/test.log"
	case $arch in
	x86_64) how="qemu $("$TOP/scripts/qemu-accel.sh" "$build/arch/x86/boot/bzImage")" ;;
	*) how="qemu-system-ppc64 -M pseries, TCG" ;;
	esac
	echo "  kunit.py run --arch=$arch ($how): $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	return $rc
}

# kunit_info LOG [SUITE]: from a kernel log, the lines the cases of SUITE
# (default ftrace_locs) print about what they checked (not their pass/fail
# counts or failure reports).
kunit_info() {
	grep -v -e ' pass:[0-9]' -e 'EXPECTATION FAILED' "$1" |
		sed -n "s/^.*# \(${2:-ftrace_locs}_[a-z_]*: .*\)\$/  \1/p"
}

# The suite as a module, loaded twice in the guest: the agreement cases
# check the module's own records. Parsed with kunit.py parse.
t_kunit_module() {
	local tree obj=$CACHE/build/$TEST_BASE/e2e-patched out=$CACHE/test-kunit/module g rc=0
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	"$TOP/scripts/kunit-guest.sh" "$tree" "$obj" "$out" || rc=$?
	[ -s "$out/cases" ] || return 1
	export_cases "kunit module: " "$out/cases"
	g=$out/guest/files
	kunit_info "$g/dmesg"
	echo "  insmod ftrace_locs_test.ko, kunit.py parse: $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	[ $rc -eq 0 ] || return $rc
	passed_twice "$g" ftrace_locs
}

# passed_twice DIR SUITE: in DIR/dmesg-all (guest/kunit.sh: the module
# loaded, unloaded and loaded again), SUITE passed both times and the
# kernel did not warn.
passed_twice() {
	local runs
	runs=$(grep -c "^\[[0-9. ]*\] ok 1 $2\$" "$1/dmesg-all" || true)
	[ "$runs" -eq 2 ] || { echo "$runs passing runs of the suite in two loads"; return 1; }
	echo "  unloaded and loaded again: the suite passed both times"
	if kernel_warned "$1/dmesg-all"; then
		echo "the kernel warned"
		return 1
	fi
	echo "  no WARN or BUG in the kernel log"
}
