#!/usr/bin/env bash
# The A/B benchmark: a stock base against the series and its
# benchmark-only variants (bench/variant-*.patch), loading generated
# modules in qemu.
#
# Usage: bench/run.sh [--base BASE] [--sizes "2000 8000 16000"] [--big] [--no-kvm]
#                     [--variants "NAME..."] [--runs N] [--rounds R]
#                     [--kernels "KERNEL..."] [--icount] [--out DIR]
#   --base  the base (a line of bases; default: the mainline one, 7.3),
#           with the series of patches/BASE
#   --big   adds a 65,000-function module (amdgpu scale; stock needs
#           minutes per load under TCG)
#   --no-kvm  the generated modules only, without kvm.ko (with --sizes "",
#           kvm.ko is the only module)
#   --variants  only these variants (NAME of bench/variant-NAME.patch;
#           default: all of them; "": none); stock, patched and, where the
#           base has a second series, lookup always run
#   --kernels  only these kernels, booted in this order, the first the
#           one the others' lists are compared with (stock, patched,
#           lookup or a variant's NAME; default: stock, patched, lookup
#           where the base has it, then the variants). Without stock and
#           patched there are no tables: the lists are only compared
#           (tests/run.sh's BASE:lookup:same-as-patched)
#   --runs  loads per module and kernel in one boot (default 3)
#   --rounds  boots of each kernel but stock (default 1): round 1 boots
#           every kernel in order, round 2 the same kernels but stock in
#           the reverse order, and so on, so that a host whose speed drifts
#           during the run slows every kernel alike. Only round 1 compares
#           the lists; later rounds only time the loads. Stock boots once:
#           it is hundreds of times slower, drift cannot change that.
#   --icount  count instead of time: the guests run under TCG with
#           -icount shift=0,sleep=off (scripts/run-guest.sh), so every time is
#           virtual, one nanosecond per guest instruction: the same on
#           every run, whatever the host does, and one round is enough.
#           It tells which code executes fewer instructions, not how
#           caches and memory would treat it on hardware.
#   --out   results directory (default: results/ in this repository for
#           the mainline base, results/BASE/ for another; with --icount,
#           the icount/ directory under it)
#
# Where the base has a second series (patches/BASE/kallsyms-index), the
# kernel "lookup" (the series and the second series) runs too, and stock,
# patched and lookup also time, in round 1, what names a module's records
# after its load (guest/bench.sh: reading available_filter_functions,
# filter writes, a kprobe by name) and report the module's memory.
#
# Prints markdown tables, writes DIR/results.md, DIR/plot.png and
# DIR/lookups.png, and fails if any module's lines in
# available_filter_functions, the records of its filters or its
# /proc/kallsyms lines differ between the kernels.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"

prealloc_guests

# The kernels are the end-to-end test kernels of tests/run.sh (the same
# build directories: the test command builds the patched one, its full
# tier the stock one too), lookup (its own build directory, e2e-lookup)
# and one per variant: the patched one plus bench/variant-NAME.patch.
FRAGS=("$TOP/config/x86_64-bench.config" "$TOP/config/e2e.config")

# variant_kernel_of NAME FRAGMENT...: the kernel of variant NAME
# (bench/lib.sh), built in bench-variants; a variant of the second series
# (lookup-*) in bench-lookup-variants, with its config.
variant_kernel_of() {
	local name=$1
	shift
	if [[ $name == lookup-* ]]; then
		variant_kernel "$BASE" "$name" "$BUILD/bench-lookup-variants" "$(kernel_dir "$name")" \
			"$@" "$TOP/config/e2e-lookup.config"
	else
		variant_kernel "$BASE" "$name" "$BUILD/bench-variants" "$(kernel_dir "$name")" "$@"
	fi
}

# build_kernels TREE: the kernels of KERNELS, and always patched, which
# the modules are built against.
build_kernels() {
	local tree=$1 v series=("${FRAGS[@]}" "$TOP/config/e2e-series.config")
	! booted stock ||
		"$TOP/scripts/build-kernel.sh" "$(kind_tree "$BASE" stock)" "$(kind_ref stock)" "$(kernel_dir stock)" "${FRAGS[@]}"
	"$TOP/scripts/build-kernel.sh" "$tree" "$(kind_ref patched)" "$(kernel_dir patched)" "${series[@]}"
	! booted lookup ||
		"$TOP/scripts/build-kernel.sh" "$(kind_tree "$BASE" lookup)" "$(kind_ref lookup)" \
			"$(kernel_dir lookup)" "${series[@]}" "$TOP/config/e2e-lookup.config"
	for v in "${KERNELS[@]}"; do
		case $v in
		stock | patched | lookup) ;;
		*) variant_kernel_of "$v" "${series[@]}" ;;
		esac
	done
}

# booted KERNEL: whether KERNEL is one of the run's kernels.
booted() {
	[[ " ${KERNELS[*]} " == *" $1 "* ]]
}

# Modules are built against the patched kernel, and the same .ko files
# are loaded by every kernel but lookup, whose struct module differs (the
# second series adds the index to struct mod_kallsyms): it loads the same
# sources built against it. Each set goes to WORK/ko-SET (modset). Besides
# the generated modules: kvm.ko (a real module, with its dependency
# irqbypass.ko, from the kernel build of the set), the WARN control, a
# one-function module for the ":mod:" write that must skip the others
# and symprint.ko, which names every byte of a module with
# sprint_symbol() (guest/bench.sh, lookups). A module of more than LIST_MAX functions is
# only timed ("times" in modules.list): reading
# available_filter_functions, writing a ":mod:" filter and reading it back
# each cost records x symbols on stock and on the first series (print_rec()
# and lookup_ip() look up each record, minutes for one read of the list at
# 65,000 functions under TCG), so its lists are not compared.
LIST_MAX=16000

# modset KERNEL: the set of modules KERNEL loads.
modset() {
	if [[ $1 == lookup* ]]; then echo lookup; else echo patched; fi
}

# build_set DIR OBJ: every module of the benchmark built against the
# kernel build OBJ, the .ko files in DIR.
build_set() {
	local dir=$1 obj=$2 n name
	rm -rf "$dir"
	mkdir -p "$dir/src"
	for n in $SIZES 1; do
		name=modsyms_$n
		[ "$n" -ne 1 ] || name=modsyms_tiny
		"$TOP/scripts/gen-module.sh" bench "$name" "$n" "$dir/src/$name"
		log "building $name.ko ($n functions) against ${obj##*/}"
		"$TOP/scripts/build-module.sh" "$obj" "$dir/src/$name"
		cp "$dir/src/$name/$name.ko" "$dir/"
	done
	"$TOP/scripts/gen-module.sh" warn warn_control "$dir/src/warn_control"
	"$TOP/scripts/build-module.sh" "$obj" "$dir/src/warn_control"
	"$TOP/scripts/gen-module.sh" symprint symprint "$dir/src/symprint"
	"$TOP/scripts/build-module.sh" "$obj" "$dir/src/symprint"
	cp "$dir/src/warn_control/warn_control.ko" "$dir/src/symprint/symprint.ko" \
		"$obj/arch/x86/kvm/kvm.ko" "$obj/virt/lib/irqbypass.ko" "$dir/"
}

build_modules() {
	local work=$1 n
	: >"$work/modules.list"
	for n in $SIZES; do
		if [ "$n" -le $LIST_MAX ]; then
			echo "modsyms_$n.ko" >>"$work/modules.list"
		else
			echo "modsyms_$n.ko times" >>"$work/modules.list"
		fi
	done
	[ "$KVM" -eq 0 ] || echo "kvm.ko" >>"$work/modules.list"
	build_set "$work/ko-patched" "$(kernel_dir patched)"
	! booted lookup || build_set "$work/ko-lookup" "$(kernel_dir lookup)"
}

# round_order R: the kernels round R boots, one per line: all of them in
# round 1; after it every kernel but stock, reversed in even rounds.
round_order() {
	if [ "$1" -eq 1 ]; then
		printf '%s\n' "${KERNELS[@]}"
	elif [ $(($1 % 2)) -eq 0 ]; then
		printf '%s\n' "${KERNELS[@]}" | grep -vx stock | tac
	else
		printf '%s\n' "${KERNELS[@]}" | grep -vx stock
	fi
}

# guest_dir WORK KERNEL ROUND: where the output of that boot goes.
guest_dir() {
	if [ "$3" -eq 1 ]; then echo "$1/guest-$2"; else echo "$1/guest-$2.r$3"; fi
}

# initramfs WORK SET CPIO LIST: the guest's initramfs, with LIST as its
# modules.list and the modules of set SET (WORK/ko-SET).
initramfs() {
	local d=$1/ko-$2
	# shellcheck disable=SC2046
	"$TOP/scripts/mkinitramfs.sh" "$3" "$TOP/guest/bench.sh" "$1/runs" "$4" \
		"$d/warn_control.ko" "$d/modsyms_tiny.ko" "$d/irqbypass.ko" "$d/symprint.ko" $(awk -v w="$d" '{ print w "/" $1 }' "$1/modules.list")
}

run_kernels() {
	local work=$1 k limit r cpio set
	local sets=(patched)
	! booted lookup || sets+=(lookup)
	echo "$RUNS" >"$work/runs"
	for set in "${sets[@]}"; do
		initramfs "$work" "$set" "$work/bench-$set.cpio" "$work/modules.list"
	done
	if [ "$ROUNDS" -gt 1 ]; then
		# Later rounds load the same modules, only timed.
		mkdir -p "$work/timed"
		awk '{ print $1, "times" }' "$work/modules.list" >"$work/timed/modules.list"
		for set in "${sets[@]}"; do
			initramfs "$work" "$set" "$work/bench-timed-$set.cpio" "$work/timed/modules.list"
		done
	fi
	# A load, or with lookups an operation, of the biggest module takes
	# up to 4 min on stock under TCG.
	limit=$((600 + RUNS * 240 * $(wc -l <"$work/modules.list") * (BIG + 1) * 3))
	for ((r = 1; r <= ROUNDS; r++)); do
		while read -r k; do
			cpio=$work/bench-timed-$(modset "$k").cpio
			[ "$r" -gt 1 ] || cpio=$work/bench-$(modset "$k").cpio
			log "round $r: booting $k (runs: $RUNS, limit $limit s)"
			GUEST_CMDLINE=$(lookups_arg "$k" "$r") "$TOP/scripts/run-guest.sh" \
				"$(kernel_dir "$k")/arch/x86/boot/bzImage" \
				"$cpio" "$(guest_dir "$work" "$k" "$r")" "$limit"
		done < <(round_order "$r")
	done
}

# LOOKUP_KERNELS: the kernels that time the lookups (guest/bench.sh):
# those of stock, patched and lookup that the run boots, when lookup and
# another of them boot (main); else none.
LOOKUP_KERNELS=()

# lookups_arg KERNEL ROUND: the command line word that has the guest time
# the lookups: in round 1, on the kernels of LOOKUP_KERNELS in this run.
lookups_arg() {
	[ "$2" -eq 1 ] && [[ " ${LOOKUP_KERNELS[*]} " == *" $1 "* ]] &&
		echo ftrace_modsyms_lookups
	return 0
}

# same_lookups WORK NAME: what the lookups of module NAME left in
# set_ftrace_filter after each write, its /proc/kallsyms lines in order
# and its lines in the other listings (guest/bench.sh, listings), the
# same on the kernels that timed them.
same_lookups() {
	local work=$1 name=$2 k f bad=0
	local KERNELS=("${LOOKUP_KERNELS[@]}")
	for k in "${KERNELS[@]}"; do
		for f in glob mod tiny notrace graph; do
			cp "$work/guest-$k/files/$name.$f" "$work/$name.$k.$f"
		done
		kallsyms_lines "$work/guest-$k/files/$name.kallsyms" >"$work/$name.$k.kallsyms"
		# "ADDRESS NAME [MODULE]": the address made an offset, as above.
		awk '{ print $1, "t", $2, $3 }' "$work/guest-$k/files/$name.addrs" >"$work/$name.$k.addrs.in"
		kallsyms_lines "$work/$name.$k.addrs.in" >"$work/$name.$k.addrs"
		# Their trampolines and callbacks are the kernel's own addresses.
		for f in enabled touched; do
			sed -E 's/0x[0-9a-f]+/0x?/g; s/\<[0-9a-f]{16}\>/ADDR/g' "$work/guest-$k/files/$name.$f" >"$work/$name.$k.$f"
		done
	done
	same_as_first "$work" "lookup check (set_ftrace_filter after the glob)" "$name" glob || bad=1
	same_as_first "$work" "lookup check (set_ftrace_filter after *:mod:$name)" "$name" mod || bad=1
	same_as_first "$work" "lookup check (set_ftrace_filter after *:mod:modsyms_tiny)" "$name" tiny || bad=1
	same_as_first "$work" "lookup check (set_ftrace_notrace after the glob)" "$name" notrace || bad=1
	same_as_first "$work" "lookup check (set_graph_function after the glob)" "$name" graph || bad=1
	same_as_first "$work" "lookup check (/proc/kallsyms lines, in order)" "$name" kallsyms || bad=1
	same_as_first "$work" "lookup check (available_filter_functions_addrs lines)" "$name" addrs || bad=1
	same_as_first "$work" "lookup check (enabled_functions, function tracer on its records)" "$name" enabled || bad=1
	same_as_first "$work" "lookup check (touched_functions after it)" "$name" touched || bad=1
	[ -e "$work/guest-${KERNELS[0]}/files/$name.sprint" ] || return $bad
	for k in "${KERNELS[@]}"; do
		sprint_lines "$work/guest-$k/files/$name.sprint" "$name" >"$work/$name.$k.sprint"
	done
	same_as_first "$work" "lookup check (sprint_symbol() of every byte of its core memory)" "$name" sprint || bad=1
	return $bad
}

# Each module's added lines must be the same on every kernel, and so must
# the records a ":mod:" filter takes (the records not disabled); no kernel
# may WARN, and each must show the control module's WARN (loaded last).
# The variants that decide nothing (floor, walk: every record valid) are
# only timed, and must warn where kvm.ko was loaded: its dead weak call
# sites are then valid records that no lookup names (the generated
# modules have none; without kvm.ko, what they report is only printed).
compare_lists() {
	local work=$1 name k bad=0 exact=() inexact=reported
	[ "$KVM" -eq 0 ] || inexact=warns
	for k in "${KERNELS[@]}"; do
		case $k in
		floor | walk) guest_checks "$work/guest-$k/files" "$k" "$inexact" || bad=1 ;;
		*) exact+=("$k"); guest_checks "$work/guest-$k/files" "$k" || bad=1 ;;
		esac
	done
	# same_lists compares the kernels of KERNELS: here the exact ones.
	local KERNELS=("${exact[@]}")
	while read -r ko mode; do
		name=${ko%.ko}
		if [ "$mode" = times ]; then
			echo "list check: $name: only timed (more than $LIST_MAX functions), lists not compared"
			continue
		fi
		same_lists "$work" "$name" || bad=1
		[ ${#LOOKUP_KERNELS[@]} -eq 0 ] || same_lookups "$work" "$name" || bad=1
	done <"$work/modules.list"
	return $bad
}

# modules_fact: what the facts say of the modules the run loaded (SIZES,
# KVM): the generated ones, kvm.ko, or both.
modules_fact() {
	local gen="" kvm=""
	[ -z "$SIZES" ] ||
		gen="generated, N one-line global functions, each with a __pfx_ symbol and a static data symbol"
	[ "$KVM" -eq 0 ] ||
		kvm="kvm.ko (functions: the lines it adds to available_filter_functions), with irqbypass.ko loaded first"
	echo "$gen${gen:+${kvm:+, and }}$kvm"
}

# module_sizes WORK: "NAME FUNCTIONS" for each module of the run: N for
# modsyms_N, else the functions its load added to patched's
# available_filter_functions (kvm).
module_sizes() {
	local ko name
	while read -r ko _; do
		name=${ko%.ko}
		case $name in
		modsyms_*) echo "$name ${name#modsyms_}" ;;
		*) echo "$name $("$TOP/scripts/list-delta.sh" "$1/guest-patched/files/$name.before" \
			"$1/guest-patched/files/$name.after" | grep -c " \[$name\]\$")" ;;
		esac
	done <"$1/modules.list"
}

# collect WORK OUT: every round's times in OUT/times.tsv, the load of
# round R numbered after those of the rounds before it.
collect() {
	local work=$1 out=$2 k r dir sizes
	mkdir -p "$out"
	sizes=$(module_sizes "$work")
	for k in "${KERNELS[@]}"; do
		for ((r = 1; r <= ROUNDS; r++)); do
			[ "$r" -eq 1 ] || [ "$k" != stock ] || continue
			dir=$(guest_dir "$work" "$k" "$r")
			awk -v k="$k" -v o=$(((r - 1) * RUNS)) 'BEGIN { OFS = "\t" } NR == FNR { n[$1] = $2; next } { print k, $1, n[$1], $2 + o, $3, $4, $5, $6 }' \
				<(echo "$sizes") "$dir/files/times"
		done
	done >"$out/times.tsv"
	for k in "${KERNELS[@]}"; do
		[ -n "$(lookups_arg "$k" 1)" ] || continue
		awk -v k="$k" 'BEGIN { OFS = "\t" } NR == FNR { n[$1] = $2; next } { $1 = $1 "\t" n[$1]; print k, $0 }' \
			<(echo "$sizes") "$work/guest-$k/files/lookups"
	done | tr ' ' '\t' >"$out/lookups.tsv"
	# A run without the lookups (a base without the second series) has none.
	[ -s "$out/lookups.tsv" ] || rm -f "$out/lookups.tsv"
	{
		base_fact "$BASE"
		echo "- config: tinyconfig + config/x86_64-bench.config (x86_64, -O2, CONFIG_BUG, DYNAMIC_FTRACE, IBT: FTRACE_MCOUNT_MAX_OFFSET=4, CALL_PADDING: __pfx_ symbols, KALLSYMS_ALL, MODULES) + config/e2e.config (KUnit, kvm, samples); patched and the variants + config/e2e-series.config (the series' KUnit suite and sample as modules), gcc $(gcc -dumpfullversion)"
		qemu_fact "$(kernel_dir patched)/arch/x86/boot/bzImage" "$work/guest-patched/files/dmesg" "1 vCPU, $(memory_fact)"
		echo "- modules: $(modules_fact); built against the patched kernel and loaded by every kernel but lookup, which loads the same sources built against it (its struct module differs)"
		[ ! -s "$out/lookups.tsv" ] ||
			echo "- lookups (stock, patched and lookup, round 1): each module loaded once more with modsyms_tiny.ko (1 function), then timed (trace_marker before and after): reading available_filter_functions (read); writing to set_ftrace_filter the glob NAME_fn_* (kvm: kvm_*) (glob), *:mod:NAME (mod), *:mod:modsyms_tiny (mod-tiny); defining a kprobe event on NAME:NAME_fn_(N/2) (kvm: the middle function of its list) (kprobe, registered disabled); $RUNS times each, once for a module only timed; on lookup, after them, the index build: index_kallsyms() in $RUNS more loads (once for a module only timed), the function_graph tracer on it alone (build), and its median over patched's insmod median; memory: /sys/module/NAME/coresize and initsize, and NAME's lines in /proc/kallsyms; compared across the three kernels: the filters, set_ftrace_notrace and set_graph_function after the glob, the module's lines in /proc/kallsyms (in order), available_filter_functions_addrs, enabled_functions (function tracer on *:mod:NAME) and touched_functions, addresses as offsets; for kvm.ko and the modules of at most 2,000 functions, sprint_symbol() of every byte of the module's core memory (symprint.ko; but the last run of MOD_DATA, where the index is reserved, and kvm.ko's read-only data)"
		echo "- runs: $RUNS loads per module and kernel in each boot; $(rounds_fact); no tracer active; insmod = trace_marker before and after insmod; enable, init = kprobe/kretprobe on ftrace_module_enable(), ftrace_module_init(); times in the trace clock (us); index = the bytes_req of the kmem:kmalloc events called from ftrace_mod_syms_build() (the first attempt of its kvzalloc()) by the insmod task, traced only inside ftrace_module_enable() by event triggers on the kprobes; all these kprobes are int3 ones (kernel/trace/ has no fentry), so no ftrace_ops is registered during the loads"
		kernels_fact "${KERNELS[@]}"
		echo "- date: $(date -u +%Y-%m-%d); commit: $(git -C "$TOP" describe --always --dirty)"
	} >"$out/facts.md"
}

# rounds_fact: how the kernels were booted, for facts.md.
rounds_fact() {
	if [ "$ROUNDS" -eq 1 ]; then
		echo "each kernel booted once, one after the other"
	else
		echo "$ROUNDS rounds: stock booted once, every other kernel once per round, the order reversed in every other round ($((ROUNDS * RUNS)) loads each)"
	fi
}

# with_lookup: whether $BASE has a second series, and so whether the run
# has, unless --kernels leaves it out, the kernel "lookup" and the lookups.
with_lookup() {
	[ -d "$TOP/patches/$BASE/$LOOKUP_SERIES" ]
}

# lookup_kernel: "lookup" where $BASE has a second series.
lookup_kernel() {
	! with_lookup || echo lookup
}

main() {
	SIZES="2000 8000 16000"
	RUNS=3
	ROUNDS=1
	BIG=0
	KVM=1
	local out="" only="" only_set="" kernels="" work tree chosen=() k
	BASE=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) BASE=$2; shift 2 ;;
		--sizes) SIZES=$2; shift 2 ;;
		--big) BIG=1; shift ;;
		--no-kvm) KVM=0; shift ;;
		--variants) only=$2; only_set=1; shift 2 ;;
		--kernels) kernels=$2; shift 2 ;;
		--runs) RUNS=$2; shift 2 ;;
		--rounds) ROUNDS=$2; shift 2 ;;
		--icount) export GUEST_CLOCK=icount; shift ;;
		--out) out=$2; shift 2 ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a positive number"
	[ -n "${SIZES// /}" ] || [ $KVM -eq 1 ] || die "no module to load: --sizes \"\" and --no-kvm"
	base_info "$BASE" pkg >/dev/null
	if [ -z "$out" ]; then
		out=$TOP/results
		[ "$BASE" = "$(mainline_base)" ] || out=$TOP/results/$BASE
		[ "${GUEST_CLOCK:-host}" != icount ] || out=$out/icount
	fi
	[ $BIG -eq 0 ] || SIZES="$SIZES 65000"
	if [ -n "$kernels" ]; then
		[ -z "$only_set" ] || die "--kernels and --variants: give one of them"
		read -r -a KERNELS <<<"$kernels"
		[ ${#KERNELS[@]} -ge 2 ] || die "--kernels takes at least two kernels (the first is the reference)"
		for k in "${KERNELS[@]}"; do
			case $k in
			stock | patched) ;;
			lookup) with_lookup || die "--kernels: base $BASE has no second series (patches/$BASE/$LOOKUP_SERIES)" ;;
			*) check_variants "$BASE" "$k" ;;
			esac
		done
	elif [ -n "$only_set" ]; then
		read -r -a chosen <<<"$only"
		check_variants "$BASE" "${chosen[@]}"
		mapfile -t KERNELS < <(echo stock; echo patched; lookup_kernel
			[ ${#chosen[@]} -eq 0 ] || printf '%s\n' "${chosen[@]}")
	else
		mapfile -t KERNELS < <(echo stock; echo patched; lookup_kernel; variants "$BASE")
	fi
	for k in stock patched lookup; do
		! booted "$k" || LOOKUP_KERNELS+=("$k")
	done
	# The lookups are timed only with lookup and another of them booted
	booted lookup && [ ${#LOOKUP_KERNELS[@]} -ge 2 ] || LOOKUP_KERNELS=()
	# LOCKED=1: the caller (tests/run.sh) holds the cache's lock.
	[ -n "${LOCKED:-}" ] || lock_cache
	trap 'restore_trees "$BASE"' EXIT
	"$TOP/scripts/install-deps.sh"
	BUILD=$CACHE/build/$BASE
	work=$CACHE/bench
	# A run of a few kernels (the tests') leaves the benchmark's alone.
	[ -z "$kernels" ] || work=$CACHE/bench-kernels
	rm -rf "$work"
	mkdir -p "$work"
	tree=$("$TOP/scripts/make-tree.sh" "$BASE")
	build_kernels "$tree"
	build_modules "$work"
	run_kernels "$work"
	# Results replace those in --out only when every list matched.
	if booted stock && booted patched; then
		collect "$work" "$work/results"
		if [ "${GUEST_CLOCK:-host}" = icount ]; then
			"$TOP/bench/report.sh" "$work/results" "M instructions"
		else
			"$TOP/bench/report.sh" "$work/results"
		fi
		cat "$work/results/results.md"
	else
		mkdir -p "$work/results"
		log "no stock and patched kernels in --kernels: no tables, the lists compared only"
	fi
	compare_lists "$work" | tee "$work/results/list-check.txt" ||
		die "lists differ between kernels; results left in $work/results, $out untouched"
	mkdir -p "$out"
	cp "$work/results"/* "$out/"
	log "results written to $out"
}

main "$@"
