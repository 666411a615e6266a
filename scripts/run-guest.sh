#!/usr/bin/env bash
# Boot a kernel with an initramfs in qemu and wait for its /test.sh.
#
# Usage: scripts/run-guest.sh KERNEL INITRAMFS OUTDIR TIMEOUT_SECONDS
#
# OUTDIR/console.log gets the serial console, OUTDIR/data.log what the guest
# sent over ttyS1; OUTDIR/files/NAME each file framed there by send().
# Exit 0 only when the guest reached "GUEST-DONE rc=0". GUEST_CMDLINE adds
# to the kernel command line, GUEST_SMP sets the vCPUs (default 1).
# GUEST_CLOCK=icount runs the guest under TCG with -icount
# shift=0,sleep=off, even where KVM works: its clock then advances one
# nanosecond per guest instruction (and jumps to the next timer when the
# guest idles), so a time measured in the guest is an instruction count,
# the same on every run whatever else the host is doing.
# GUEST_PREALLOC=1 has qemu allocate and touch all guest RAM before the
# guest starts (-mem-prealloc): otherwise the host faults in each page the
# guest touches for the first time, and a kernel buffer on memory the
# guest never used before costs those faults, which a kernel on hardware
# does not pay (the benchmarks set it).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

split_data() {
	local data=$1 dir=$2
	mkdir -p "$dir"
	awk -v dir="$dir" '
		/^=== BEGIN / { f = dir "/" $3; printf "" > f; next }
		/^=== END / { close(f); f = ""; next }
		f != "" { print > f }' "$data"
}

# host_tsc_khz: the host's TSC frequency in kHz, from the kernel's own
# calibration when its log is readable, else from /proc/cpuinfo.
host_tsc_khz() {
	local mhz
	mhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p; s/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] || mhz=$(awk -F': *' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	[ -n "$mhz" ] || die "cannot tell the host's TSC frequency (dmesg, /proc/cpuinfo)"
	awk -v m="$mhz" 'BEGIN { printf "%d", m * 1000 + 0.5 }'
}

main() {
	[ $# -eq 4 ] || die "usage: $0 KERNEL INITRAMFS OUTDIR TIMEOUT_SECONDS"
	local kernel=$1 initrd=$2 out=$3 limit=$4 accel rc=0 clock=""
	need_cmd qemu-system-x86_64 timeout
	[ -r "$kernel" ] || die "no kernel image $kernel"
	[ -r "$initrd" ] || die "no initramfs $initrd"
	local icount=()
	case ${GUEST_CLOCK:-host} in
	icount)
		accel=tcg
		icount=(-icount "shift=0,sleep=off")
		# The TSC then ticks once per virtual nanosecond.
		clock="tsc_early_khz=1000000 tsc=reliable"
		;;
	host)
		accel=$("$TOP/scripts/qemu-accel.sh" "$kernel")
		[ "$accel" != tcg ] || clock="tsc_early_khz=$(host_tsc_khz) tsc=reliable"
		;;
	*) die "GUEST_CLOCK must be host or icount, not '$GUEST_CLOCK'" ;;
	esac
	local prealloc=()
	[ "${GUEST_PREALLOC:-0}" != 1 ] || prealloc=(-mem-prealloc)
	mkdir -p "$out"
	rm -rf "$out/files" "$out/console.log" "$out/data.log"
	timeout --foreground -k 5 "$limit" \
		qemu-system-x86_64 -accel "$accel" "${icount[@]}" "${prealloc[@]}" -cpu max -m 2G -smp "${GUEST_SMP:-1}" \
		-nographic -no-reboot -nodefaults \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 $clock ${GUEST_CMDLINE:-}" \
		-serial "file:$out/console.log" -serial "file:$out/data.log" \
		</dev/null >"$out/qemu.log" 2>&1 || rc=$?
	split_data "$out/data.log" "$out/files"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		tail -n 25 "$out/console.log" >&2
		die "guest did not finish within ${limit}s ($accel); console: $out/console.log"
	fi
	if ! grep -aq 'GUEST-DONE rc=' "$out/console.log"; then
		tail -n 25 "$out/console.log" >&2
		cat "$out/qemu.log" >&2
		die "guest stopped before its test finished (qemu exit $rc); console: $out/console.log"
	fi
	if ! grep -aq 'GUEST-DONE rc=0' "$out/console.log"; then
		tail -n 25 "$out/console.log" >&2
		die "guest test failed: $(grep -a -o -m1 'GUEST-DONE rc=[0-9]*' "$out/console.log"); console: $out/console.log"
	fi
}

main "$@"
