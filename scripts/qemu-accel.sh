#!/usr/bin/env bash
# Print the qemu accelerator to use: "kvm" when a bounded probe boot with
# KVM gets a guest to run its init, else "tcg". The answer is cached per
# host boot. FTRACE_MODSYMS_ACCEL=kvm|tcg skips the probe.
#
# Usage: scripts/qemu-accel.sh KERNEL
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

probe() {
	local kernel=$1 dir
	[ -w /dev/kvm ] || return 1
	dir=$(mktemp -d)
	printf '#!/bin/sh\necho kvm-probe-ok\n' >"$dir/t.sh"
	"$TOP/scripts/mkinitramfs.sh" "$dir/i.cpio" "$dir/t.sh"
	# A broken KVM may hang the guest (bounded here) or abort qemu.
	{ timeout -k 2 45 qemu-system-x86_64 -accel kvm -cpu host -m 256M -nographic \
		-no-reboot -nodefaults -kernel "$kernel" -initrd "$dir/i.cpio" \
		-append "console=ttyS0 panic=-1" -serial "file:$dir/console" \
		</dev/null >/dev/null 2>&1; } 2>/dev/null || true
	if grep -q '^kvm-probe-ok' "$dir/console" 2>/dev/null; then
		rm -rf "$dir"
		return 0
	fi
	rm -rf "$dir"
	return 1
}

main() {
	[ $# -eq 1 ] || die "usage: $0 KERNEL"
	local cache boot
	case ${FTRACE_MODSYMS_ACCEL:-} in
	kvm | tcg) echo "$FTRACE_MODSYMS_ACCEL"; return 0 ;;
	'') ;;
	*) die "FTRACE_MODSYMS_ACCEL must be kvm or tcg" ;;
	esac
	boot=$(cat /proc/sys/kernel/random/boot_id)
	cache=$CACHE/accel.$boot
	if [ ! -s "$cache" ]; then
		mkdir -p "$CACHE"
		if probe "$1"; then echo kvm >"$cache"; else echo tcg >"$cache"; fi
		log "qemu accelerator: $(cat "$cache") (KVM probe)"
	fi
	cat "$cache"
}

main "$@"
