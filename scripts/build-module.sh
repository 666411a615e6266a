#!/usr/bin/env bash
# Build a generated external module against a built kernel.
#
# Usage: scripts/build-module.sh OBJ MODDIR
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	[ $# -eq 2 ] || die "usage: $0 OBJ MODDIR"
	local obj=$1 dir=$2
	[ -r "$obj/Module.symvers" ] || die "$obj is not a built kernel (no Module.symvers)"
	[ -d "$dir" ] || die "no module directory $dir"
	# kbuild wants M= absolute: it runs from OBJ.
	dir=$(cd "$dir" && pwd)
	use_ccache
	# A module is built with the compiler of its kernel.
	local cc=gcc
	if grep -qx 'CONFIG_CC_IS_CLANG=y' "$obj/.config"; then
		cc=$LLVM_CC
		use_llvm
	fi
	make -C "$obj" M="$dir" CC="ccache $cc" -j"$(nproc)" modules >"$dir/build.log" 2>&1 || {
		{ grep -iE 'error|warning' "$dir/build.log" || true; } | head -n 20 >&2 || true
		tail -n 5 "$dir/build.log" >&2
		die "module build failed in $dir (log: $dir/build.log)"
	}
	! grep -q 'warning:' "$dir/build.log" ||
		die "module build in $dir has warnings (log: $dir/build.log)"
}

main "$@"
