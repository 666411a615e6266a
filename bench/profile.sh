#!/usr/bin/env bash
# Where the instructions (or the time) of a module load go, kernel against
# kernel: boot each kernel of the benchmark under qemu -icount (one guest
# instruction per nanosecond of the guest's clock), time RUNS untraced
# loads of a generated module, then load it once under the function_graph
# tracer with set_graph_function=FUNCTION and max_graph_depth=DEPTH, and
# add up per function the tracer shows its calls and instructions
# (guest/profile.sh). Prints a table of every function whose count is at
# least 1% of the first kernel's FUNCTION or differs from the first
# kernel's by 0.02% of it or more, with the differences.
#
# Usage: bench/profile.sh [--base BASE] [--kernels "patched lookup"]
#                         [--size N] [--function FUNC] [--depth D]
#                         [--runs N] [--clock icount|host] [--boots B]
#                         [--out DIR]
#   --kernels  built kernels of the benchmark (bench/run.sh: stock,
#           patched, lookup, a variant); the first is the reference
#   --size  the generated module's functions (default 16000)
#   --function, --depth  what the tracer graphs (default load_module, 2:
#           the functions it calls, and those of notrace ones such as
#           ftrace_module_enable())
#   --clock  icount (default): count instructions; host: time, the guest
#           under plain TCG (scripts/run-guest.sh's GUEST_CLOCK), which
#           shows what memory costs and counts do not, with the host's
#           noise: boot several times
#   --boots  boots of each kernel (default 1), interleaved (every kernel
#           once, then again); each function's figure is the median of
#           the boots', the insmod line the median of every untraced load
#   --out   where profile.md goes (default results/lookup/profile-FUNC-N,
#           with -host appended under --clock host)
#
# The function_graph tracer's own cost is in its counts: compare them
# with each other, and the untraced insmod counts with the benchmark's.
# A function nested in another is counted in both.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=scripts/stats.sh
. "$TOP/scripts/stats.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"

prealloc_guests

# modules WORK KERNEL N: the module of N functions built against the
# kernel KERNEL loads (the patched build, or lookup's for the second
# series, whose struct module differs), in WORK/ko-SET; prints its path.
modules() {
	local work=$1 set=patched obj dir
	[[ $2 != lookup* ]] || set=lookup
	obj=$(kernel_dir "$set")
	dir=$work/ko-$set/modsyms_$3
	if [ ! -e "$dir/modsyms_$3.ko" ]; then
		"$TOP/scripts/gen-module.sh" bench "modsyms_$3" "$3" "$dir" >&2
		log "building modsyms_$3.ko against ${obj##*/}" >&2
		"$TOP/scripts/build-module.sh" "$obj" "$dir" >&2
	fi
	echo "$dir/modsyms_$3.ko"
}

# profile WORK KERNEL N FUNCTION DEPTH RUNS CLOCK BOOT: boot KERNEL, results
# in WORK/guest-KERNEL-BOOT/files/{insmod,profile}.
profile() {
	local work=$1 k=$2 n=$3 clock=$7 boot=$8 ko files
	ko=$(modules "$work" "$k" "$n")
	files=$work/files-$k
	rm -rf "$files"
	mkdir -p "$files"
	cp "$ko" "$files/"
	echo "modsyms_$n" >"$files/module"
	echo "$4" >"$files/function"
	echo "$5" >"$files/depth"
	echo "$6" >"$files/runs"
	"$TOP/scripts/mkinitramfs.sh" "$work/profile-$k.cpio" "$TOP/guest/profile.sh" "$files"/*
	log "booting $k (clock $clock, boot $boot): modsyms_$n, the graph of $4 (depth $5)"
	GUEST_CLOCK=$clock "$TOP/scripts/run-guest.sh" "$(kernel_dir "$k")/arch/x86/boot/bzImage" \
		"$work/profile-$k.cpio" "$work/guest-$k-$boot" 3600
}

# merge WORK KERNEL BOOTS: the profile lines of KERNEL's boots, each
# function's calls and microseconds the median of its boots' (a boot
# whose graph lacks the function counts 0), in WORK/merged-KERNEL; the
# untraced loads of every boot in WORK/insmod-KERNEL.
merge() {
	local work=$1 k=$2 boots=$3 b
	for ((b = 1; b <= boots; b++)); do
		cat "$work/guest-$k-$b/files/profile"
	done | gawk -v boots="$boots" '
		function med(a,   n) {
			n = asort(a)
			while (n < boots) a[++n] = 0
			n = asort(a)
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ nb[$2]++; calls[$2][nb[$2]] = $3; us[$2][nb[$2]] = $4 }
		END { for (f in nb) printf "profile %s %d %.0f\n", f, med(calls[f]), med(us[f]) }' >"$work/merged-$k"
	for ((b = 1; b <= boots; b++)); do
		cat "$work/guest-$k-$b/files/insmod"
	done >"$work/insmod-$k"
}

# table WORK FUNCTION UNIT KERNEL...: the markdown table of the merged
# profiles, in UNIT (a thousandth of the guest's microseconds).
table() {
	local work=$1 fn=$2 unit=$3 k
	shift 3
	for k in "$@"; do
		awk -v k="$k" '{ print k, $2, $3, $4 }' "$work/merged-$k"
	done | awk -v fn="$fn" -v list="$*" -v unit="$unit" '
		BEGIN { nk = split(list, ks, " ") }
		{ calls[$2, $1] = $3; us[$2, $1] = $4; seen[$2] = 1 }
		END {
			ref = ks[1]; total = us[fn, ref]
			printf "z1 | function |"
			for (i = 1; i <= nk; i++) printf " %s calls | %s %s |", ks[i], ks[i], unit
			for (i = 2; i <= nk; i++) printf " %s - %s |", ks[i], ref
			printf "\nz0 |---|"
			for (i = 1; i <= nk; i++) printf "---:|---:|"
			for (i = 2; i <= nk; i++) printf "---:|"
			printf "\n"
			for (f in seen) {
				keep = us[f, ref] >= total / 100
				for (i = 2; i <= nk; i++)
					if (us[f, ks[i]] - us[f, ref] >= total / 5000 || us[f, ref] - us[f, ks[i]] >= total / 5000)
						keep = 1
				if (!keep) continue
				line = "| " f " |"
				for (i = 1; i <= nk; i++) line = line sprintf(" %d | %.3f |", calls[f, ks[i]], us[f, ks[i]] / 1000)
				for (i = 2; i <= nk; i++) line = line sprintf(" %+.3f |", (us[f, ks[i]] - us[f, ref]) / 1000)
				printf "%012.3f %s\n", us[f, ref] + us[f, ks[nk]], line
			}
		}' | sort -r | cut -d' ' -f2-
}

# insmod_line WORK UNIT KERNEL...: the untraced insmod counts or times,
# median (min-max) by the benchmark's summarize (scripts/stats.sh), in
# UNIT (a thousandth of the guest's microseconds: millions of
# instructions under -icount).
insmod_line() {
	local work=$1 unit=$2 k
	shift 2
	for k in "$@"; do
		printf -- '- insmod, untraced, %s: %s %s\n' "$k" \
			"$(awk -v k="$k" 'BEGIN { OFS = "\t" } { print k, "insmod", 0, NR, $3 }' "$work/insmod-$k" |
				summarize /dev/stdin | awk -F'\t' '{ printf "%.2f (%.2f-%.2f)", $5 / 1000, $6 / 1000, $7 / 1000 }')" "$unit"
	done
}

main() {
	local base size=16000 fn=load_module depth=2 runs=3 out="" kernels="patched lookup" work k
	local clock=icount boots=1 unit b
	base=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) base=$2; shift 2 ;;
		--kernels) kernels=$2; shift 2 ;;
		--size) size=$2; shift 2 ;;
		--function) fn=$2; shift 2 ;;
		--depth) depth=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--clock) clock=$2; shift 2 ;;
		--boots) boots=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		*) die "unknown option '$1' (see the head of $0)" ;;
		esac
	done
	[[ $size =~ ^[1-9][0-9]*$ ]] || die "--size takes a positive number"
	[[ $depth =~ ^[1-9][0-9]*$ ]] || die "--depth takes a positive number"
	[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	[[ $boots =~ ^[1-9][0-9]*$ ]] || die "--boots takes a positive number"
	case $clock in
	icount) unit="M instructions" ;;
	host) unit=ms ;;
	*) die "--clock takes icount or host, not '$clock'" ;;
	esac
	[[ $fn =~ ^[A-Za-z_][A-Za-z0-9_.]*$ ]] || die "--function takes a function name"
	local ks=()
	read -r -a ks <<<"$kernels"
	[ ${#ks[@]} -ge 1 ] || die "--kernels: no kernel"
	[ -n "$out" ] || out=$TOP/results/lookup/profile-$fn-$size$([ "$clock" = icount ] || echo "-$clock")
	[ -n "${LOCKED:-}" ] || lock_cache
	BUILD=$CACHE/build/$base
	for k in "${ks[@]}" patched; do
		[ -e "$(kernel_dir "$k")/arch/x86/boot/bzImage" ] ||
			die "no kernel $k of base $base in $(kernel_dir "$k"): build it with bench/run.sh --base $base --kernels \"patched $k\""
	done
	[[ " ${ks[*]} " != *" lookup"* ]] || [ -e "$(kernel_dir lookup)/arch/x86/boot/bzImage" ] ||
		die "no lookup kernel of base $base, which the second series' modules are built against"
	work=$CACHE/profile
	rm -rf "$work/files-"* "$work/guest-"* "$work/merged-"* "$work/insmod-"*
	mkdir -p "$work"
	for ((b = 1; b <= boots; b++)); do
		for k in "${ks[@]}"; do
			profile "$work" "$k" "$size" "$fn" "$depth" "$runs" "$clock" "$b"
		done
	done
	for k in "${ks[@]}"; do
		merge "$work" "$k" "$boots"
	done
	mkdir -p "$out"
	{
		echo "# Where a load of modsyms_$size goes: the function_graph tracer on $fn, depth $depth"
		echo
		base_fact "$base"
		echo "- config: the benchmark's (bench/run.sh): tinyconfig + config/x86_64-bench.config + config/e2e.config, + config/e2e-series.config for the series, + config/e2e-lookup.config for lookup"
		echo "- qemu: $(qemu-system-x86_64 --version | sed -n 1p), accel $(GUEST_CLOCK=$clock accel_fact "$(kernel_dir "${ks[0]}")/arch/x86/boot/bzImage"), 1 vCPU, $(memory_fact); host: $(host_fact)"
		echo "- module: modsyms_$size (scripts/gen-module.sh bench: $size one-line global functions, each with a __pfx_ symbol and a static data symbol), built against the patched kernel (lookup: against lookup)"
		echo "- runs: $runs untraced loads (trace_marker before and after insmod), then one load under function_graph; each kernel booted $boots time(s), the kernels one after the other in each round; per function the median of the boots, for insmod the median (min-max) of every untraced load"
		echo "- date: $(date -u +%Y-%m-%d); commit: $(git -C "$TOP" rev-parse --short HEAD)$(git -C "$TOP" diff --quiet HEAD -- || echo -dirty)"
		kernels_fact "${ks[@]}"
		echo
		insmod_line "$work" "$unit" "${ks[@]}"
		echo
		echo "Under the tracer (its own cost included; a function nested in another counted in both; functions at 1% or more of $fn, or that differ):"
		echo
		table "$work" "$fn" "$unit" "${ks[@]}"
	} >"$out/profile.md"
	cat "$out/profile.md"
	log "profile written to $out/profile.md"
}

main "$@"
