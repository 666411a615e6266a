#!/usr/bin/env bash
# Build, for one cell of the build matrix or one patch of the series, the
# objects of the C files the series changes from tag base to REF, and of
# the C files that include the headers it adds or changes next to them
# (kernel/trace/ftrace_internal.h, lib/tests/ftrace_locs_kunit.h, ...),
# where the config builds them; out of tree with ccache; fail on any
# warning in the files the series changes. Headers under include/ are
# checked through those same objects (ftrace.c and kallsyms.c include
# linux/module.h); the end-to-end kernels build everything.
#
# Usage: scripts/build-objs.sh TREE REF OBJ ARCH BASECONFIG FRAGMENT...
#   ARCH: x86_64, arm64 or powerpc (cross compilers from Debian's
#   gcc-aarch64-linux-gnu and gcc-powerpc64le-linux-gnu), or x86_64-llvm
#   (clang-19 and lld-19, make LLVM=-19)
#   BASECONFIG: a make config target (tinyconfig, defconfig, ...)
#   Every CONFIG_ line of the last FRAGMENT must hold in the result.
#   W=1 in the environment builds with W=1 (extra warnings).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# candidates TREE REF: the objects of the C files the series changes or
# adds, and of the C files that include, by its name, a header it changes
# in their directory; one per line.
candidates() {
	local tree=$1 ref=$2 f
	changed_files "$tree" base "$ref" kernel |
		while read -r f; do
			case $f in
			*.c) echo "${f%.c}.o" ;;
			*.h)
				# git grep: 1 is "no such line", more is an error.
				{ git -C "$tree" grep -l -F "#include \"$(basename "$f")\"" "$ref" -- "$(dirname "$f")/*.c" ||
					[ $? -eq 1 ] || die "git grep in $tree failed"; } |
					sed "s|^$ref:||; s|\.c\$|.o|"
				;;
			esac
		done | sort -u
}

# configured TREE OBJ MAKEARGS...: of the candidates (stdin), those the
# config builds, and the composite objects (the modules) of their
# directories, as kbuild decides: make -n of those directories, after
# make prepare (without it make -n stops at tools/objtool). The
# candidates' objects are removed first, so that kbuild builds them again
# (ccache replays their warnings): an object left from an earlier run
# would otherwise count as not built.
configured() {
	local tree=$1 obj=$2
	shift 2
	local -a cands dirs
	mapfile -t cands
	[ ${#cands[@]} -gt 0 ] || return 0
	mapfile -t dirs < <(printf '%s\n' "${cands[@]}" | sed 's|/[^/]*$|/|' | sort -u)
	(cd "$obj" && rm -f "${cands[@]}")
	make -C "$tree" O="$obj" "$@" -n "${dirs[@]}" >"$obj/dry-run.log" 2>&1 ||
		{ tail -n 20 "$obj/dry-run.log" >&2; die "make -n ${dirs[*]} failed (log: $obj/dry-run.log)"; }
	{
		grep -oE ' -c -o [^ ]+\.o ' "$obj/dry-run.log" | awk '{ print $3 }' |
			grep -xF -f <(printf '%s\n' "${cands[@]}") || true
		grep -oE ' -r -o [^ /][^ ]*\.o ' "$obj/dry-run.log" | awk '{ print $3 }' |
			grep -F -f <(printf '%s\n' "${dirs[@]}") || true
	} | sort -u
}

main() {
	[ $# -ge 6 ] || die "usage: $0 TREE REF OBJ ARCH BASECONFIG FRAGMENT..."
	local tree=$1 ref=$2 obj=$3 arch=$4 baseconfig=$5 make_args objs
	shift 5
	toolchain "$arch"
	need_cmd "$CC_NAME" ccache make
	use_ccache
	git -C "$tree" checkout -q --detach "$ref" || die "cannot check out $ref"
	KCONFIG_HOSTCC="ccache $HOSTCC_NAME" kconfig_from "$tree" "$obj" "$baseconfig" "$@"
	verify_config "$obj" "${!#}"
	make_args=(CC="ccache $CC_NAME" HOSTCC="ccache $HOSTCC_NAME" W="${W:-}")
	make -C "$tree" O="$obj" "${make_args[@]}" -j"$(nproc)" prepare >"$obj/build.log" 2>&1 || {
		tail -n 20 "$obj/build.log" >&2
		die "make prepare failed (log: $obj/build.log)"
	}
	objs=$(candidates "$tree" "$ref" | configured "$tree" "$obj" "${make_args[@]}" | paste -sd' ')
	if [ -n "$objs" ]; then
		# shellcheck disable=SC2086 # one object per word
		make -C "$tree" O="$obj" "${make_args[@]}" -j"$(nproc)" $objs >>"$obj/build.log" 2>&1 || {
			tail -n 20 "$obj/build.log" >&2
			die "build failed (log: $obj/build.log)"
		}
	fi
	# A warning names the source file (the compiler) or the object
	# (objtool, also on the composite objects).
	if grep 'warning:' "$obj/build.log" |
		grep -F -f <({
			git -C "$tree" diff --name-only base "$ref"
			tr ' ' '\n' <<<"$objs"
		} | sed '/^$/d; s/$/:/') >&2; then
		die "warnings in the files the series changes (log: $obj/build.log)"
	fi
	echo "$arch$([ -z "${W:-}" ] || echo " W=$W") $(basename "$obj"): built ${objs:-nothing (not configured)}, $(grep -c 'warning:' "$obj/build.log" || true) warnings, none in the changed files"
}

main "$@"
