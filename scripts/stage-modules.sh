#!/usr/bin/env bash
# Install the modules of a kernel build, with their modules.dep, into a
# staging directory that a test initramfs ships as /lib/modules. Optionally
# also build and install an external module directory against that build.
#
# Usage: scripts/stage-modules.sh TREE OBJ STAGE [EXT_DIR]
#   STAGE gets lib/modules/<release>/ (STAGE is emptied first).
#   EXT_DIR is a kbuild directory built with M=, e.g. the sample module of
#   the series copied out of a series tree to test it on stock.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

build_ext() {
	local tree=$1 obj=$2 ext=$3
	make -C "$tree" O="$obj" M="$ext" CC="ccache gcc" -j"$(nproc)" \
		CONFIG_SAMPLE_FTRACE_WEAK=m modules >"$ext/build.log" 2>&1 || {
		tail -n 20 "$ext/build.log" >&2
		die "external module build failed in $ext (log: $ext/build.log)"
	}
}

install_mods() {
	local tree=$1 obj=$2 stage=$3
	shift 3
	make -C "$tree" O="$obj" INSTALL_MOD_PATH="$stage" "$@" modules_install \
		>>"$stage.log" 2>&1 || {
		tail -n 20 "$stage.log" >&2
		die "modules_install failed (log: $stage.log)"
	}
}

main() {
	[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: $0 TREE OBJ STAGE [EXT_DIR]"
	local tree=$1 obj=$2 stage=$3 ext=${4:-}
	need_cmd make depmod
	use_ccache
	[ -s "$obj/modules.order" ] || die "no modules in $obj (build the kernel first)"
	rm -rf "$stage" "$stage.log"
	mkdir -p "$stage"
	install_mods "$tree" "$obj" "$stage"
	if [ -n "$ext" ]; then
		build_ext "$tree" "$obj" "$ext"
		install_mods "$tree" "$obj" "$stage" M="$ext"
	fi
	[ -s "$(echo "$stage"/lib/modules/*/modules.dep)" ] || die "no modules.dep in $stage"
	log "staged $(find "$stage" -name '*.ko' | wc -l) modules in $stage"
}

main "$@"
