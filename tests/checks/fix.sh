# shellcheck shell=bash
# The stock x86 crash of fixes/MAINLINE (a tracer callback at an odd
# address called through a jmp) shown on the stock end-to-end kernel and
# gone with the fix (build/BASE/e2e-fix: the base, the fix, the stock
# kernel's config), on each base of fixes/MAINLINE/bases. The crash does
# not depend on where the compiler put the kernel's own callbacks: the
# callback is a test module's, at an odd address on purpose.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# fix_bases: the bases the fix applies to (fix_dir's "bases").
fix_bases() {
	grep -v '^#' "$(fix_dir)/bases"
}

fix_test_dir() {
	echo "$CACHE/test-fix/$TEST_BASE"
}

# The fix passes checkpatch --strict of the base's own tree (a patch of
# the product: it is sent on its own, to x86 and ftrace maintainers).
t_fix_checkpatch() {
	local tree
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	git -C "$tree" checkout -q series
	(cd "$tree" && checkpatch_all "$(fix_dir)" ./scripts/checkpatch.pl)
	echo "  $(grep -vc '^#' "$(fix_dir)/series") patch of $(fix_dir | sed "s|^$TOP/||"), with scripts/checkpatch.pl --strict --no-signoff --codespell of the $TEST_BASE tree"
}

# The module, built against the stock end-to-end kernel (the fix kernel
# has the same config and exports, so it loads there too).
t_fix_module() {
	local dir
	dir=$(fix_test_dir)
	rm -rf "$dir/odd_callback"
	"$TOP/scripts/gen-module.sh" odd-callback odd_callback "$dir/odd_callback"
	"$TOP/scripts/build-module.sh" "$CACHE/build/$TEST_BASE/e2e-stock" "$dir/odd_callback"
	"$TOP/scripts/mkinitramfs.sh" "$dir/odd-callback.cpio" "$TOP/guest/odd-callback.sh" \
		"$dir/odd_callback/odd_callback.ko"
	echo "  odd_callback.ko: odd_callback_odd_func at .text+0x$(nm "$dir/odd_callback/odd_callback.ko" |
		awk '$3 == "odd_callback_odd_func" { print $1 }' | sed 's/^0*//')"
}

# fix_boot KIND: boot the end-to-end kernel KIND with guest/odd-callback.sh
# (its failure is the caller's to judge); print the guest's directory.
fix_boot() {
	local dir
	dir=$(fix_test_dir)/guest-$1
	"$TOP/scripts/run-guest.sh" "$(e2e_kernel "$1")" "$(fix_test_dir)/odd-callback.cpio" "$dir" 120 >&2 || true
	echo "$dir"
}

# fix_calls DIR STEP: the callback count the guest sent after STEP, or
# "none" when it sent none.
fix_calls() {
	cat "$1/files/calls-$2" 2>/dev/null || echo none
}

# Stock: the callback runs once through the trampoline register_ftrace_function()
# made; after set_ftrace_pid patched that trampoline's call again, the
# second run jumps to the int3 before the callback and the kernel oopses.
t_fix_stock_crashes() {
	local g s
	g=$(fix_boot stock)
	echo "  stock: $(cat "$g/files/address" 2>/dev/null || echo 'no address line')"
	[ "$(fix_calls "$g" first)" = 1 ] || { echo "stock: the first run did not call the callback once (calls: $(fix_calls "$g" first))"; return 1; }
	echo "  stock: first run through the new trampoline: callback called once"
	[ "$(fix_calls "$g" second)" = none ] || { echo "stock: the second run returned (calls: $(fix_calls "$g" second)); the bug did not show"; return 1; }
	s=$(splats "$g/console.log")
	grep -q 'Oops: int3' <<<"$s" || { echo "stock: no int3 oops on the console: '$s'"; return 1; }
	grep -aq 'RIP: 0010:odd_callback_odd_func+0x0/' "$g/console.log" ||
		{ echo "stock: the oops is not at the callback's first byte"; grep -a 'RIP:' "$g/console.log" | head -n 2; return 1; }
	echo "  stock: after set_ftrace_pid re-patched the trampoline, the second run oopsed: Oops: int3, RIP odd_callback_odd_func+0x0 (a jmp to the byte before it)"
}

# With the fix: both runs call the callback, and the kernel reports nothing.
t_fix_fixed_runs() {
	local g
	g=$(fix_boot fix)
	grep -aq 'GUEST-DONE rc=0' "$g/console.log" ||
		{ tail -n 20 "$g/console.log"; echo "fix: the guest did not finish"; return 1; }
	echo "  fix: $(cat "$g/files/address")"
	if [ "$(fix_calls "$g" first) $(fix_calls "$g" second)" != "1 2" ]; then
		echo "fix: callback counts $(fix_calls "$g" first), $(fix_calls "$g" second); want 1, 2"
		return 1
	fi
	echo "  fix: the callback ran once per run, before and after set_ftrace_pid re-patched the trampoline (1, then 2)"
	if kernel_warned "$g/console.log" "$g/files/dmesg"; then
		echo "fix: the kernel reported a problem"
		return 1
	fi
	echo "  fix: no splat on the console or in dmesg"
}
