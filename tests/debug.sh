#!/usr/bin/env bash
# Reliability scenarios on debug kernels (lockdep, atomic-sleep checks,
# generic KASAN, kmemleak, fault injection, soft lockup / hung task / RCU
# stall detection with tight thresholds), stock and patched.
#
# Usage: tests/debug.sh [--base BASE] [--preempt MODEL] [--quick]
#                       [--kernels "stock patched"] [--scenarios "NAME..."]
#                       [--out DIR] [--mutant DIFF]
#
#   --preempt MODEL  lazy (default on 7.x: x86 offers no none or voluntary
#                    there), full, none or voluntary (6.12); a model the base
#                    cannot build is an error
#   --quick          the subset the test command runs: its first six
#                    scenarios, smaller modules, 10 load/unload cycles,
#                    patched kernel only unless --kernels says otherwise
#   --scenarios LIST only these scenarios (of SCENARIOS below), each in a
#                    boot of its own, at the sizes --quick or not chooses
#   --out DIR        where the table and the logs go (default
#                    results/debug/BASE-MODEL; none with --quick or
#                    --scenarios: the table stays in the work dir)
#   --mutant DIFF    the kernel "mutant" only: the patched one with DIFF
#                    applied (tests/mutants.sh), and no control boots
#   --report-only    no build and no boot: judge again the boots of the last
#                    run with the same options (kept in $CACHE/debug/)
#
# Each scenario is its own boot (guest/debug.sh), so every splat belongs to
# one scenario. With --quick, one boot per kernel runs them all in turn
# (on patched, the lockdep and soft lockup control after them) and is
# split into one log per scenario by the guest's "scenario" lines
# (split_set), with one kmemleak check for the set. The boot command line
# sets watchdog_thresh=2 softlockup_panic=1 and a 5 s RCU stall timeout,
# and the kernels a 10 s
# hung task timeout. A scenario passes when its checks pass and neither the
# console nor dmesg shows a WARN, BUG, oops, panic, lockdep report, KASAN
# report, soft lockup, hung task or RCU stall; with stock in the run, the
# lists and decisions must also match stock's. Control boots (two; with
# --quick one, and the lockup control in the set boot) show
# each detector firing (LKDTM WARNING, use-after-free, HUNG_TASK and
# SPINLOCKUP; the kmemleak sample module). The last line of the output is
# "N passed, N failed, N skipped" (scripts/result.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/result.sh
. "$TOP/scripts/result.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"

# kmemleak is read by the guest itself; every other report comes from the
# project's one splat detector (scripts/splat.sh).
# The scenarios (guest/debug.sh): the first six are the quick subset.
SCENARIOS=(load parallel tracing filter nomem cycles boot-function boot-filter reload many)
QUICK_SCENARIOS=6

# record STATUS TEXT: report one result (scripts/result.sh); WORK/cases
# keeps it for the test command (tests/run.sh reports each case).
record() {
	result "$1" "$2"
	printf '%s\t%s\t\n' "$1" "$2" >>"$WORK/cases"
}

build_kernels() {
	local k tree rc=0
	for k in $KERNELS; do
		tree=$(kind_tree "$BASE" "$k")
		if [ "$k" = mutant ]; then
			git -C "$tree" checkout -q --detach series
			git -C "$tree" apply "$MUTANT" || die "$MUTANT does not apply to $tree"
		fi
		"$TOP/scripts/build-kernel.sh" "$tree" "$(kind_ref "$k")" "$BUILD/debug-$k-$MODEL" \
			"$TOP/config/x86_64-bench.config" "$TOP/config/debug.config" \
			"$TOP/config/preempt-$MODEL.config" || rc=$?
		[ "$k" != mutant ] || git -C "$tree" checkout -q -- .
		[ "$rc" -eq 0 ] || die "the $k debug kernel did not build"
	done
}

# build_modules TREE: the generated modules, built against the first kernel
# (same config for all), and the kmemleak sample the control boot leaks with.
build_modules() {
	local tree=$1 obj name opt=()
	obj=$BUILD/debug-${KERNELS%% *}-$MODEL
	rm -rf "$WORK/mods"
	mkdir -p "$WORK/files"
	while read -r name n ndata; do
		"$TOP/scripts/gen-module.sh" bench "$name" "$n" "$WORK/mods/$name" "$ndata"
		log "building $name.ko ($n functions)"
		"$TOP/scripts/build-module.sh" "$obj" "$WORK/mods/$name"
		cp "$WORK/mods/$name/$name.ko" "$WORK/files/"
	done <<<"$SIZES"
	grep -q 'insn->hole' "$tree/tools/objtool/check.c" || opt=(--live-first)
	"$TOP/scripts/gen-module.sh" weak weak "$WORK/mods/weak" "${opt[@]}"
	"$TOP/scripts/build-module.sh" "$obj" "$WORK/mods/weak"
	cp "$WORK/mods/weak/weak.ko" "$WORK/files/"
	cp "$WORK/mods/weak/expect.live" "$WORK/files/weak.live"
	cp "$WORK/mods/weak/expect.dead" "$WORK/files/weak.dead"
	# What weak's init calls (weak_setup_N -> weak_plain_N -> weak_hook_N).
	printf 'weak_plain_%d\nweak_hook_%d\n' 0 0 1 1 2 2 >"$WORK/files/weak.called"
	echo "$CYCLES" >"$WORK/files/cycles"
	build_many "$obj"
	cp "$obj/samples/kmemleak/kmemleak-test.ko" "$WORK/files/" ||
		die "no kmemleak-test.ko in $obj"
	"$TOP/scripts/mkinitramfs.sh" "$WORK/debug.cpio" "$TOP/guest/debug.sh" "$WORK/files"/*
}

# build_many OBJ: the MANY small modules of scenario "many", built against
# OBJ in one Kbuild directory (without debug info: 300 of them go into the
# initramfs), and their list.
build_many() {
	local obj=$1 m
	[[ " ${SCENARIOS[*]} " == *" many "* ]] || return 0
	"$TOP/scripts/gen-module.sh" many many "$MANY" "$WORK/mods/many"
	log "building $MANY small modules"
	"$TOP/scripts/build-module.sh" "$obj" "$WORK/mods/many"
	while read -r m; do
		strip --strip-debug -o "$WORK/files/$m.ko" "$WORK/mods/many/$m.ko"
	done <"$WORK/mods/many/many.list"
	cp "$WORK/mods/many/many.list" "$WORK/files/"
}

# scenario_cmdline SCENARIO: what SCENARIO adds to the kernel command line.
scenario_cmdline() {
	case $1 in
	boot-function) echo " ftrace=function" ;;
	boot-filter) echo " ftrace=function ftrace_filter=ksys_sync,:mod:weak" ;;
	esac
}

# boot KERNEL SCENARIO: one boot; the guest's output in $WORK/KERNEL/SCENARIO.
# With --quick, the scenarios of the set boot (boot_sets) do not boot
# again.
# A boot whose console shows a splat before the guest's test started (the
# series' code has not run then) is booted once more, and the first boot
# is kept in SCENARIO.boot1 and reported: KASAN kernels under TCG have
# shown a rare report from an interrupt in early boot (identify_cpu(),
# before any module), on stock and patched alike. A second such boot
# fails the scenario as any splat does. The control boots too: KASAN
# reports only its first bug, so after such a report the control's
# use-after-free would go unseen.
boot() {
	local k=$1 s=$2 out early
	out=$WORK/$k/$s
	if [ -n "$SET" ] && [ "$s" != set ]; then
		case ,$(set_list "$k"), in *,"$s",*) return 0 ;; esac
	fi
	if [ "$REPORT_ONLY" = 1 ]; then
		[ -r "$out/console.log" ] || die "no boot of $k/$s in $WORK to report on"
		grep -a '^debug: ' "$out/console.log" | sed "s/^/  $k: /" || true
		return 0
	fi
	boot_once "$k" "$s" "$out"
	[ -r "$out/console.log" ] || return 0
	early=$(splat_in_boot "$out/console.log")
	[ -n "$early" ] || return 0
	rm -rf "$out.boot1"
	mv "$out" "$out.boot1"
	echo "  $k: $s: NOTE: splat$early ($(splats "$out.boot1/console.log" | head -n 1)); booted again, first boot kept in $out.boot1"
	splats "$out.boot1/console.log" | head -n 1 >"$WORK/$k/$s.early"
	boot_once "$k" "$s" "$out"
}

# The command line of every boot: the lockup and stall detectors tight,
# and 4-level paging (no5lvl). With 5-level paging (the TCG CPU has LA57)
# the KASAN kernels report a wild-memory-access when anything KASAN
# checks runs inside identify_cpu() of the boot CPU: an interrupt there
# now and then (do_raw_spin_lock() from handle_edge_irq()), and with
# ftrace=function the tracer callback in every boot
# (ring_buffer_lock_reserve()); on stock and patched alike, before any
# module (2026-12-03). identify_cpu() clears boot_cpu_data's feature
# bits, LA57 among them, before it reads them again: the likely cause, by
# our reading of the code; with no5lvl neither report has come back.
BOOT_ARGS="watchdog_thresh=2 softlockup_panic=1 rcupdate.rcu_cpu_stall_timeout=5 no5lvl"

# boot_once KERNEL SCENARIO OUT: the boot itself.
boot_once() {
	local names=$2
	[ "$2" != set ] || names=$(set_list "$1")
	log "booting debug-$1-$MODEL: $names"
	GUEST_SMP=2 GUEST_CMDLINE="ftm_scenario=$names loglevel=7 $BOOT_ARGS$(scenario_cmdline "$2")" \
		"$TOP/scripts/run-guest.sh" "$BUILD/debug-$1-$MODEL/arch/x86/boot/bzImage" \
		"$WORK/debug.cpio" "$3" "$LIMIT" >/dev/null 2>&1 || true
	grep -a '^debug: ' "$3/console.log" | sed "s/^/  $1: /" || true
}

# set_list KERNEL: the scenarios of the set boot of KERNEL, comma-separated:
# all of them (with --quick the last is "leaks", the kmemleak check of the
# set), and on the last kernel (patched) control-lockup after them,
# which needs lockdep still on and ends the boot. The other controls boot
# on their own: the KASAN report of theirs turns lockdep off.
set_list() {
	local l
	l=$(IFS=, && echo "${SCENARIOS[*]}")
	[ "$1" != "${KERNELS##* }" ] || l=$l,control-lockup
	echo "$l"
}

# split_set KERNEL: the set boot of KERNEL made into one directory per
# scenario (scripts/splat.sh split_boot), for the verdicts and
# comparisons; an early-boot splat note of the set boot is noted for each
# scenario in it.
split_set() {
	local k=$1 s names
	names=$(set_list "$k")
	split_boot "$WORK/$k/set" "$WORK/$k" "$names"
	[ -s "$WORK/$k/set.early" ] || return 0
	for s in ${names//,/ }; do
		cp "$WORK/$k/set.early" "$WORK/$k/$s.early"
	done
}

# boot_sets: with --quick, the set boot of each kernel, split by scenario.
boot_sets() {
	local k
	[ -n "$SET" ] || return 0
	for k in $KERNELS; do
		boot "$k" set
		split_set "$k"
	done
}

# verdict KERNEL SCENARIO: pass, or what went wrong (scripts/splat.sh).
verdict() {
	boot_verdict "$WORK/$1/$2"
}

# control: the detectors fire on what LKDTM and kmemleak-test provoke, and
# nothing before the lockup control began had a splat (in a set boot, a
# late report of the scenario before it would show there).
check_controls() {
	local k=${KERNELS##* } out pat early
	boot "$k" control
	boot "$k" control-lockup
	out=$WORK/$k/control-lockup
	early=$(splats <(awk '/lkdtm: Performing direct entry SPINLOCKUP/ { exit } { print }' "$out/console.log" 2>/dev/null))
	if [ -n "$early" ]; then
		record FAIL "detector control: a splat before the lockup control began ($k): $(head -n 1 <<<"$early")"
	else
		record PASS "detector control: no splat before the lockup control began ($k, control-lockup boot)"
	fi
	while IFS='|' read -r s pat what; do
		out=$WORK/$k/$s
		if grep -aqE "$pat" "$out/console.log" "$out/files/dmesg" 2>/dev/null; then
			record PASS "detector control: $what reported ($k, $s boot)$(early_note "$k" "$s")"
		else
			record FAIL "detector control: $what NOT reported ($k, $s boot; console $out/console.log)"
		fi
	done <<'EOF'
control|WARNING:.*lkdtm|WARN_ON from LKDTM WARNING
control|BUG: KASAN: .*use-after-free|KASAN use-after-free from LKDTM
control|debug: kmemleak: [1-9][0-9]* objects leaked|kmemleak leak of kmemleak-test.ko
control|blocked for more than|hung task from LKDTM HUNG_TASK (10 s timeout)
control-lockup|WARNING: lock held when returning to user space|lockdep report from LKDTM SPINLOCKUP
control-lockup|BUG: soft lockup|soft lockup (watchdog_thresh=2) from LKDTM SPINLOCKUP
EOF
}

# same_as_stock SCENARIO FILE...: the patched guest's files equal stock's
# (snapshots compared as the lines the load added; "delta-sorted" for
# parallel loads, whose modules' records come in the order they loaded).
same_as_stock() {
	local s=$1 f a b
	shift
	for f in "$@"; do
		if [ "$f" = delta ] || [ "$f" = delta-sorted ]; then
			a=$("$TOP/scripts/list-delta.sh" "$WORK/stock/$s/files/before" "$WORK/stock/$s/files/after" 2>&1) || return 1
			b=$("$TOP/scripts/list-delta.sh" "$WORK/patched/$s/files/before" "$WORK/patched/$s/files/after" 2>&1) || return 1
			if [ "$f" = delta-sorted ]; then
				a=$(sort <<<"$a")
				b=$(sort <<<"$b")
			fi
			[ "$a" = "$b" ] || return 1
		else
			cmp -s "$WORK/stock/$s/files/$f" "$WORK/patched/$s/files/$f" || return 1
		fi
	done
}

compare_with_stock() {
	local s=$1
	case $s in
	load) same_as_stock "$s" delta ;;
	parallel) same_as_stock "$s" delta-sorted ;;
	tracing) same_as_stock "$s" enabled.weak ;;
	filter) same_as_stock "$s" filter ;;
	nomem | cycles | reload) same_as_stock "$s" delta decided.weak ;;
	boot-function) same_as_stock "$s" delta enabled.weak notenabled ;;
	boot-filter) same_as_stock "$s" enabled.weak ;;
	many) same_as_stock "$s" delta ;;
	esac
}

# fallback_ran KERNEL: with its allocations failing, ftrace_module_enable()
# of the big module took 10 times as long as without (load scenario): its
# records took test_for_valid_rec(), not the index. (On stock both are
# that path; the counts of injected failures alone prove nothing, as other
# allocations under ftrace_module_enable() fail too, on stock as well.)
fallback_ran() {
	local k=$1 with without
	[ "$k" = patched ] || return 0
	with=$(awk '$1 == "injected" { print $5 }' "$WORK/$k/nomem/files/times")
	without=$(awk '$1 == "load1" { print $3 }' "$WORK/$k/load/files/times")
	[ -n "$with" ] && [ -n "$without" ] && [ "$with" -ge $((10 * without)) ]
}

# cell KERNEL SCENARIO: the table cell: verdict and the scenario's numbers.
cell() {
	local k=$1 s=$2 v t=$WORK/$1/$2/files/times n=""
	v=$(verdict "$k" "$s")
	[ ! -s "$WORK/$k/$s.early" ] || v="$v (second boot; the first had an early-boot splat: $(cat "$WORK/$k/$s.early"))"
	if [ -r "$t" ]; then
		case $s in
		load) n=$(awk '{ printf "%s%.2f s insmod, %.1f ms enable", (NR > 1 ? "; " : ""), $2 / 1e6, $3 / 1e3 }' "$t") ;;
		parallel) n=$(awk '{ printf "%.1f s for the three", $2 / 1000 }' "$t") ;;
		filter) n=$(awk '{ printf "%s%s %.1f s", (NR > 1 ? "; " : ""), ($1 == "glob" ? "glob" : ":mod:"), $2 / 1000 }' "$t") ;;
		nomem) n=$(awk '{ printf "%d + %d failures injected; big: %.2f s enable", $2, $3, $5 / 1e6 }' "$t") ;;
		cycles) n=$(awk '{ printf "Slab %d -> %d kB", $2, $3 }' "$t") ;;
		reload) n=$(awk '{ printf "%d loads beside %d tracer starts (%d :mod: writes refused) and %d list reads", $2, $3, $5, $4 }' "$t") ;;
		many) n=$(awk '{ printf "%d modules: %.0f ms load, %.0f ms unload each; then big: %.2f s insmod, %.1f ms enable; Slab %d -> %d kB", $2, $3 / $2, $4 / ($2 + 1), $5 / 1e6, $6 / 1e3, $7, $8 }' "$t") ;;
		esac
	fi
	echo "$v${n:+ ($n)}"
}

# early_note KERNEL SCENARIO: what a first boot with an early-boot splat
# showed, for the result line (boot).
early_note() {
	[ ! -s "$WORK/$1/$2.early" ] || echo " (in a second boot: the first had a splat before the test began: $(cat "$WORK/$1/$2.early"))"
}

run_scenarios() {
	local k s v same
	for s in "${SCENARIOS[@]}"; do
		for k in $KERNELS; do
			boot "$k" "$s"
		done
		for k in $KERNELS; do
			v=$(verdict "$k" "$s")
			if [ "$k" = stock ]; then
				echo "  stock: $s: $v"
				continue
			fi
			same=""
			if [[ " $KERNELS " == *" stock "* ]] && [ "$(verdict stock "$s")" = pass ]; then
				same=", lists and decisions as on stock"
				compare_with_stock "$s" || same=" but lists or decisions DIFFER from stock's"
			fi
			[ "$s" != nomem ] || [ "$v" != pass ] || fallback_ran "$k" ||
				v="the index was built despite the failures (enable no slower than in load)"
			if [ "$v" != pass ]; then
				record FAIL "$s on debug-$k-$MODEL: $v (console $WORK/$k/$s/console.log)"
			elif [[ $same == *DIFFER* ]]; then
				record FAIL "$s on debug-$k-$MODEL: no splat$same"
			else
				record PASS "$s on debug-$k-$MODEL: checks passed, no splat$same$(early_note "$k" "$s")"
			fi
		done
	done
}

table() {
	local s k
	echo "| scenario | ${KERNELS// / | } |"
	echo "|---|$(sed 's/[a-z]*/---|/g; s/ //g' <<<"$KERNELS")"
	for s in "${SCENARIOS[@]}"; do
		printf '| %s |' "$s"
		for k in $KERNELS; do
			printf ' %s |' "$(cell "$k" "$s" | sed 's/|/\\|/g')"
		done
		echo
	done
}

facts() {
	local obj=$BUILD/debug-${KERNELS%% *}-$MODEL
	echo "- kernel: Debian $(base_info "$BASE" pkg) $(base_info "$BASE" version): $KERNELS"
	echo "- config: tinyconfig + config/x86_64-bench.config + config/debug.config + config/preempt-$MODEL.config ($(grep -E '^CONFIG_PREEMPT(_NONE|_VOLUNTARY|_LAZY)?=y|^CONFIG_PREEMPT_DYNAMIC=y' "$obj/.config" | paste -sd' '))"
	echo "- boot: $BOOT_ARGS, hung task timeout 10 s; scenarios boot-function and boot-filter add$(scenario_cmdline boot-function) and$(scenario_cmdline boot-filter)"
	echo "- qemu: accel $(accel_fact "$obj/arch/x86/boot/bzImage"), 2 vCPUs, 2 GiB; ${SET:-one boot per scenario and kernel}"
	echo "- modules: $(awk '{ printf "%s%s %d functions (%d data symbols each)", (NR > 1 ? ", " : ""), $1, $2, $3 }' <<<"$SIZES"); weak (overridden weak functions); $CYCLES load/unload cycles; scenario many: $MANY small modules of 10-50 functions"
	echo "- times: one run per scenario and kernel; guest clocksource: $(tr -d '\r' 2>/dev/null <"$WORK/${KERNELS##* }/$([ -n "$SET" ] && echo set || echo "${SCENARIOS[0]}")/console.log" | sed -n 's/.*clocksource: Switched to clocksource //p' | tail -n 1)"
	echo "- date: $(date -u +%Y-%m-%d); commit: $(git -C "$TOP" describe --always --dirty)"
}

main() {
	local quick=0 tree only="" s
	BASE=$(mainline_base)
	MODEL=lazy
	KERNELS=""
	REPORT_ONLY=0
	MUTANT=""
	OUT=""
	SET=""
	while [ $# -gt 0 ]; do
		case $1 in
		--base) BASE=$2; shift 2 ;;
		--preempt) MODEL=$2; shift 2 ;;
		--quick) quick=1; shift ;;
		--kernels) KERNELS=$2; shift 2 ;;
		--scenarios) only=$2; shift 2 ;;
		--out) OUT=$2; shift 2 ;;
		--report-only) REPORT_ONLY=1; shift ;;
		--mutant) MUTANT=$(realpath "$2"); KERNELS=mutant; shift 2 ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	base_info "$BASE" pkg >/dev/null
	[ -r "$TOP/config/preempt-$MODEL.config" ] ||
		die "unknown preemption model '$MODEL' (config/preempt-*.config)"
	if [ $quick -eq 1 ]; then
		SIZES=$'big 3000 2\nmid 1000 1\nsmall 500 1'
		CYCLES=10
		MANY=30
		LIMIT=900
		KERNELS=${KERNELS:-patched}
	else
		SIZES=$'big 15000 2\nmid 5000 1\nsmall 2000 1'
		CYCLES=50
		MANY=300
		LIMIT=3600
		KERNELS=${KERNELS:-stock patched}
		[ -n "$only" ] || [ -n "$MUTANT" ] || OUT=${OUT:-$TOP/results/debug/$BASE-$MODEL}
	fi
	[ "${KERNELS##* }" = patched ] || [ -n "$MUTANT" ] || die "--kernels must end with patched"
	if [ -n "$only" ]; then
		for s in $only; do
			[[ " ${SCENARIOS[*]} " == *" $s "* ]] || die "unknown scenario '$s' (known: ${SCENARIOS[*]})"
		done
		read -ra SCENARIOS <<<"$only"
	elif [ $quick -eq 1 ]; then
		SCENARIOS=("${SCENARIOS[@]:0:QUICK_SCENARIOS}" leaks)
		SET="one boot per kernel for all scenarios, then one kmemleak check for them (leaks) and on patched the lockup control; one boot for the other controls"
	fi
	[ -n "${LOCKED:-}" ] || lock_cache
	trap 'restore_trees "$BASE"' EXIT
	"$TOP/scripts/install-deps.sh"
	BUILD=$CACHE/build/$BASE
	WORK=$CACHE/debug/$BASE-$MODEL
	if [ "$REPORT_ONLY" = 1 ]; then
		[ -d "$WORK" ] || die "no run to report on in $WORK"
		rm -f "$WORK/cases"
	else
		rm -rf "$WORK"
		mkdir -p "$WORK"
		tree=$("$TOP/scripts/make-tree.sh" "$BASE")
		build_kernels
		build_modules "$tree"
	fi
	boot_sets
	[ -n "$MUTANT" ] || check_controls
	run_scenarios
	table >"$WORK/table.md"
	facts >"$WORK/facts.md"
	cat "$WORK/table.md" "$WORK/facts.md"
	if [ -n "$OUT" ]; then
		mkdir -p "$OUT"
		cp "$WORK/table.md" "$WORK/facts.md" "$OUT/"
		log "table written to $OUT"
	fi
	result_summary
}

main "$@"
