#!/usr/bin/env bash
# Build only the directories the series touches (kernel/trace,
# kernel/module, and lib/tests, or lib where there is no lib/tests as in
# 6.12) for one cell of the build matrix, out of tree with ccache, and fail
# on any warning in the files the series changes.
#
# Usage: scripts/build-objs.sh TREE REF OBJ ARCH BASECONFIG FRAGMENT...
#   ARCH: x86_64, arm64 or powerpc (cross compilers from Debian's
#   gcc-aarch64-linux-gnu and gcc-powerpc64le-linux-gnu), or x86_64-llvm
#   (clang-19 and lld-19, make LLVM=-19)
#   BASECONFIG: a make config target (tinyconfig, defconfig, ...)
#   Every CONFIG_ line of the last FRAGMENT must hold in the result.
#   W=1 in the environment builds with W=1 (extra warnings).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

TOUCHED='kernel/trace/ftrace|kernel/module/kallsyms\.c|include/linux/module\.h|lib/(tests/)?ftrace_locs|samples/ftrace/ftrace-weak'

# toolchain ARCH: set KARCH, CROSS_COMPILE, CC_NAME and HOSTCC_NAME for ARCH.
toolchain() {
	KARCH=$1
	CROSS_COMPILE=""
	CC_NAME=gcc
	HOSTCC_NAME=gcc
	case $1 in
	x86_64) ;;
	arm64) CROSS_COMPILE=aarch64-linux-gnu- ;;
	powerpc) CROSS_COMPILE=powerpc64le-linux-gnu- ;;
	x86_64-llvm)
		KARCH=x86_64
		CC_NAME=clang-19
		HOSTCC_NAME=clang-19
		export LLVM=-19
		need_cmd clang-19 ld.lld-19
		;;
	*) die "unknown ARCH '$1'" ;;
	esac
	CC_NAME=$CROSS_COMPILE$CC_NAME
	export ARCH=$KARCH CROSS_COMPILE
}

main() {
	[ $# -ge 6 ] || die "usage: $0 TREE REF OBJ ARCH BASECONFIG FRAGMENT..."
	local tree=$1 ref=$2 obj=$3 arch=$4 baseconfig=$5 lib
	shift 5
	toolchain "$arch"
	need_cmd "$CC_NAME" ccache make
	use_ccache
	git -C "$tree" checkout -q --detach "$ref" || die "cannot check out $ref"
	lib=lib/tests/
	[ -d "$tree/lib/tests" ] || lib=lib/
	kconfig_from "$tree" "$obj" "$baseconfig" "$@"
	verify_config "$obj" "${!#}"
	make -C "$tree" O="$obj" CC="ccache $CC_NAME" HOSTCC="ccache $HOSTCC_NAME" W="${W:-}" -j"$(nproc)" kernel/trace/ kernel/module/ "$lib" samples/ftrace/ \
		>"$obj/build.log" 2>&1 || {
		tail -n 20 "$obj/build.log" >&2
		die "build failed (log: $obj/build.log)"
	}
	if grep -E "($TOUCHED).*warning:" "$obj/build.log" >&2; then
		die "warnings in the files the series changes (log: $obj/build.log)"
	fi
	echo "$arch$([ -z "${W:-}" ] || echo " W=$W") $(basename "$obj"): kernel/trace, kernel/module, $lib and samples/ftrace built, $(grep -c 'warning:' "$obj/build.log" || true) warnings, none in the changed files"
}

main "$@"
