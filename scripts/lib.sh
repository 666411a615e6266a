# shellcheck shell=bash
# Common helpers for the scripts of this project. Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FTRACE_MODSYMS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ftrace-modsyms}
export TOP CACHE

log() {
	printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run scripts/install-deps.sh first"
	done
}

# base_info BASE FIELD: one field of the table of supported bases.
#   pkg      Debian binary package that ships the source tarball
#   version  exact package version
#   suite    Debian suite the version is fetched from
base_info() {
	local base=$1 field=$2 line
	line=$(awk -v b="$base" '$1 == b' "$TOP/bases") ||
		die "cannot read $TOP/bases"
	[ -n "$line" ] || die "unknown base '$base' (known: $(awk '!/^#/ {print $1}' "$TOP/bases" | paste -sd' '))"
	case $field in
	pkg) awk '{print $2}' <<<"$line" ;;
	version) awk '{print $3}' <<<"$line" ;;
	suite) awk '{print $4}' <<<"$line" ;;
	*) die "base_info: unknown field '$field'" ;;
	esac
}

# mainline_base: the first base in bases, the mainline one (the others
# are stable trees).
mainline_base() {
	awk '!/^#/ {print $1; exit}' "$TOP/bases"
}

# changed_files TREE FROM TO WHAT: the files changed from FROM to TO that
#   kernel: a kernel object can come from (not tools/, scripts/ (host
#           programs) or Documentation/), deleted files left out
#   build:  the kernel build reads at all (not tools/testing/ or
#           Documentation/)
changed_files() {
	local tree=$1 from=$2 to=$3
	case $4 in
	kernel) git -C "$tree" diff --name-only --diff-filter=d "$from" "$to" -- . ':!tools/' ':!scripts/' ':!Documentation/' ;;
	build) git -C "$tree" diff --name-only "$from" "$to" -- . ':!tools/testing/' ':!Documentation/' ;;
	*) die "changed_files: unknown kind '$4'" ;;
	esac
}

# The clang of every LLVM build here: Debian bookworm's clang-19 and
# lld-19 (its default clang 14 is too old for 7.x). use_llvm checks that
# they are there and exports LLVM for make; the compiler is $LLVM_CC.
LLVM_CC=clang-19
use_llvm() {
	need_cmd "$LLVM_CC" ld.lld-19
	export LLVM=-19
}

# toolchain ARCH: set KARCH, CROSS_COMPILE, CC_NAME and HOSTCC_NAME for
# ARCH (x86_64, arm64 or powerpc with Debian's cross compilers, or
# x86_64-llvm: clang-19 and lld-19) and export ARCH and CROSS_COMPILE for
# make.
# shellcheck disable=SC2034 # HOSTCC_NAME is for the caller
toolchain() {
	KARCH=$1
	CROSS_COMPILE=""
	CC_NAME=gcc
	HOSTCC_NAME=gcc
	case $1 in
	x86_64) ;;
	arm64) CROSS_COMPILE=aarch64-linux-gnu- ;;
	powerpc) CROSS_COMPILE=powerpc64le-linux-gnu- ;;
	x86_64-llvm)
		KARCH=x86_64
		CC_NAME=$LLVM_CC
		HOSTCC_NAME=$LLVM_CC
		use_llvm
		;;
	*) die "unknown ARCH '$1'" ;;
	esac
	CC_NAME=$CROSS_COMPILE$CC_NAME
	export ARCH=$KARCH CROSS_COMPILE
}

# use_ccache: the compiler cache of every build (paths relative to the
# build directory: a rebuild of the same tree and build directory hits).
use_ccache() {
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_MAXSIZE=8G
}

# kconfig_inputs TREE BASECONFIG FRAGMENT...: a digest of what a .config
# made by kconfig_from depends on: the config target, the arch and the
# toolchain Kconfig probes (compiler, assembler, linker, pahole, rustc:
# their versions), the fragments, and the tree's Kconfig files,
# defconfigs, Makefiles and the scripts Kconfig runs (scripts/*.sh and
# scripts/kconfig).
kconfig_inputs() {
	local tree=$1 target=$2 t tools
	shift 2
	case ${LLVM:-} in
	'') tools="${CROSS_COMPILE:-}gcc ${CROSS_COMPILE:-}as ${CROSS_COMPILE:-}ld" ;;
	1) tools="clang ld.lld" ;;
	*) tools="clang$LLVM ld.lld$LLVM" ;;
	esac
	{
		echo "$target ${ARCH:-} ${CROSS_COMPILE:-} ${LLVM:-} ${KCONFIG_CONFIG:-}"
		for t in $tools pahole rustc; do
			echo "$t: $("$t" --version 2>/dev/null | head -n 1 || true)"
		done
		cat "$@"
		(cd "$tree" && git ls-files -z -- ':(glob)**/Kconfig*' ':(glob)**/configs/**' scripts/kconfig \
			Makefile ':(glob)arch/*/Makefile' ':(glob)scripts/*.sh' | xargs -0r sha256sum)
	} | sha256sum | cut -c1-64
}

# kconfig_from TREE OBJ BASECONFIG FRAGMENT...: OBJ/.config from a make
# config target with the fragments merged on top (ARCH and CROSS_COMPILE
# come from the environment). Made again unless its inputs
# (kconfig_inputs) and the .config itself are those of the last time:
# three make runs cost about 25 s here, in each build. A build directory
# keeps the .config of each set of inputs it was configured for
# (OBJ/.kconfig-cache/DIGEST), so that one that goes back and forth
# between refs whose Kconfig files differ (the per-patch builds) takes it
# from there: the same inputs make the same .config. The host compiler
# is that of the build that follows (KCONFIG_HOSTCC, "ccache gcc" unless
# set), through ccache: then the build does not make kconfig's host
# programs again for another HOSTCC, and a new build directory takes
# them from the cache.
kconfig_from() {
	local tree=$1 obj=$2 baseconfig=$3 sum hostcc=${KCONFIG_HOSTCC:-ccache gcc} kept
	shift 3
	mkdir -p "$obj"
	sum=$(kconfig_inputs "$tree" "$baseconfig" "$@")
	if [ -s "$obj/.config" ] &&
		[ "$(cat "$obj/.kconfig-inputs" 2>/dev/null)" = "$sum $(sha256sum <"$obj/.config" | cut -c1-64)" ]; then
		return 0
	fi
	rm -f "$obj/.kconfig-inputs"
	kept=$obj/.kconfig-cache/$sum
	if [ -s "$kept" ]; then
		cp "$kept" "$obj/.config"
	else
		make -s -C "$tree" O="$obj" HOSTCC="$hostcc" "$baseconfig" >/dev/null
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >"$obj/merge.log" 2>&1 ||
			{ cat "$obj/merge.log" >&2; die "merge_config failed"; }
		make -s -C "$tree" O="$obj" HOSTCC="$hostcc" olddefconfig >/dev/null
		mkdir -p "$obj/.kconfig-cache"
		cp "$obj/.config" "$kept.tmp" && mv "$kept.tmp" "$kept"
	fi
	echo "$sum $(sha256sum <"$obj/.config" | cut -c1-64)" >"$obj/.kconfig-inputs"
}

# verify_config OBJ FRAGMENT: every CONFIG_X=... line of FRAGMENT is in
# OBJ/.config, and every "# CONFIG_X is not set" is unset there.
verify_config() {
	local obj=$1 frag=$2 opt
	while read -r opt; do
		grep -qxF "$opt" "$obj/.config" ||
			die "$(basename "$frag"): '$opt' did not stick in $obj/.config"
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag")
	while read -r opt; do
		! grep -q "^${opt}=" "$obj/.config" ||
			die "$(basename "$frag"): '$opt' should be unset in $obj/.config"
	done < <(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag")
}

# lock_cache: one run at a time per cache (the work trees and build
# directories in it are shared); a second run fails at once.
lock_cache() {
	mkdir -p "$CACHE"
	exec 9>"$CACHE/lock"
	flock -n 9 || die "another run is using $CACHE (lock $CACHE/lock)"
}

# The second series, on top of the first: patches/BASE/$LOOKUP_SERIES
# (module address lookups by a by-address index of each module symtab).
# shellcheck disable=SC2034 # used by scripts/make-tree.sh and the benchmarks
LOOKUP_SERIES=kallsyms-index

# fix_dir: the directory of the fix for a stock x86 crash (fixes/MAINLINE:
# the patch, a series file, and in "bases" the bases it applies to).
fix_dir() {
	echo "$TOP/fixes/$(mainline_base)"
}

# kind_ref KIND: the git ref of the work tree a kernel KIND is built from:
# stock is the base as Debian ships it, patched the series on top (a
# mutant too, with its change applied to its own tree), lookup the second
# series on top of the first (in the work tree of the same name), fix the
# base with the patches of fix_dir and nothing else (likewise).
kind_ref() {
	case $1 in
	stock) echo base ;;
	patched | mutant) echo series ;;
	lookup) echo lookup ;;
	fix) echo fix ;;
	*) die "unknown kernel kind '$1' (stock, patched, lookup, fix or mutant)" ;;
	esac
}

# e2e_kernel KIND: the bzImage of the end-to-end test kernel KIND (stock,
# patched, or a mutant of tests/mutants.sh) of $TEST_BASE
# (tests/checks/build.sh t_e2e_build).
e2e_kernel() {
	echo "$CACHE/build/$TEST_BASE/e2e-$1/arch/x86/boot/bzImage"
}

# accel_fact BZIMAGE: how qemu runs a guest of BZIMAGE (scripts/run-guest.sh),
# for a facts.md: the accelerator, or under GUEST_CLOCK=icount the icount
# options and what they make of every time.
accel_fact() {
	if [ "${GUEST_CLOCK:-host}" = icount ]; then
		echo "TCG with -icount shift=0,sleep=off (GUEST_CLOCK=icount: the guest's clock advances 1 ns per guest instruction, so every time is a count: 1 ms = 1,000,000 guest instructions)"
	else
		"$TOP/scripts/qemu-accel.sh" "$1"
	fi
}

# debug_model TREE: the preemption model of the quick tier's debug
# kernels for TREE: lazy where the base has it (7.x), else voluntary.
debug_model() {
	if grep -q '^config PREEMPT_LAZY' "$1/kernel/Kconfig.preempt"; then
		echo lazy
	else
		echo voluntary
	fi
}

# lookup_inline FILE...: for each object or vmlinux FILE, whether the
# symbol filter of find_kallsyms_symbol() (is_lookup_symbol(), which the
# series factors out of it) is inlined: not a function of its own in
# FILE's symbol table, while find_kallsyms_symbol() is (the symbols were
# read). Fails on the first FILE where it is out of line.
lookup_inline() {
	local f syms
	for f in "$@"; do
		syms=$(nm "$f") || { echo "nm $f failed"; return 1; }
		grep -qE ' [tT] find_kallsyms_symbol$' <<<"$syms" ||
			{ echo "$f: no find_kallsyms_symbol() in its symbols"; return 1; }
		if grep -qE ' [tT] is_lookup_symbol$' <<<"$syms"; then
			echo "$f: is_lookup_symbol() is out of line: a call (and a __fentry__ site) per symbol in every module address lookup"
			return 1
		fi
		echo "  $f: is_lookup_symbol() inlined into find_kallsyms_symbol()"
	done
}

# restore_trees [BASE]: put the series tree of BASE (of every base without
# BASE) back on its series branch (the EXIT trap of each check, of
# tests/debug.sh and of bench/run.sh: a check that failed half-way leaves
# no tree at another ref). Only its own base: another's may be in use by
# a background fetch (tests/run.sh prefetch).
restore_trees() {
	local t
	for t in "$CACHE"/trees/${1:-*}/src; do
		[ -e "$t/.git" ] || continue
		git -C "$t" rev-parse -q --verify series >/dev/null || continue
		[ "$(git -C "$t" symbolic-ref -q --short HEAD || true)" = series ] ||
			git -C "$t" checkout -q series || true
	done
}

# kind_tree BASE KIND: the work tree a kernel KIND of BASE is built from
# (scripts/make-tree.sh): the series tree for patched, a tree of its own
# for stock (at base) and for anything else (a mutant, the variant).
kind_tree() {
	case $2 in
	patched) "$TOP/scripts/make-tree.sh" "$1" ;;
	*) "$TOP/scripts/make-tree.sh" "$1" "$2" ;;
	esac
}
