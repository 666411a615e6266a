#!/usr/bin/env bash
# The benchmark on real modules: amdgpu, nouveau, radeon, mac80211 (with
# cfg80211), kvm, kvm-intel, kvm-amd, btrfs and xfs, each loaded with
# modprobe in qemu without its hardware, on a stock base, with the series
# and with benchmark-only variants of it (bench/variant-*.patch).
#
# Usage: bench/real.sh [--base BASE] [--variants "NAME..."] [--runs N]
#                      [--modules "NAME..."] [--out DIR]
#        bench/real.sh --debug [--preempt MODEL] [--base BASE] [--runs N]
#                      [--out DIR]
#        bench/real.sh [--base BASE] --check-config
#   --variants  the variants besides stock and patched (default: bitmap
#           sort-all-symbols floor; "" for none)
#   --runs  loads per module and kernel (default 3)
#   --modules  the modules (default: all of the list above), by module
#           name (kvm_intel, not kvm-intel)
#   --out   results directory (default: results/real/ for the mainline
#           base, results/BASE/real/ for another)
#   --debug  amdgpu on the debug kernel of tests/debug.sh (KASAN,
#           lockdep, kmemleak, lockup detectors; config/debug.config,
#           config/real-debug.config), stock and patched only, one load
#           each (--runs), 2 vCPUs, watchdog_thresh=2 without
#           softlockup_panic: stock's splats are reported, and a load
#           that lasts goes on to the end to be timed; patched must show
#           none. Output: results/real/debug/ (results/BASE/real/debug/)
#   --preempt MODEL  with --debug: config/preempt-MODEL.config (default
#           lazy where the base has it, as tests/debug.sh; none on 6.12)
#   --check-config  only check that config/real.config and
#           config/real-debug.config still apply to the base: every option
#           they set survives merge_config and olddefconfig on top of
#           tinyconfig and the fragments beneath them
#
# One kernel config (tinyconfig + config/x86_64-bench.config +
# config/real.config). The patched kernel is built with every module; the
# others build only their bzImage and load the same .ko files. Per module,
# the host reads records (__mcount_loc entries), symtab entries and text
# bytes from the .ko; the guest (guest/real.sh) times each modprobe,
# ftrace_module_enable() and ftrace_module_init(), measures the index, and
# sends the lines the module adds to available_filter_functions and the
# records ":mod:NAME" takes, which must be the same on every kernel, or
# the run fails with the diff and leaves --out as it was. Writes
# DIR/results.md, plot.png, facts.md, times.tsv, boot.tsv, modules.tsv and
# list-check.txt.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"

prealloc_guests

MODULES=$REAL_MODULES

# The boot arguments of --debug: those of tests/debug.sh without
# softlockup_panic=1, so that a lockup is reported and the load that
# caused it is still timed.
DEBUG_ARGS="watchdog_thresh=2 rcupdate.rcu_cpu_stall_timeout=5 no5lvl"

# kernel_dir KERNEL: the build directory of KERNEL (of the debug
# kernels with --debug).
kernel_dir() {
	echo "$BUILD/$KPREFIX-$1"
}

build_kernels() {
	local tree=$1 v
	"$TOP/scripts/build-kernel.sh" "$tree" "$(kind_ref patched)" "$(kernel_dir patched)" "${FRAGS[@]}"
	"$TOP/scripts/build-kernel.sh" --image-only "$(kind_tree "$BASE" stock)" "$(kind_ref stock)" \
		"$(kernel_dir stock)" "${FRAGS[@]}"
	for v in "${KERNELS[@]:2}"; do
		variant_kernel "$BASE" "$v" "$BUILD/$KPREFIX-variants" "$(kernel_dir "$v")" --image-only "${FRAGS[@]}"
	done
}

# mod_name PATH: the module name of a .ko path (dashes as underscores).
mod_name() {
	local n=${1##*/}
	n=${n%.ko*}
	echo "${n//-/_}"
}

# dep_line DEP MODULE: the line of modules.dep DEP for MODULE: its path,
# a colon, and the paths of what it needs; fails if there is none.
dep_line() {
	local ko rest
	while read -r ko rest; do
		[ "$(mod_name "${ko%:}")" != "$2" ] || { echo "$ko $rest"; return 0; }
	done <"$1"
	return 1
}

# real_list STAGE: "MODULE DEP..." for each module of MODULES, from the
# modules.dep of the staged modules; a module that is not there fails.
real_list() {
	local dep m line p deps
	dep=$(echo "$1"/lib/modules/*/modules.dep)
	for m in $MODULES; do
		line=$(dep_line "$dep" "$m") || die "module $m was not built (no $m in $dep)"
		read -r -a deps <<<"${line#*:}"
		line=$m
		for p in "${deps[@]}"; do
			line="$line $(mod_name "$p")"
		done
		echo "$line"
	done
}

# ko_facts STAGE: "MODULE records symtab text" for each module of
# MODULES: its __mcount_loc entries, .symtab entries, and bytes of
# executable sections, from the staged .ko.
ko_facts() {
	local m ko dir
	dir=$(echo "$1"/lib/modules/*)
	for m in $MODULES; do
		ko=$(dep_line "$dir/modules.dep" "$m") || die "no .ko for $m in $dir"
		ko=$dir/${ko%%:*}
		readelf -SW "$ko" | sed 's/^ *\[ *[0-9]*\]//' | gawk -v m="$m" '
			$1 == "__mcount_loc" { rec = strtonum("0x" $5) / 8 }
			$1 == ".symtab" { sym = strtonum("0x" $5) / 24 }
			$7 ~ /X/ { text += strtonum("0x" $5) }
			END { printf "%s\t%d\t%d\t%d\n", m, rec, sym, text }'
	done
}

run_kernels() {
	local work=$1 k limit
	echo "$RUNS" >"$work/runs"
	"$TOP/scripts/mkinitramfs.sh" "$work/real.cpio" "$TOP/guest/real.sh" "$work/runs" \
		"$work/real.list" "$work/warn_control.ko" "$work/stage/lib/modules"
	# Every kernel scans a module's symtab once per record in each read of
	# the list and of the filter, stock in each load too: allow 10x what
	# TCG here took for the generated modules (75 M record x symbol pairs
	# a second) for RUNS loads and four scans, on top of the boot; on the
	# debug kernels (KASAN checks every load of the scan) 5 times that.
	limit=$(awk -F'\t' -v r="$RUNS" -v slow="$SLOW" '{ s += $2 * $3 } END { printf "%d", slow * (900 + s * (r + 4) / 7500000) }' "$work/modules.tsv")
	for k in "${KERNELS[@]}"; do
		log "booting $k (runs: $RUNS, limit $limit s)"
		GUEST_SMP=$VCPUS GUEST_CMDLINE=$CMDLINE "$TOP/scripts/run-guest.sh" \
			"$(kernel_dir "$k")/arch/x86/boot/bzImage" "$work/real.cpio" "$work/guest-$k" "$limit"
	done
}

collect() {
	local work=$1 out=$2 k
	mkdir -p "$out"
	cp "$work/modules.tsv" "$out/modules.tsv"
	for k in "${KERNELS[@]}"; do
		awk -v k="$k" 'BEGIN { OFS = "\t" } NR == FNR { r[$1] = $2; next } { print k, $1, r[$1], $2, $3, $4, $5, $6 }' \
			"$work/modules.tsv" "$work/guest-$k/files/times"
	done >"$out/times.tsv"
	for k in "${KERNELS[@]}"; do
		printf '%s\t%s\n' "$k" "$(cat "$work/guest-$k/files/boot")"
	done >"$out/boot.tsv"
	{
		base_fact "$BASE"
		config_fact
		qemu_fact "$(kernel_dir patched)/arch/x86/boot/bzImage" "$work/guest-patched/files/dmesg" \
			"$VCPUS vCPU$([ "$VCPUS" = 1 ] || echo s), $(memory_fact), -cpu max, no devices"
		[ "$DEBUG" = 0 ] ||
			echo "- boot: $CMDLINE (tests/debug.sh's without softlockup_panic=1), hung task timeout 10 s"
		echo "- modules: built once with the patched kernel, the same .ko files loaded by every kernel; records = entries of the .ko's __mcount_loc, symtab = entries of its .symtab, text = bytes of its executable sections"
		echo "- runs: each kernel booted once; first every module modprobed at once in the background (\"all at once\"), everything unloaded; then per module its dependencies modprobed, and the module alone $RUNS times modprobed and rmmod'ed; no tracer active; modprobe = trace_marker before and after it; enable, init = kprobe/kretprobe on ftrace_module_enable(), ftrace_module_init(); index = the bytes_req of the kmem:kmalloc events from ftrace_mod_syms_build() inside ftrace_module_enable() (guest/lib.sh)"
		kernels_fact "${KERNELS[@]}"
		echo "- date: $(date -u +%Y-%m-%d); commit: $(git -C "$TOP" describe --always --dirty)"
	} >"$out/facts.md"
}

# config_fact: the config line of facts.md.
config_fact() {
	local bench="config/x86_64-bench.config (x86_64, -O2, CONFIG_BUG, DYNAMIC_FTRACE, IBT: FTRACE_MCOUNT_MAX_OFFSET=4, CALL_PADDING: __pfx_ symbols, KALLSYMS_ALL, MODULES)"
	if [ "$DEBUG" = 1 ]; then
		echo "- config: tinyconfig + $bench + config/debug.config (KASAN, lockdep, kmemleak, fault injection, lockup, hung task and RCU stall detectors) + config/preempt-$MODEL.config + config/real-debug.config (amdgpu and what it needs as modules; PCI built in); gcc $(gcc -dumpfullversion)"
	else
		echo "- config: tinyconfig + $bench + config/real.config (the modules and what they need as modules; PCI, NET, BLOCK built in); gcc $(gcc -dumpfullversion)"
	fi
}

# public_numbers: for reference, beside the table: the numbers published
# for the design this project started from. Not measured here: another
# machine (native, not qemu), another kernel config, another way of
# counting; compare ratios, not values.
public_numbers() {
	cat <<'EOF'

For reference, not measured here: the public numbers of the design this
project started from (sorting the call sites; Ryzen 3 3200U, native,
v7.3-rc5, a distribution-like config, no device present). Its
"collected addresses" are not this table's records (another config,
another count), and its times are native, not TCG:

| module | collected addresses | stock -> patched |
|---|---:|---|
| amdgpu | 64,983 | probed at boot: 6.17 s -> 2.03 s |
| nouveau | 19,354 | modprobe: 468 ms -> 141 ms |
| radeon | 9,882 | modprobe: 155 ms -> 83 ms |
| mac80211 | 8,199 | - |
| kvm | 7,993 | - |

There, available_filter_functions was identical on both kernels (84,301
entries).
EOF
}

# public_debug_numbers: the public reports of this load on debug
# kernels, for reference.
public_debug_numbers() {
	cat <<'EOF'

For reference, not measured here: public reports of this load on debug
kernels, before the cond_resched() that 4099b98203d6 added to
ftrace_module_enable() (in 6.18 and stable 6.1+; the 7.3 base has it):
amdgpu soft-locked 16 s on a KASAN and lockdep Ubuntu 6.8 kernel in KVM
(14,334 functions), and 26 s from systemd-udevd on a KCSAN 6.5 kernel.
EOF
}

# debug_splats WORK: what each kernel's log reported (scripts/splat.sh).
debug_splats() {
	local k s
	echo
	echo "Reports in each kernel's console and dmesg (scripts/splat.sh; the control module's WARN left out):"
	echo
	for k in "${KERNELS[@]}"; do
		s=$(splats "$1/guest-$k/console.log" "$1/guest-$k/files/dmesg" | grep -v warn_control || true)
		if [ -n "$s" ]; then
			printf -- '- %s:\n' "$k"
			printf '  - %s\n' "${s//$'\n'/$'\n'  - }"
		else
			printf -- '- %s: none\n' "$k"
		fi
	done
}

# extra_sections WORK OUT: the tables report.sh does not make, after its
# own in OUT/results.md.
extra_sections() {
	local work=$1 out=$2 k
	{
		echo
		echo "Modules (from the .ko files):"
		echo
		echo "| module | records | symtab entries | text bytes |"
		echo "|---|---:|---:|---:|"
		awk -F'\t' '{ printf "| %s | %d | %d | %d |\n", $1, $2, $3, $4 }' "$out/modules.tsv"
		echo
		echo "All modules modprobed at once, from the first modprobe to the last exit (one run per kernel):"
		echo
		echo "| kernel | ms | ftrace_module_enable() calls |"
		echo "|---|---:|---:|"
		awk -F'\t' '{ split($2, a, " "); printf "| %s | %.1f | %d |\n", $1, a[1] / 1000, a[2] }' "$out/boot.tsv"
		if [ "$DEBUG" = 1 ]; then
			debug_splats "$work"
			public_debug_numbers
		else
			public_numbers
		fi
		for k in "${KERNELS[@]}"; do
			[ -s "$work/guest-$k/files/noinit" ] || continue
			echo
			echo "Init failed without hardware on $k (ftrace_module_enable() ran and is timed; the records are gone when its list is read):"
			sed 's/^/- /' "$work/guest-$k/files/noinit"
		done
	} >>"$out/results.md"
}

# noinit WORK KERNEL: the modules whose init failed on KERNEL, one a line.
noinit() {
	cut -d' ' -f1 "$1/guest-$2/files/noinit" | sort
}

# compare_all WORK: the checks of every guest (bench/lib.sh), the same
# modules failing their init on every kernel, and every other module's
# lines and decisions the same on every kernel (a module whose init
# failed has no records left to compare). With --debug, stock's splats
# are reported, not judged: they are what the series removes. The floor
# decides nothing (it calls every record valid): with kvm.ko loaded it is
# only timed, and it must warn, as kvm.ko's dead weak call sites are then
# valid records that no lookup names.
compare_all() {
	local work=$1 k m bad=0 failed exact=()
	for k in "${KERNELS[@]}"; do
		if [ "$DEBUG" = 1 ] && [ "$k" = stock ]; then
			exact+=("$k")
			guest_checks "$work/guest-$k/files" "$k" reported || bad=1
			continue
		fi
		if [ "$k" = floor ] && grep -qw kvm <<<"$MODULES"; then
			guest_checks "$work/guest-$k/files" "$k" warns || bad=1
			continue
		fi
		exact+=("$k")
		guest_checks "$work/guest-$k/files" "$k" || bad=1
	done
	# same_lists compares the kernels of KERNELS: here the exact ones.
	local KERNELS=("${exact[@]}")
	failed=$(noinit "$work" stock)
	for k in "${KERNELS[@]:1}"; do
		if [ "$(noinit "$work" "$k")" = "$failed" ]; then
			echo "init check: $k: the same modules fail their init as on stock (${failed//$'\n'/ })"
		else
			echo "init check: $k: other modules fail their init than on stock: $(noinit "$work" "$k" | tr '\n' ' ')"
			bad=1
		fi
	done
	for m in $MODULES; do
		if grep -qx "$m" <<<"$failed"; then
			echo "list check: $m: its init failed without its hardware, lists not compared"
			continue
		fi
		same_lists "$work" "$m" || bad=1
	done
	return $bad
}

main() {
	RUNS=3 DEBUG=0 MODEL="" SLOW=1 KPREFIX=real VCPUS=1 CMDLINE=""
	local out="" only="bitmap sort-all-symbols floor" work tree chosen=() config_only=0 runs=""
	BASE=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) BASE=$2; shift 2 ;;
		--variants) only=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--modules) MODULES=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		--debug) DEBUG=1; shift ;;
		--preempt) MODEL=$2; shift 2 ;;
		--check-config) config_only=1; shift ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	[ -z "$MODEL" ] || [ -r "$TOP/config/preempt-$MODEL.config" ] ||
		die "--preempt: unknown preemption model '$MODEL' (config/preempt-*.config)"
	FRAGS=("${REAL_FRAGS[@]}")
	# amdgpu alone, once, on stock and patched.
	[ "$DEBUG" = 0 ] || MODULES=amdgpu RUNS=1 SLOW=5 only="" VCPUS=2 CMDLINE=$DEBUG_ARGS
	RUNS=${runs:-$RUNS}
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	[ -n "$MODULES" ] || die "--modules: no module named"
	base_info "$BASE" pkg >/dev/null
	read -r -a chosen <<<"$only"
	check_variants "$BASE" "${chosen[@]}"
	[[ " ${chosen[*]} " != *" lookup-"* ]] ||
		die "--variants: the variants of the second series (lookup-*) need its modules; bench/run.sh runs them"
	KERNELS=(stock patched "${chosen[@]}")
	if [ -z "$out" ]; then
		out=$TOP/results/real
		[ "$BASE" = "$(mainline_base)" ] || out=$TOP/results/$BASE/real
		[ "$DEBUG" = 0 ] || out=$out/debug
	fi
	lock_cache
	trap 'restore_trees "$BASE"' EXIT
	"$TOP/scripts/install-deps.sh"
	tree=$("$TOP/scripts/make-tree.sh" "$BASE")
	MODEL=${MODEL:-$(default_model "$tree")}
	if [ $config_only -eq 1 ]; then
		real_config_check "$tree" "$BASE" "${REAL_FRAGS[@]}"
		# shellcheck disable=SC2046 # the fragments' paths have no spaces
		real_config_check "$tree" "$BASE" $(real_debug_frags "$MODEL")
		return
	fi
	if [ "$DEBUG" = 1 ]; then
		read -r -a FRAGS <<<"$(real_debug_frags "$MODEL")"
		KPREFIX=real-debug-$MODEL
	fi
	BUILD=$CACHE/build/$BASE
	work=$CACHE/$KPREFIX
	rm -rf "$work"
	mkdir -p "$work"
	build_kernels "$tree"
	"$TOP/scripts/stage-modules.sh" "$tree" "$(kernel_dir patched)" "$work/stage"
	real_list "$work/stage" >"$work/real.list"
	ko_facts "$work/stage" >"$work/modules.tsv"
	"$TOP/scripts/gen-module.sh" warn warn_control "$work/warn_control"
	"$TOP/scripts/build-module.sh" "$(kernel_dir patched)" "$work/warn_control"
	cp "$work/warn_control/warn_control.ko" "$work/"
	run_kernels "$work"
	collect "$work" "$work/results"
	"$TOP/bench/report.sh" "$work/results" ms records modprobe
	extra_sections "$work" "$work/results"
	cat "$work/results/results.md"
	compare_all "$work" | tee "$work/results/list-check.txt" ||
		die "lists differ between kernels; results left in $work/results, $out untouched"
	mkdir -p "$out"
	cp "$work/results"/* "$out/"
	log "results written to $out"
}

main "$@"
