#!/usr/bin/env bash
# Build one kernel out of tree, with ccache: check out REF in TREE, configure
# tinyconfig + the given fragments, build the image (bzImage on x86_64,
# vmlinux elsewhere) and the modules into OBJ. modpost checks that every
# module's undefined symbols are exported by vmlinux or another module.
#
# Usage: scripts/build-kernel.sh [--llvm | --arch ARCH] [--image-only] TREE REF OBJ FRAGMENT...
#   --llvm: x86_64 with clang and lld (use_llvm in lib.sh), as KMSAN needs
#   --arch ARCH: an ARCH of toolchain() in lib.sh (arm64 and powerpc are
#   cross-compiled)
#   x86_64 with gcc otherwise.
#   --image-only: the image without the modules, for a kernel that loads
#   modules built by another build of the same config (bench/real.sh).
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
	local arch=x86_64 image=bzImage modules=modules
	while [ $# -gt 0 ]; do
		case $1 in
		--llvm)
			arch=x86_64-llvm
			shift
			;;
		--arch)
			[ $# -ge 2 ] || die "--arch needs an ARCH"
			arch=$2
			shift 2
			;;
		--image-only)
			modules=""
			shift
			;;
		*) break ;;
		esac
	done
	[ $# -ge 4 ] || die "usage: $0 [--llvm | --arch ARCH] [--image-only] TREE REF OBJ FRAGMENT..."
	local tree=$1 ref=$2 obj=$3
	shift 3
	toolchain "$arch"
	[ "$KARCH" = x86_64 ] || image=vmlinux
	local targets=("$image")
	[ -z "$modules" ] || targets+=("$modules")
	export KCONFIG_HOSTCC="ccache $HOSTCC_NAME"
	need_cmd make "$CC_NAME" "$HOSTCC_NAME" ccache flex bison bc
	use_ccache
	mkdir -p "$obj"
	checkout "$tree" "$ref"
	log "configuring $(basename "$obj") ($ref, $arch)"
	configure "$tree" "$obj" "$@"
	log "building $(basename "$obj") ($ref, $arch)"
	make -C "$tree" O="$obj" -j"$(nproc)" CC="ccache $CC_NAME" HOSTCC="ccache $HOSTCC_NAME" \
		"${targets[@]}" >"$obj/build.log" 2>&1 || {
		{ grep -E 'error|Error|ERROR' "$obj/build.log" || true; } | head -n 20 >&2 || true
		tail -n 20 "$obj/build.log" >&2
		die "kernel build failed in $obj (log: $obj/build.log)"
	}
	log "built $image${modules:+ and modules} in $obj"
}

main "$@"
