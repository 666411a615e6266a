# shellcheck shell=bash
# The kernels the benchmarks share (bench/run.sh, bench/real.sh): the
# benchmark-only variants of the series and the way each is built. Source
# it after scripts/lib.sh and scripts/splat.sh; do not run it.

# variants BASE: the NAME of each bench/variant-NAME.patch; those on top
# of the second series (lookup-*, variant_start) only where BASE has it.
variants() {
	local p
	for p in "$TOP"/bench/variant-*.patch; do
		[ -e "$p" ] || continue
		p=${p##*/variant-}
		p=${p%.patch}
		[[ $p != lookup-* ]] || [ -d "$TOP/patches/$1/$LOOKUP_SERIES" ] || continue
		echo "$p"
	done
}

# kernel_dir KIND: the build directory of a kernel of the benchmark, in
# $BUILD (the base's build directory in the cache): the end-to-end test
# kernels for stock, patched and lookup, bench-KIND for a variant.
kernel_dir() {
	case $1 in
	stock | patched | lookup) echo "$BUILD/e2e-$1" ;;
	*) echo "$BUILD/bench-$1" ;;
	esac
}

# variant_start NAME: the branch variant NAME applies on: lookup (the
# second series) for a lookup-* variant, else series.
variant_start() {
	if [[ $1 == lookup-* ]]; then echo lookup; else echo series; fi
}

# check_variants BASE NAME...: each NAME is a variant of BASE (variants).
check_variants() {
	local base=$1 v
	shift
	for v in "$@"; do
		variants "$base" | grep -x -- "$v" >/dev/null || die "--variants: no bench/variant-$v.patch for base $base"
	done
}

# subject PATCH: the subject of a format-patch file, on one line.
subject() {
	awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; sub(/^Subject: \[PATCH\] /, "", s); print s; exit }' "$1"
}

# variant_sum TREE NAME: what variant NAME is built from: the commit it
# applies on (variant_start) and the digest of bench/variant-NAME.patch.
variant_sum() {
	echo "$(git -C "$1" rev-parse "$(variant_start "$2")")-$(sha256sum <"$TOP/bench/variant-$2.patch" | cut -c1-16)"
}

# variant_branch TREE NAME SUM: branch variant-NAME of TREE (the series,
# or the second series, + bench/variant-NAME.patch), made again when SUM
# changed.
variant_branch() {
	local vtree=$1 name=$2 sum=$3 key=ftrace-modsyms.variant-$2
	if [ "$(git -C "$vtree" config --get "$key" || true)" = "$sum" ] &&
		git -C "$vtree" rev-parse -q --verify "variant-$name" >/dev/null; then
		return 0
	fi
	git -C "$vtree" config --unset "$key" || true
	local start
	start=$(variant_start "$name")
	git -C "$vtree" checkout -q --detach "$start"
	git -C "$vtree" am -q "$TOP/bench/variant-$name.patch" >&2 || {
		git -C "$vtree" am --abort || true
		die "bench/variant-$name.patch does not apply on branch $start"
	}
	git -C "$vtree" branch -q -f "variant-$name" HEAD
	git -C "$vtree" config "$key" "$sum"
}

# variant_kernel BASE NAME SHARED DIR [--image-only] FRAGMENT...: the
# kernel of variant NAME of BASE, its bzImage in DIR. A variant changes a
# C file or two of the series (kernel/trace/ftrace.c,
# kernel/module/kallsyms.c), so all of them are built in one work tree
# (trees/BASE/variant) and one build directory SHARED, one after the
# other: after the first, a variant is an incremental build of those
# objects and the link. DIR keeps the sum it was built from (the
# variant's and the fragments'); a kernel whose sum matches is not built
# again.
variant_kernel() {
	local base=$1 name=$2 shared=$3 dir=$4 vtree vsum sum opts=()
	shift 4
	[ "${1:-}" != --image-only ] || { opts=(--image-only); shift; }
	vtree=$(kind_tree "$base" variant)
	# The second series' branch, for a lookup-* variant.
	[[ $name != lookup-* ]] || kind_tree "$base" lookup >/dev/null
	vsum=$(variant_sum "$vtree" "$name")
	sum="$vsum-$(cat "$@" | sha256sum | cut -c1-16)"
	if [ -s "$dir/arch/x86/boot/bzImage" ] && [ "$(cat "$dir/variant-sum" 2>/dev/null || true)" = "$sum" ]; then
		log "$name: built from $sum, up to date"
		return 0
	fi
	variant_branch "$vtree" "$name" "$vsum"
	"$TOP/scripts/build-kernel.sh" "${opts[@]}" "$vtree" "variant-$name" "$shared" "$@"
	# A build directory of its own, from before the variants shared one.
	[ ! -e "$dir/Makefile" ] || rm -rf "$dir"
	mkdir -p "$dir/arch/x86/boot"
	rm -f "$dir/variant-sum"
	cp "$shared/arch/x86/boot/bzImage" "$dir/arch/x86/boot/bzImage"
	echo "$sum" >"$dir/variant-sum"
}

# prealloc_guests: the benchmark's guests get their RAM allocated by qemu
# before they start (scripts/run-guest.sh's GUEST_PREALLOC), unless the
# caller set GUEST_PREALLOC: no host page faults in what they time. Called
# by the benchmark scripts, not on sourcing, so that the tests that source
# this file keep their guests as they are.
prealloc_guests() {
	export GUEST_PREALLOC=${GUEST_PREALLOC:-1}
}

# memory_fact: how the guest's RAM is backed, for facts.md.
memory_fact() {
	if [ "${GUEST_PREALLOC:-0}" = 1 ]; then
		echo "2 GiB, allocated by qemu before the guest starts (-mem-prealloc)"
	else
		echo "2 GiB, faulted in by the host as the guest first touches it"
	fi
}

# clock_fact: the rate the guest is told its TSC runs at, for facts.md.
clock_fact() {
	if [ "${GUEST_CLOCK:-host}" = icount ]; then
		echo "told 1 GHz: one tick per guest instruction, scripts/run-guest.sh"
	else
		echo "under TCG the guest is given the host's TSC rate, scripts/run-guest.sh"
	fi
}

# base_fact BASE: the kernel line of a facts.md.
base_fact() {
	echo "- kernel: Debian $(base_info "$1" pkg) $(base_info "$1" version), stock and with patches/$1"
}

# host_fact: the host of a run, its CPUs and their model.
host_fact() {
	echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
}

# qemu_fact BZIMAGE DMESG MACHINE: the qemu line of a facts.md: qemu, its
# accelerator for BZIMAGE, MACHINE (vCPUs, memory...), the host, and the
# clock source the guest's DMESG switched to.
qemu_fact() {
	echo "- qemu: $(qemu-system-x86_64 --version | sed -n 1p), accel $(accel_fact "$1"), $3; host: $(host_fact); guest clock: $(grep -o 'Switched to clocksource [a-z-]*' "$2" | tail -n 1 | sed 's/Switched to clocksource //') ($(clock_fact))"
}

# kernels_fact KERNEL...: the kernels of a run, for facts.md.
kernels_fact() {
	local k
	local lookup=""
	[[ " $* " != *" lookup "* ]] ||
		lookup="; lookup = the series + patches/BASE/$LOOKUP_SERIES (the second series)"
	echo "- kernels: stock = the Debian source as is; patched = the series$lookup; each other = the series + bench/variant-NAME.patch:"
	for k in "$@"; do
		case $k in
		stock | patched | lookup) ;;
		lookup-*) echo "  - $k (on the second series): $(subject "$TOP/bench/variant-$k.patch")" ;;
		*) echo "  - $k: $(subject "$TOP/bench/variant-$k.patch")" ;;
		esac
	done
}

# kallsyms_lines FILE: the /proc/kallsyms lines of a module, the address
# of each text symbol made an offset from the lowest text address (where
# the module was put may differ between kernels, its layout may not), the
# others by type and name only: their regions cannot be told apart here,
# and the second series' index moves those after MOD_DATA (kvm.ko's
# ro_after_init data by 28 KiB); sprint (guest/bench.sh) compares data
# offsets region by region. (Only the low 48 bits of an address are read:
# a double holds no more exactly, and a module spans far less.)
kallsyms_lines() {
	gawk '{ t = tolower($2) == "t"; a[NR] = strtonum("0x" substr($1, length($1) - 11)); k[NR] = t; l[NR] = $2 " " $3 " " $4
		if (t && (lo == "" || a[NR] < lo)) lo = a[NR] }
		END { for (i = 1; i <= NR; i++) if (k[i]) printf "t+%x %s\n", a[i] - lo, l[i]; else printf "- %s\n", l[i] }' "$1"
}

# sprint_lines FILE NAME: the lines of guest/bench.sh's sprint of module
# NAME (a line per run of bytes one symbol names: "TYPE+OFFSET NAME/SIZE
# [MODULE]@OFFSET", TYPE an enum mod_mem_type, 1 = MOD_DATA), but the last
# run of MOD_DATA, whose size is the distance to the region's end: the
# second series reserves its index at the end of MOD_DATA, past the last
# symbol. For kvm.ko, read-only data (TYPE 2) is left out: the lookup
# kernel loads its own build, whose .rodata holds its tree's paths.
sprint_lines() {
	awk -v name="$2" '
		{ split($1, a, "+"); t = a[1] }
		t == 2 && name == "kvm" { next }
		t == 1 { if (held != "") print held; held = $0; next }
		{ print }' "$1"
}

# same_as_first WORK CHECK NAME EXT: WORK/NAME.KERNEL.EXT must be the
# same, and not empty, on every kernel of KERNELS as on the first (stock,
# unless bench/run.sh --kernels names another first).
same_as_first() {
	local work=$1 check=$2 name=$3 ext=$4 k bad=0 ref first=${KERNELS[0]}
	ref=$work/$name.$first.$ext
	for k in "${KERNELS[@]:1}"; do
		if [ -s "$ref" ] && cmp -s "$ref" "$work/$name.$k.$ext"; then
			echo "$check: $name: $k identical to $first ($(wc -l <"$ref") lines)"
		else
			echo "$check: $name: $k DIFFERS from $first:"
			{ diff "$ref" "$work/$name.$k.$ext" || true; } | head -n 20 || true
			bad=1
		fi
	done
	return $bad
}

# same_lists WORK NAME: the lines module NAME added to
# available_filter_functions, and the records a ":mod:NAME" filter takes
# (the records not disabled: the decisions), the same on every kernel;
# from WORK/guest-KERNEL/files/NAME.{before,after,filter}.
same_lists() {
	local work=$1 name=$2 k bad=0
	for k in "${KERNELS[@]}"; do
		"$TOP/scripts/list-delta.sh" "$work/guest-$k/files/$name.before" \
			"$work/guest-$k/files/$name.after" >"$work/$name.$k.delta"
		cp "$work/guest-$k/files/$name.filter" "$work/$name.$k.filter"
	done
	same_as_first "$work" "decision check (records a :mod: filter takes)" "$name" filter || bad=1
	same_as_first "$work" "list check (lines added to available_filter_functions)" "$name" delta || bad=1
	return $bad
}

# guest_checks FILES KERNEL [warns|reported]: in the logs a guest sent
# (FILES/dmesg, and FILES/dmesg-control after warn_control.ko), KERNEL did
# not warn (with "warns": did, for a kernel meant to decide wrongly; with
# "reported": whatever it reported is printed, not judged), its clock was
# the TSC (else its times are in jiffies), and it showed the control
# module's WARN (scripts/splat.sh).
guest_checks() {
	local files=$1 k=$2 expect=${3:-} bad=0
	if [ "$expect" = reported ]; then
		if kernel_warned "$files/dmesg" >"$files/splats"; then
			echo "splat report: $k: $(wc -l <"$files/splats") kinds of report, not judged: $(head -n 3 "$files/splats" | paste -sd';')"
		else
			echo "splat report: $k: none"
		fi
	elif [ "$expect" = warns ]; then
		if kernel_warned "$files/dmesg"; then
			echo "decision check: $k: the kernel warned, as it must"
		else
			echo "decision check: $k: the kernel did NOT warn, though it must"
			bad=1
		fi
	elif kernel_warned "$files/dmesg"; then
		echo "decision check: $k: the kernel warned"
		bad=1
	fi
	if ! grep -q 'clocksource: Switched to clocksource tsc' "$files/dmesg"; then
		echo "clock check: $k: the guest's clock is not the TSC, its times are in jiffies"
		bad=1
	fi
	if splats "$files/dmesg-control" | grep warn_control >/dev/null; then
		echo "warning control: $k: the control module's WARN is seen"
	else
		echo "warning control: $k: the control module's WARN was NOT seen"
		bad=1
	fi
	return $bad
}

# REAL_MODULES: the real modules of the benchmark (bench/real.sh) and of
# the index memory count (bench/index-memory.sh), by module name.
# shellcheck disable=SC2034 # used by the scripts that source this file
REAL_MODULES="amdgpu nouveau radeon mac80211 cfg80211 kvm kvm_intel kvm_amd btrfs xfs"

# The config fragments of bench/real.sh, on top of tinyconfig.
# shellcheck disable=SC2034 # used by bench/real.sh and tests/checks/series.sh
REAL_FRAGS=("$TOP/config/x86_64-bench.config" "$TOP/config/real.config")

# default_model TREE: the preemption model of a debug kernel of TREE when
# none is asked for: lazy where the base has it (7.x), else none.
default_model() {
	if grep -q '^config PREEMPT_LAZY$' "$1/kernel/Kconfig.preempt"; then
		echo lazy
	else
		echo none
	fi
}

# The fragments of bench/real.sh --debug with preemption model MODEL.
real_debug_frags() {
	echo "$TOP/config/x86_64-bench.config" "$TOP/config/debug.config" \
		"$TOP/config/preempt-$1.config" "$TOP/config/real-debug.config"
}

# real_config_check TREE BASE FRAGMENT...: the config of bench/real.sh
# (FRAGMENTs on top of tinyconfig), made from TREE in a scratch directory,
# keeps every option its fragments set (build-kernel.sh checks the same
# at each build, but only bench/real.sh builds it, outside the test
# command).
real_config_check() {
	local tree=$1 base=$2 obj rc=0 frags
	shift 2
	frags=("$@")
	obj=$(mktemp -d)
	(
		set -e
		toolchain x86_64
		use_ccache
		kconfig_from "$tree" "$obj" tinyconfig "${frags[@]}"
		for frag in "${frags[@]}"; do
			verify_config "$obj" "$frag"
		done
	) || rc=1
	rm -rf "$obj"
	local top=${frags[-1]#"$TOP/"} under
	under=$(for f in "${frags[@]:0:${#frags[@]}-1}"; do echo "${f#"$TOP/config/"}"; done | paste -sd' ')
	[ $rc -eq 0 ] || { echo "$top does not apply to $base (on $under)"; return 1; }
	echo "  $top applies to $base: its $(grep -c '^CONFIG_' "${frags[-1]}") options and those of $under kept by olddefconfig"
}
