# shellcheck shell=bash
# The stock bug the series' first patch fixes: print_rec() printing an
# offset that kallsyms_lookup() did not write, for a record with no symbol
# before it. Its output passes by luck (the stack slot held 0 in every
# build here), so the proof is a KMSAN kernel (clang-19), stock and
# patched: stock reports the uninitialized value in print_rec(), the
# series reports nothing.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

KMSAN_DIR=$CACHE/test-kmsan

# The KMSAN kernel of KIND (stock or patched), in build/BASE/kmsan-KIND.
t_kmsan_build() {
	local kind=$1 tree ref obj=$CACHE/build/$TEST_BASE/kmsan-$1
	tree=$(kind_tree "$TEST_BASE" "$kind")
	ref=$(kind_ref "$kind")
	"$TOP/scripts/build-kernel.sh" --llvm "$tree" "$ref" "$obj" \
		"$FRAG" "$TOP/config/e2e.config" "$TOP/config/kmsan.config"
	echo "  $kind KMSAN kernel ($ref, clang-19): $(grep -c . "$obj/System.map") symbols in System.map"
}

# The weak-function module, built against the patched KMSAN kernel (the
# two differ only in the series, which changes no structure a module
# sees): its first function is an overridden weak one, whose call site
# no symbol precedes.
t_kmsan_module() {
	local tree obj=$CACHE/build/$TEST_BASE/kmsan-patched
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	if ! grep -q 'insn->hole' "$tree/tools/objtool/check.c"; then
		echo "this base's objtool needs a live function first: no record would lack a symbol"
		return 1
	fi
	rm -rf "$KMSAN_DIR"
	"$TOP/scripts/gen-module.sh" weak modweak "$KMSAN_DIR/modweak"
	"$TOP/scripts/build-module.sh" "$obj" "$KMSAN_DIR/modweak"
	"$TOP/scripts/mkinitramfs.sh" "$KMSAN_DIR/kmsan.cpio" "$TOP/guest/kmsan.sh" \
		"$KMSAN_DIR/modweak/modweak.ko"
	echo "  modweak.ko (clang-19, KMSAN): $(cat "$KMSAN_DIR/modweak/expect.dead") dead weak sites, the first ahead of every symbol"
}

# Boot the KMSAN kernel of KIND: load the module, read the list, filter on it.
t_kmsan_boot() {
	local kind=$1 kernel=$CACHE/build/$TEST_BASE/kmsan-$1/arch/x86/boot/bzImage
	"$TOP/scripts/run-guest.sh" "$kernel" "$KMSAN_DIR/kmsan.cpio" "$KMSAN_DIR/guest-$kind" 900
	echo "  $kind KMSAN kernel booted, loaded modweak.ko, read available_filter_functions, filtered :mod:modweak"
}

# Stock: KMSAN reports that print_rec() used its offset uninitialized
# (the origin KMSAN names is that local variable). This check fails if
# KMSAN sees nothing, so it is also the control that KMSAN reports in
# this kind of kernel.
t_kmsan_stock() {
	local d=$KMSAN_DIR/guest-stock r
	r=$(kmsan_reports "$d/console.log")
	echo "  KMSAN reports on stock: $(grep -c . <<<"$r" || true)"
	# print_rec() is inlined into t_show(), and its offset with it.
	grep -Eq 'uninit-value in (print_rec|t_show)\+.* <- local variable offset(\.[a-z0-9]+)? of (print_rec|t_show)\+' <<<"$r" ||
		{ echo "no KMSAN report of print_rec()'s offset on stock: '$r'"; return 1; }
	echo "  $(grep -E -m1 'local variable offset' <<<"$r")"
	echo "  stock lists the site with no symbol before it as: $(grep -m1 '^__ftrace_invalid_address___.* \[modweak\]$' "$d/files/loaded")"
}

# Patched: the same boot reports nothing at all, and the list names the
# record with no symbol before it __ftrace_invalid_address___0.
t_kmsan_patched() {
	local d=$KMSAN_DIR/guest-patched s n
	s=$(splats "$d/console.log" "$d/files/dmesg")
	[ -z "$s" ] || { echo "the patched KMSAN kernel reported: $s"; return 1; }
	echo "  no KMSAN report, no splat on the patched kernel"
	n=$(grep -c '^__ftrace_invalid_address___0 \[modweak\]$' "$d/files/loaded" || true)
	[ "$n" -gt 0 ] || { echo "no __ftrace_invalid_address___0 [modweak] line on patched"; return 1; }
	echo "  the record with no symbol before it: $n x __ftrace_invalid_address___0 [modweak]"
}
