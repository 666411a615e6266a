#!/usr/bin/env bash
# Build only the directories the series touches (kernel/trace,
# kernel/module) for one cell of the build matrix, out of tree with ccache,
# and fail on any warning in the files the series changes.
#
# Usage: scripts/build-objs.sh TREE REF OBJ ARCH BASECONFIG FRAGMENT...
#   ARCH: x86_64, arm64 or powerpc (cross compilers from Debian's
#   gcc-aarch64-linux-gnu and gcc-powerpc64le-linux-gnu)
#   BASECONFIG: a make config target (tinyconfig, defconfig, ...)
#   Every CONFIG_ line of the last FRAGMENT must hold in the result.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

TOUCHED='kernel/trace/ftrace\.c|kernel/module/kallsyms\.c|include/linux/module\.h'

cross() {
	case $1 in
	x86_64) echo "" ;;
	arm64) echo aarch64-linux-gnu- ;;
	powerpc) echo powerpc64le-linux-gnu- ;;
	*) die "unknown ARCH '$1'" ;;
	esac
}

main() {
	[ $# -ge 6 ] || die "usage: $0 TREE REF OBJ ARCH BASECONFIG FRAGMENT..."
	local tree=$1 ref=$2 obj=$3 arch=$4 baseconfig=$5 cc
	shift 5
	cc=$(cross "$arch")
	need_cmd "${cc}gcc" ccache make
	use_ccache
	export ARCH=$arch CROSS_COMPILE=$cc
	git -C "$tree" checkout -q --detach "$ref" || die "cannot check out $ref"
	kconfig_from "$tree" "$obj" "$baseconfig" "$@"
	verify_config "$obj" "${!#}"
	make -C "$tree" O="$obj" CC="ccache ${cc}gcc" -j"$(nproc)" kernel/trace/ kernel/module/ \
		>"$obj/build.log" 2>&1 || {
		tail -n 20 "$obj/build.log" >&2
		die "build failed (log: $obj/build.log)"
	}
	if grep -E "($TOUCHED).*warning:" "$obj/build.log" >&2; then
		die "warnings in the files the series changes (log: $obj/build.log)"
	fi
	echo "$arch $(basename "$obj"): kernel/trace and kernel/module built, $(grep -c 'warning:' "$obj/build.log" || true) warnings, none in the changed files"
}

main "$@"
