#!/usr/bin/env bash
# Build one kernel out of tree, with ccache: check out REF in TREE, configure
# tinyconfig + the given fragments, build bzImage into OBJ.
#
# Usage: scripts/build-kernel.sh [--llvm] TREE REF OBJ FRAGMENT...
#   --llvm: build with clang and lld (use_llvm in lib.sh), as KMSAN needs;
#   gcc otherwise.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# checkout TREE REF: the series tree (trees/BASE/src) keeps its branch;
# every other work tree is detached, so that it never takes a branch
# (series) away from the tree that holds it.
checkout() {
	local tree=$1 ref=$2
	case $tree in
	*/src) git -C "$tree" checkout -q "$ref" 2>/dev/null || git -C "$tree" checkout -q --detach "$ref" ;;
	*) git -C "$tree" checkout -q --detach "$ref" ;;
	esac || die "cannot check out $ref in $tree"
}

configure() {
	local tree=$1 obj=$2 frag
	shift 2
	kconfig_from "$tree" "$obj" tinyconfig "$@"
	# Every option a fragment asks for must have survived olddefconfig.
	for frag in "$@"; do
		verify_config "$obj" "$frag"
	done
}

main() {
	local cc=gcc
	if [ "${1:-}" = --llvm ]; then
		cc=$LLVM_CC
		use_llvm
		export KCONFIG_HOSTCC="ccache $cc"
		shift
	fi
	[ $# -ge 4 ] || die "usage: $0 [--llvm] TREE REF OBJ FRAGMENT..."
	local tree=$1 ref=$2 obj=$3
	shift 3
	need_cmd make "$cc" ccache flex bison bc
	use_ccache
	mkdir -p "$obj"
	checkout "$tree" "$ref"
	log "configuring $(basename "$obj") ($ref)"
	configure "$tree" "$obj" "$@"
	log "building $(basename "$obj") ($ref)"
	make -C "$tree" O="$obj" -j"$(nproc)" CC="ccache $cc" HOSTCC="ccache $cc" bzImage modules >"$obj/build.log" 2>&1 || {
		{ grep -E 'error|Error' "$obj/build.log" || true; } | head -n 20 >&2 || true
		tail -n 20 "$obj/build.log" >&2
		die "kernel build failed in $obj (log: $obj/build.log)"
	}
	log "built $obj/arch/x86/boot/bzImage"
}

main "$@"
