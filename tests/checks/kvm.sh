# shellcheck shell=bash
# kvm.ko, a real module with overridden weak functions.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# shellcheck source=scripts/stats.sh
. "$TOP/scripts/stats.sh"

# load_times KIND FILE: "N loads of kvm.ko, insmod ms M (min-max),
# ftrace_module_enable() ms M (min-max), ftrace_module_init() ms M
# (min-max), index B bytes" of the lines of guest/lib.sh's time_insmod
# (microseconds; the bytes ftrace_mod_syms_build() asked of kmalloc()), by the
# benchmark's own summary (scripts/stats.sh summarize).
load_times() {
	local n mi a b me c d ii e g by
	IFS=$'\t' read -r _ _ _ n mi a b me c d ii e g by _ < <(
		awk -v k="$1" 'BEGIN { OFS = "\t" } { print k, "kvm", 0, NR, $1, $2, $3, $4 }' "$2" | summarize /dev/stdin)
	echo "$n loads of kvm.ko, insmod ms $(ms "$mi") ($(ms "$a")-$(ms "$b")), ftrace_module_enable() ms $(ms "$me") ($(ms "$c")-$(ms "$d")), ftrace_module_init() ms $(ms "$ii") ($(ms "$e")-$(ms "$g")), index $by bytes"
}

# kvm.ko, a real module (virt/kvm has __weak functions that arch/x86/kvm
# overrides): the lines its load adds to available_filter_functions are
# identical on stock and patched, and unloading restores the whole list.
# Its load times on both are printed (3 loads each).
t_kvm_list() {
	local kind work=$CACHE/test-e2e g d n inv
	for kind in stock patched; do
		[ -d "$work/$kind/stage" ] || { echo "no staged modules in $work/$kind"; return 1; }
		"$TOP/scripts/mkinitramfs.sh" "$work/$kind/kvm.cpio" "$TOP/guest/kvm.sh" "$work/$kind/stage/lib/modules"
		"$TOP/scripts/run-guest.sh" "$(e2e_kernel "$kind")" \
			"$work/$kind/kvm.cpio" "$work/$kind/kvm" 600
		g=$work/$kind/kvm/files
		"$TOP/scripts/list-delta.sh" "$g/before" "$g/loaded" >"$work/$kind/kvm.delta"
		[ -s "$work/$kind/kvm.delta" ] || { echo "$kind: loading kvm.ko added no line"; return 1; }
		cmp -s "$g/before" "$g/unloaded" || { echo "$kind: the list after unloading kvm.ko differs"; return 1; }
		if kernel_warned "$g/dmesg"; then
			echo "$kind: the kernel warned"
			return 1
		fi
	done
	d=$work/patched/kvm.delta
	diff "$work/stock/kvm.delta" "$d" || { echo "kvm.ko: patched differs from stock"; return 1; }
	n=$(grep -v '^__ftrace_invalid_address___' "$d" | grep -c ' \[kvm\]$' || true)
	inv=$(grep -c '^__ftrace_invalid_address___' "$d" || true)
	echo "  kvm.ko adds $(wc -l <"$d") lines to available_filter_functions, identical on stock and patched: $n functions, $inv invalid records (dead weak call sites)"
	echo "  unloading restores the whole list on both; no WARN or BUG"
	for kind in stock patched; do
		grep -q 'clocksource: Switched to clocksource tsc' "$work/$kind/kvm/files/dmesg" ||
			{ echo "$kind: the guest's clock is not the TSC: its times are in jiffies"; return 1; }
		echo "  $kind: $(load_times "$kind" "$work/$kind/kvm/files/times")"
	done
	[ "$inv" -gt 0 ] || { echo "no invalid record: the check found no dead call site in kvm.ko"; return 1; }
}
