#!/usr/bin/env bash
# Make an uncompressed initramfs: static busybox, guest/init, guest/lib.sh,
# SCRIPT as /test.sh and FILES (files or directories) under /files.
#
# Usage: scripts/mkinitramfs.sh OUT.cpio SCRIPT [FILE...]
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	[ $# -ge 2 ] || die "usage: $0 OUT.cpio SCRIPT [FILE...]"
	local out=$1 script=$2 bb
	shift 2
	need_cmd cpio
	bb=/bin/busybox
	[[ $(file -L "$bb" 2>/dev/null) == *'statically linked'* ]] ||
		die "$bb is not a static busybox (install busybox-static)"
	ROOT=$(mktemp -d)
	trap 'rm -rf "$ROOT"' EXIT
	local root=$ROOT
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,files}
	cp "$bb" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	install -m 0755 "$TOP/guest/init" "$root/init"
	install -m 0644 "$TOP/guest/lib.sh" "$root/lib.sh"
	install -m 0755 "$script" "$root/test.sh"
	[ $# -eq 0 ] || cp -r "$@" "$root/files/"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$out" ||
		die "cannot write $out"
}

main "$@"
