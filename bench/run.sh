#!/usr/bin/env bash
# The A/B benchmark: a stock base against the series and its
# benchmark-only variants (bench/variant-*.patch), loading generated
# modules in qemu.
#
# Usage: bench/run.sh [--base BASE] [--sizes "2000 8000 16000"] [--big]
#                     [--variants "NAME..."] [--runs N] [--rounds R]
#                     [--icount] [--out DIR]
#   --base  the base (a line of bases; default: the mainline one, 7.3),
#           with the series of patches/BASE
#   --big   adds a 65,000-function module (amdgpu scale; stock needs
#           minutes per load under TCG)
#   --variants  only these variants (NAME of bench/variant-NAME.patch;
#           default: all of them); stock and patched always run
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
# Prints a markdown table, writes DIR/results.md and DIR/plot.png, and
# fails if any module's lines in available_filter_functions differ between
# the kernels.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"

# The kernels are the end-to-end test kernels of tests/run.sh (the same
# build directories: the test command builds the patched one, its full
# tier the stock one too) and one per variant: the patched one plus
# bench/variant-NAME.patch.
FRAGS=("$TOP/config/x86_64-bench.config" "$TOP/config/e2e.config")

# kernel_dir KIND: the build directory of a kernel of the benchmark.
kernel_dir() {
	case $1 in
	stock | patched) echo "$BUILD/e2e-$1" ;;
	*) echo "$BUILD/bench-$1" ;;
	esac
}

# variant_kernel_of NAME FRAGMENT...: the kernel of variant NAME
# (bench/lib.sh), built in bench-variants.
variant_kernel_of() {
	local name=$1
	shift
	variant_kernel "$BASE" "$name" "$BUILD/bench-variants" "$(kernel_dir "$name")" "$@"
}

build_kernels() {
	local tree=$1 v series=("${FRAGS[@]}" "$TOP/config/e2e-series.config")
	"$TOP/scripts/build-kernel.sh" "$(kind_tree "$BASE" stock)" "$(kind_ref stock)" "$(kernel_dir stock)" "${FRAGS[@]}"
	"$TOP/scripts/build-kernel.sh" "$tree" "$(kind_ref patched)" "$(kernel_dir patched)" "${series[@]}"
	for v in "${KERNELS[@]:2}"; do
		variant_kernel_of "$v" "${series[@]}"
	done
}

# Modules are built once, against the patched kernel, and the same .ko
# files are loaded by every kernel. A module of more than LIST_MAX
# functions is only timed ("times" in modules.list): reading
# available_filter_functions, writing a ":mod:" filter and reading it back
# each cost records x symbols on every kernel (print_rec() and lookup_ip()
# still look up each record, minutes for one read of the list at 65,000
# functions under TCG), so its lists are not compared.
LIST_MAX=16000

build_modules() {
	local work=$1 n name
	: >"$work/modules.list"
	for n in $SIZES; do
		name=modsyms_$n
		rm -rf "${work:?}/$name"
		"$TOP/scripts/gen-module.sh" bench "$name" "$n" "$work/$name"
		log "building $name.ko ($n functions)"
		"$TOP/scripts/build-module.sh" "$(kernel_dir patched)" "$work/$name"
		cp "$work/$name/$name.ko" "$work/"
		if [ "$n" -le $LIST_MAX ]; then
			echo "$name.ko" >>"$work/modules.list"
		else
			echo "$name.ko times" >>"$work/modules.list"
		fi
	done
	"$TOP/scripts/gen-module.sh" warn warn_control "$work/warn_control"
	"$TOP/scripts/build-module.sh" "$(kernel_dir patched)" "$work/warn_control"
	cp "$work/warn_control/warn_control.ko" "$work/"
}

# round_order R: the kernels round R boots, one per line: all of them in
# round 1; after it every kernel but stock, reversed in even rounds.
round_order() {
	if [ "$1" -eq 1 ]; then
		printf '%s\n' "${KERNELS[@]}"
	elif [ $(($1 % 2)) -eq 0 ]; then
		printf '%s\n' "${KERNELS[@]:1}" | tac
	else
		printf '%s\n' "${KERNELS[@]:1}"
	fi
}

# guest_dir WORK KERNEL ROUND: where the output of that boot goes.
guest_dir() {
	if [ "$3" -eq 1 ]; then echo "$1/guest-$2"; else echo "$1/guest-$2.r$3"; fi
}

# initramfs WORK CPIO LIST: the guest's initramfs, with LIST as its
# modules.list and every module of WORK/modules.list.
initramfs() {
	# shellcheck disable=SC2046
	"$TOP/scripts/mkinitramfs.sh" "$2" "$TOP/guest/bench.sh" "$1/runs" "$3" \
		"$1/warn_control.ko" $(awk -v w="$1" '{ print w "/" $1 }' "$1/modules.list")
}

run_kernels() {
	local work=$1 k limit r cpio
	echo "$RUNS" >"$work/runs"
	initramfs "$work" "$work/bench.cpio" "$work/modules.list"
	if [ "$ROUNDS" -gt 1 ]; then
		# Later rounds load the same modules, only timed.
		mkdir -p "$work/timed"
		awk '{ print $1, "times" }' "$work/modules.list" >"$work/timed/modules.list"
		initramfs "$work" "$work/bench-timed.cpio" "$work/timed/modules.list"
	fi
	limit=$((600 + RUNS * 240 * $(wc -l <"$work/modules.list") * (BIG + 1)))
	for ((r = 1; r <= ROUNDS; r++)); do
		cpio=$work/bench-timed.cpio
		[ "$r" -gt 1 ] || cpio=$work/bench.cpio
		while read -r k; do
			log "round $r: booting $k (runs: $RUNS, limit $limit s)"
			"$TOP/scripts/run-guest.sh" "$(kernel_dir "$k")/arch/x86/boot/bzImage" \
				"$cpio" "$(guest_dir "$work" "$k" "$r")" "$limit"
		done < <(round_order "$r")
	done
}

# Each module's added lines must be the same on every kernel, and so must
# the records a ":mod:" filter takes (the records not disabled); no kernel
# may WARN, and each must show the control module's WARN (loaded last).
compare_lists() {
	local work=$1 name k bad=0
	for k in "${KERNELS[@]}"; do
		guest_checks "$work/guest-$k/files" "$k" || bad=1
	done
	while read -r ko mode; do
		name=${ko%.ko}
		if [ "$mode" = times ]; then
			echo "list check: $name: only timed (more than $LIST_MAX functions), lists not compared"
			continue
		fi
		same_lists "$work" "$name" || bad=1
	done <"$work/modules.list"
	return $bad
}

# collect WORK OUT: every round's times in OUT/times.tsv, the load of
# round R numbered after those of the rounds before it.
collect() {
	local work=$1 out=$2 k r dir
	mkdir -p "$out"
	for k in "${KERNELS[@]}"; do
		for ((r = 1; r <= ROUNDS; r++)); do
			[ "$r" -eq 1 ] || [ "$k" != stock ] || continue
			dir=$(guest_dir "$work" "$k" "$r")
			awk -v k="$k" -v o=$(((r - 1) * RUNS)) 'BEGIN { OFS = "\t" } { n = $1; sub("^modsyms_", "", n); print k, $1, n, $2 + o, $3, $4, $5, $6 }' \
				"$dir/files/times"
		done
	done >"$out/times.tsv"
	{
		base_fact "$BASE"
		echo "- config: tinyconfig + config/x86_64-bench.config (x86_64, -O2, CONFIG_BUG, DYNAMIC_FTRACE, IBT: FTRACE_MCOUNT_MAX_OFFSET=4, CALL_PADDING: __pfx_ symbols, KALLSYMS_ALL, MODULES) + config/e2e.config (KUnit, kvm, samples); patched and the variants + config/e2e-series.config (the series' KUnit suite and sample as modules), gcc $(gcc -dumpfullversion)"
		qemu_fact "$(kernel_dir patched)/arch/x86/boot/bzImage" "$work/guest-patched/files/dmesg" "1 vCPU, 2 GiB"
		echo "- modules: generated, N one-line global functions, each with a __pfx_ symbol and a static data symbol; the same .ko loaded by every kernel"
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

main() {
	SIZES="2000 8000 16000"
	RUNS=3
	ROUNDS=1
	BIG=0
	local out="" only="" work tree chosen
	BASE=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) BASE=$2; shift 2 ;;
		--sizes) SIZES=$2; shift 2 ;;
		--big) BIG=1; shift ;;
		--variants) only=$2; shift 2 ;;
		--runs) RUNS=$2; shift 2 ;;
		--rounds) ROUNDS=$2; shift 2 ;;
		--icount) export GUEST_CLOCK=icount; shift ;;
		--out) out=$2; shift 2 ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a positive number"
	base_info "$BASE" pkg >/dev/null
	if [ -z "$out" ]; then
		out=$TOP/results
		[ "$BASE" = "$(mainline_base)" ] || out=$TOP/results/$BASE
		[ "${GUEST_CLOCK:-host}" != icount ] || out=$out/icount
	fi
	[ $BIG -eq 0 ] || SIZES="$SIZES 65000"
	if [ -n "$only" ]; then
		read -r -a chosen <<<"$only"
		check_variants "${chosen[@]}"
		mapfile -t KERNELS < <(echo stock; echo patched; printf '%s\n' "${chosen[@]}")
	else
		mapfile -t KERNELS < <(echo stock; echo patched; variants)
	fi
	lock_cache
	trap 'restore_trees "$BASE"' EXIT
	"$TOP/scripts/install-deps.sh"
	BUILD=$CACHE/build/$BASE
	work=$CACHE/bench
	rm -rf "$work"
	mkdir -p "$work"
	tree=$("$TOP/scripts/make-tree.sh" "$BASE")
	build_kernels "$tree"
	build_modules "$work"
	run_kernels "$work"
	# Results replace those in --out only when every list matched.
	collect "$work" "$work/results"
	if [ "${GUEST_CLOCK:-host}" = icount ]; then
		"$TOP/bench/report.sh" "$work/results" "M instructions"
	else
		"$TOP/bench/report.sh" "$work/results"
	fi
	cat "$work/results/results.md"
	compare_lists "$work" | tee "$work/results/list-check.txt" ||
		die "lists differ between kernels; results left in $work/results, $out untouched"
	mkdir -p "$out"
	cp "$work/results"/* "$out/"
	log "results written to $out"
}

main "$@"
