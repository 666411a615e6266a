#!/usr/bin/env bash
# Run the series' KUnit suite built in, the way upstream runs KUnit:
# tools/testing/kunit/kunit.py run, in qemu, with
# config/kunit/ftrace_locs.kunitconfig, out of tree with ccache.
#
# Usage: scripts/kunit-run.sh TREE REF BUILD_DIR OUT_DIR [ARCH [KUNITCONFIG]]
#   ARCH: x86_64 (default; with IBT, so FTRACE_MCOUNT_MAX_OFFSET is 4) or
#   powerpcle (ppc64le pseries, cross compiled with Debian's
#   gcc-powerpc64le-linux-gnu, booted in qemu-system-ppc64 under TCG).
#   KUNITCONFIG: another suite's (default: ftrace_locs.kunitconfig).
#   OUT_DIR gets kunit.log (kunit.py's output) and results.json.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	case $# in 4 | 5 | 6) ;; *) die "usage: $0 TREE REF BUILD_DIR OUT_DIR [ARCH [KUNITCONFIG]]" ;; esac
	local tree=$1 ref=$2 build=$3 out=$4 arch=${5:-x86_64} bin rc=0 args=()
	local kconf=${6:-$TOP/config/kunit/ftrace_locs.kunitconfig}
	[ -r "$kconf" ] || die "no kunitconfig $kconf"
	case $arch in
	x86_64)
		need_cmd gcc qemu-system-x86_64
		args=(--make_options "CC=ccache gcc" --kconfig_add CONFIG_X86_KERNEL_IBT=y)
		;;
	powerpcle)
		need_cmd powerpc64le-linux-gnu-gcc qemu-system-ppc64
		args=(--cross_compile powerpc64le-linux-gnu-
			--make_options "CC=ccache powerpc64le-linux-gnu-gcc")
		;;
	*) die "unknown ARCH '$arch'" ;;
	esac
	need_cmd python3 make ccache
	use_ccache
	git -C "$tree" checkout -q --detach "$ref" || die "cannot check out $ref in $tree"
	# kunit.py runs "qemu-system-x86_64" from PATH and asks it for KVM
	# first: make that the wrapper that keeps only a working accelerator.
	bin=$build/qemu-bin
	mkdir -p "$bin" "$out"
	ln -sf "$TOP/scripts/kunit-qemu.sh" "$bin/qemu-system-x86_64"
	rm -f "$out/results.json"
	log "kunit.py run --arch=$arch in $build"
	# A tree whose kunit.py has no qemu config for ARCH (6.12 has no
	# powerpcle) gets the project's own.
	if [ -e "$tree/tools/testing/kunit/qemu_configs/$arch.py" ]; then
		args+=(--arch="$arch")
	else
		[ -e "$TOP/config/kunit/qemu-$arch.py" ] || die "kunit.py of $tree has no qemu config for $arch"
		args+=(--qemu_config="$TOP/config/kunit/qemu-$arch.py")
	fi
	PATH=$bin:$PATH python3 "$tree/tools/testing/kunit/kunit.py" run \
		--build_dir="$build" \
		--kunitconfig="$kconf" "${args[@]}" \
		--jobs "$(nproc)" --timeout 900 \
		--json="$out/results.json" >"$out/kunit.log" 2>&1 || rc=$?
	[ -s "$out/results.json" ] || {
		tail -n 30 "$out/kunit.log" >&2
		die "kunit.py run gave no results (exit $rc, log $out/kunit.log)"
	}
	grep -E 'Testing complete|Elapsed time' "$out/kunit.log" || true
	[ $rc -eq 0 ] || die "kunit.py run: tests failed (exit $rc, log $out/kunit.log)"
}

main "$@"
