#!/usr/bin/env bash
# qemu-system-x86_64 for kunit.py. kunit.py asks qemu for "-accel kvm
# -accel hvf -accel tcg", and qemu takes the first one that opens: a KVM
# that opens but cannot run a guest (broken nested KVM) hangs the run.
# Keep only the accelerator that scripts/qemu-accel.sh finds working for
# the kernel being booted; pass everything else through.
#
# Run as "qemu-system-x86_64" through a symlink early in PATH (see
# scripts/kunit-run.sh); it runs the real qemu from /usr/bin.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

REAL_QEMU=/usr/bin/qemu-system-x86_64

# kernel_arg ARG...: the value of -kernel
kernel_arg() {
	while [ $# -gt 1 ]; do
		[ "$1" != -kernel ] || { echo "$2"; return 0; }
		shift
	done
	die "kunit-qemu: no -kernel argument"
}

main() {
	local kernel accel args=()
	[ -x "$REAL_QEMU" ] || die "no $REAL_QEMU (install qemu-system-x86)"
	kernel=$(kernel_arg "$@")
	accel=$("$TOP/scripts/qemu-accel.sh" "$kernel")
	while [ $# -gt 0 ]; do
		if [ "$1" = -accel ] && [ $# -ge 2 ]; then
			[ "$2" != "$accel" ] || args+=(-accel "$2")
			shift 2
			continue
		fi
		args+=("$1")
		shift
	done
	exec "$REAL_QEMU" "${args[@]}"
}

main "$@"
