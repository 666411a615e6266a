#!/usr/bin/env bash
# Run a KUnit suite as a module in the guest: find MODULE.ko (default
# ftrace_locs_test, the series' suite) in a kernel build, boot that
# kernel with it (guest/kunit.sh loads it twice), parse the log with
# kunit.py and list the cases.
#
# Usage: scripts/kunit-guest.sh TREE OBJ OUT [MODULE [FUNCTION...]]
#   FUNCTION...: the second load runs under the function_graph tracer on
#   these functions only, called from the first; OUT/guest/files/graph has
#   their calls (graph_sums, guest/lib.sh);
#   OUT/guest/files/: the guest's dmesg (first load) and dmesg-all;
#   OUT/results.json and OUT/kunit.log: kunit.py parse;
#   OUT/cases: one "STATUS<TAB>suite.case<TAB>detail" line per case.
# Exit status: that of kunit.py parse (non-zero when a case failed).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	[ $# -ge 3 ] || die "usage: $0 TREE OBJ OUT [MODULE [FUNCTION...]]"
	local tree=$1 obj=$2 out=$3 mod=${4:-ftrace_locs_test} ko rc=0 files
	shift $(($# > 3 ? 4 : 3))
	rm -rf "$out"
	mkdir -p "$out/in"
	ko=$(find "$obj/lib" -name "$mod.ko")
	[ -n "$ko" ] || die "no $mod.ko in $obj/lib"
	files=("$ko")
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >"$out/in/graph"
		files+=("$out/in/graph")
	fi
	"$TOP/scripts/mkinitramfs.sh" "$out/kunit.cpio" "$TOP/guest/kunit.sh" "${files[@]}"
	"$TOP/scripts/run-guest.sh" "$obj/arch/x86/boot/bzImage" "$out/kunit.cpio" "$out/guest" 300
	python3 "$tree/tools/testing/kunit/kunit.py" parse --json="$out/results.json" \
		"$out/guest/files/dmesg" >"$out/kunit.log" 2>&1 || rc=$?
	[ -s "$out/results.json" ] || { tail -n 20 "$out/kunit.log" >&2; die "kunit.py parse wrote no results"; }
	"$TOP/scripts/kunit-cases.py" "$out/results.json" >"$out/cases"
	return $rc
}

main "$@"
