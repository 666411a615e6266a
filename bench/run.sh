#!/usr/bin/env bash
# The A/B benchmark: a stock base against the series (and the
# sort-every-symbol variant), loading generated modules in qemu.
#
# Usage: bench/run.sh [--base BASE] [--sizes "2000 8000 16000"] [--big]
#                     [--runs N] [--out DIR]
#   --base  the base (a line of bases; default: the mainline one, 7.3),
#           with the series of patches/BASE
#   --big   adds a 65,000-function module (amdgpu scale; stock needs
#           minutes per load under TCG)
#   --runs  loads per module and kernel (default 3)
#   --out   results directory (default: results/ in this repository for
#           the mainline base, results/BASE/ for another)
#
# Prints a markdown table, writes DIR/results.md and DIR/plot.png, and
# fails if any module's lines in available_filter_functions differ between
# the kernels.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

FRAG=$TOP/config/x86_64-bench.config
KERNELS=(stock variant patched)

build_kernels() {
	local tree=$1
	"$TOP/scripts/build-kernel.sh" "$tree" base "$BUILD/stock" "$FRAG"
	git -C "$tree" checkout -q -B variant series
	git -C "$tree" am -q "$TOP/bench/variant-sort-all-symbols.patch" || {
		git -C "$tree" am --abort || true
		die "bench/variant-sort-all-symbols.patch does not apply on the series"
	}
	"$TOP/scripts/build-kernel.sh" "$tree" variant "$BUILD/variant" "$FRAG"
	"$TOP/scripts/build-kernel.sh" "$tree" series "$BUILD/patched" "$FRAG"
}

# Modules are built once, against the patched kernel, and the same .ko
# files are loaded by every kernel.
build_modules() {
	local work=$1 n name
	: >"$work/modules.list"
	for n in $SIZES; do
		name=modsyms_$n
		rm -rf "${work:?}/$name"
		"$TOP/scripts/gen-module.sh" bench "$name" "$n" "$work/$name"
		log "building $name.ko ($n functions)"
		"$TOP/scripts/build-module.sh" "$BUILD/patched" "$work/$name"
		cp "$work/$name/$name.ko" "$work/"
		echo "$name.ko" >>"$work/modules.list"
	done
}

run_kernels() {
	local work=$1 k limit
	echo "$RUNS" >"$work/runs"
	# shellcheck disable=SC2046
	"$TOP/scripts/mkinitramfs.sh" "$work/bench.cpio" "$TOP/guest/bench.sh" \
		"$work/runs" "$work/modules.list" $(sed "s|^|$work/|" "$work/modules.list")
	limit=$((600 + RUNS * 240 * $(wc -l <"$work/modules.list") * (BIG + 1)))
	for k in "${KERNELS[@]}"; do
		log "booting $k (runs: $RUNS, limit ${limit}s)"
		"$TOP/scripts/run-guest.sh" "$BUILD/$k/arch/x86/boot/bzImage" \
			"$work/bench.cpio" "$work/guest-$k" "$limit"
	done
}

# same_as_stock WORK CHECK NAME EXT: WORK/NAME.KERNEL.EXT must be the same,
# and not empty, on every kernel.
same_as_stock() {
	local work=$1 check=$2 name=$3 ext=$4 k bad=0 ref
	ref=$work/$name.stock.$ext
	for k in variant patched; do
		if [ -s "$ref" ] && cmp -s "$ref" "$work/$name.$k.$ext"; then
			echo "$check: $name: $k identical to stock ($(wc -l <"$ref") lines)"
		else
			echo "$check: $name: $k DIFFERS from stock:"
			{ diff "$ref" "$work/$name.$k.$ext" || true; } | head -n 20 || true
			bad=1
		fi
	done
	return $bad
}

# Each module's added lines must be the same on every kernel, and so must
# the records a ":mod:" filter takes (the records not disabled); no kernel
# may WARN.
compare_lists() {
	local work=$1 name k bad=0
	for k in "${KERNELS[@]}"; do
		if grep -E 'WARNING:|BUG:' "$work/guest-$k/files/dmesg"; then
			echo "decision check: $k: the kernel warned"
			bad=1
		fi
	done
	while read -r ko; do
		name=${ko%.ko}
		for k in "${KERNELS[@]}"; do
			"$TOP/scripts/list-delta.sh" "$work/guest-$k/files/$name.before" \
				"$work/guest-$k/files/$name.after" >"$work/$name.$k.delta"
			cp "$work/guest-$k/files/$name.filter" "$work/$name.$k.filter"
		done
		same_as_stock "$work" "decision check (records a :mod: filter takes)" "$name" filter || bad=1
		same_as_stock "$work" "list check (lines added to available_filter_functions)" "$name" delta || bad=1
	done <"$work/modules.list"
	return $bad
}

collect() {
	local work=$1 out=$2 k
	mkdir -p "$out"
	for k in "${KERNELS[@]}"; do
		awk -v k="$k" '{ n = $1; sub("^modsyms_", "", n); printf "%s\t%s\t%s\t%s\t%s\t%s\n", k, $1, n, $2, $3, $4 }' \
			"$work/guest-$k/files/times"
	done >"$out/times.tsv"
	{
		echo "- kernel: Debian $(base_info "$BASE" pkg) $(base_info "$BASE" version), stock and with patches/$BASE"
		echo "- config: tinyconfig + config/x86_64-bench.config (x86_64, DYNAMIC_FTRACE, IBT: FTRACE_MCOUNT_MAX_OFFSET=4, CALL_PADDING: __pfx_ symbols, KALLSYMS_ALL, MODULES), gcc $(gcc -dumpfullversion)"
		echo "- qemu: $(qemu-system-x86_64 --version | sed -n 1p), accel $("$TOP/scripts/qemu-accel.sh" "$BUILD/patched/arch/x86/boot/bzImage"), 1 vCPU, 2 GiB; host: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
		echo "- modules: generated, N one-line global functions, each with a __pfx_ symbol and a static data symbol; the same .ko loaded by every kernel"
		echo "- runs: $RUNS loads per module and kernel, no tracer active; insmod = trace_marker before and after insmod; enable = kprobe/kretprobe on ftrace_module_enable(); times in the trace clock (us)"
		echo "- kernels: stock = the Debian source as is; patched = the series; variant = the series + bench/variant-sort-all-symbols.patch (all text symbols sorted with sort(), binary search per record)"
		echo "- date: $(date -u +%Y-%m-%d)"
	} >"$out/facts.md"
}

main() {
	SIZES="2000 8000 16000"
	RUNS=3
	BIG=0
	local out="" work tree
	BASE=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) BASE=$2; shift 2 ;;
		--sizes) SIZES=$2; shift 2 ;;
		--big) BIG=1; shift ;;
		--runs) RUNS=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	base_info "$BASE" pkg >/dev/null
	if [ -z "$out" ]; then
		out=$TOP/results
		[ "$BASE" = "$(mainline_base)" ] || out=$TOP/results/$BASE
	fi
	[ $BIG -eq 0 ] || SIZES="$SIZES 65000"
	lock_cache
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
	"$TOP/bench/report.sh" "$work/results"
	cat "$work/results/results.md"
	compare_lists "$work" | tee "$work/results/list-check.txt" ||
		die "lists differ between kernels; results left in $work/results, $out untouched"
	mkdir -p "$out"
	cp "$work/results"/* "$out/"
	log "results written to $out"
}

main "$@"
