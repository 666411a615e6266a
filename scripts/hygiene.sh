#!/usr/bin/env bash
# Count the warnings in the files the series touches, at one commit: the
# compiler's with W=1, sparse's (C=2) and kernel-doc -Wall's, per file.
# x86_64, tinyconfig + the bench config + KUnit with the suite as a module,
# out of tree with ccache.
#
# Usage: scripts/hygiene.sh TREE REF OBJ
# Prints one line per file that exists at REF: "FILE W1 SPARSE KDOC".
# SPARSE is "n/a" when the kernel refuses the installed sparse (7.x wants
# __typeof_unqual__, which bookworm's sparse 0.6.4 lacks).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

FILES=(
	kernel/trace/ftrace.c
	kernel/trace/ftrace_internal.h
	kernel/module/kallsyms.c
	include/linux/module.h
	lib/tests/ftrace_locs_kunit.c
	lib/tests/ftrace_locs_kunit.h
	lib/tests/ftrace_locs_kunit_funcs.c
	lib/ftrace_locs_kunit.c
	lib/ftrace_locs_kunit.h
	lib/ftrace_locs_kunit_funcs.c
	samples/ftrace/ftrace-weak-lib.c
	samples/ftrace/ftrace-weak-mod.c
	samples/ftrace/ftrace-weak.h
)

# count LOG FILE: warnings and errors reported at FILE:LINE in LOG
count() {
	local re=${2//./\\.}
	grep -cE "(^|/)$re:[0-9]+(:[0-9]+)?: (warning|error):" "$1" || true
}

main() {
	[ $# -eq 3 ] || die "usage: $0 TREE REF OBJ"
	local tree=$1 ref=$2 obj=$3 f objs=() sp
	need_cmd make gcc ccache sparse
	use_ccache
	git -C "$tree" checkout -q --detach "$ref" || die "cannot check out $ref"
	kconfig_from "$tree" "$obj" tinyconfig "$TOP/config/e2e-series.config" \
		"$TOP/config/x86_64-bench.config"
	verify_config "$obj" "$TOP/config/x86_64-bench.config"
	for f in "${FILES[@]}"; do
		[[ $f == *.c && -e $tree/$f ]] && objs+=("${f%.c}.o")
	done
	make -s -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" prepare >"$obj/prepare.log" 2>&1 ||
		{ tail -n 20 "$obj/prepare.log" >&2; die "make prepare failed"; }
	# W=1 changes the command line, so the objects are rebuilt with it;
	# then C=2 runs sparse on them without rebuilding.
	make -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" W=1 -j"$(nproc)" "${objs[@]}" >"$obj/w1.log" 2>&1 ||
		{ tail -n 20 "$obj/w1.log" >&2; die "W=1 build failed (log $obj/w1.log)"; }
	make -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" W=1 C=2 -j"$(nproc)" "${objs[@]}" >"$obj/sparse.log" 2>&1 ||
		{ tail -n 20 "$obj/sparse.log" >&2; die "sparse run failed (log $obj/sparse.log)"; }
	for f in "${FILES[@]}"; do
		[ -e "$tree/$f" ] || continue
		sp=n/a
		grep -q 'specified, but .* is not available or not up to date' "$obj/sparse.log" ||
			sp=$(count "$obj/sparse.log" "$f")
		# kernel-doc may print a warning twice: count distinct ones.
		"$tree/scripts/kernel-doc" -none -Wall "$tree/$f" >"$obj/kdoc.log" 2>&1 || true
		echo "$f $(count "$obj/w1.log" "$f") $sp $(grep -i 'warning' "$obj/kdoc.log" | sort -u | wc -l)"
	done
}

main "$@"
