# shellcheck shell=bash
# The generated module with overridden weak functions on the end-to-end
# kernels (build/BASE/e2e-KIND): its exact list, its record decisions,
# stock against patched, and a WARN control in the same boot.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

WEAK_DIR=$CACHE/test-weak

# The module, and the control module whose init warns once, built against
# the patched end-to-end kernel (both kernels have the same config but for
# the series' own modules, so the same .ko files load on both).
t_weak_module_build() {
	local tree opt=() obj=$CACHE/build/$TEST_BASE/e2e-patched
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	rm -rf "$WEAK_DIR"
	# An objtool that does not mark holes (insn->hole, 7.x) warns about an
	# overridden weak function at the start of a section (6.12).
	grep -q 'insn->hole' "$tree/tools/objtool/check.c" || opt=(--live-first)
	"$TOP/scripts/gen-module.sh" weak modweak "$WEAK_DIR/modweak" "${opt[@]}"
	"$TOP/scripts/build-module.sh" "$obj" "$WEAK_DIR/modweak"
	"$TOP/scripts/gen-module.sh" warn warn_control "$WEAK_DIR/warn_control"
	"$TOP/scripts/build-module.sh" "$obj" "$WEAK_DIR/warn_control"
	echo "  modweak.ko: $(wc -l <"$WEAK_DIR/modweak/expect.live") live functions, $(cat "$WEAK_DIR/modweak/expect.dead") overridden weak ones, init text${opt[*]:+ (${opt[*]})}"
	echo "  warn_control.ko: WARN()s once in its init"
}

# Boot the e2e kernel KIND with the module: load, unload, reload; the
# control module last, after the kernel log was saved for judging.
t_weak_boot() {
	local kind=$1 kernel
	kernel=$(e2e_kernel "$kind")
	"$TOP/scripts/mkinitramfs.sh" "$WEAK_DIR/weak.cpio" "$TOP/guest/weak.sh" \
		"$WEAK_DIR/modweak/modweak.ko" "$WEAK_DIR/warn_control/warn_control.ko"
	"$TOP/scripts/run-guest.sh" "$kernel" "$WEAK_DIR/weak.cpio" "$WEAK_DIR/guest-$kind" 300
	echo "  $kind kernel booted (qemu $("$TOP/scripts/qemu-accel.sh" "$kernel")), loaded, unloaded and reloaded modweak.ko"
}

# The kernel of KIND prints warnings, and the splat detector sees them:
# the control module's WARN is in the log taken after it loaded, and the
# log the checks judge (taken before) has no splat.
t_warn_visible() {
	local kind=$1 g=$WEAK_DIR/guest-$1/files s
	[ -s "$g/dmesg-control" ] || { echo "$kind: no kernel log after the control module"; return 1; }
	s=$(splats "$g/dmesg-control")
	grep -q 'warn_control' <<<"$s" || { echo "$kind: the control WARN was not seen: '$s'"; return 1; }
	echo "  $kind: the control module's WARN is seen: $(grep -m1 'WARNING:' <<<"$s" | cut -c1-90)"
	if kernel_warned "$g/dmesg"; then
		echo "$kind: the kernel warned before the control"
		return 1
	fi
	echo "  $kind: no splat in the log before the control"
}

# The exact function list of the module on the patched kernel.
t_weak_list() {
	local g=$WEAK_DIR/guest-patched/files delta names n dead
	delta=$("$TOP/scripts/list-delta.sh" "$g/before" "$g/loaded")
	names=$(grep -v '^__ftrace_invalid_address___' <<<"$delta" | sort)
	diff <(sed 's/$/ [modweak]/' "$WEAK_DIR/modweak/expect.live") <(echo "$names") ||
		{ echo "named lines differ from the expected live functions"; return 1; }
	echo "  each of the $(wc -l <"$WEAK_DIR/modweak/expect.live") live functions listed once, with [modweak]"
	n=$(grep -c '^__ftrace_invalid_address___' <<<"$delta" || true)
	dead=$(cat "$WEAK_DIR/modweak/expect.dead")
	[ "$n" -eq "$dead" ] || { echo "$n invalid lines, expected $dead"; return 1; }
	echo "  the $dead dead weak sites listed as invalid: $(grep '^__ftrace_invalid' <<<"$delta" | sort | uniq -c | awk '{printf "%s x %s; ", $1, $2}')"
	cmp -s "$g/before" "$g/unloaded" || { echo "list after unload differs from before load"; return 1; }
	echo "  unload restores the whole list exactly"
	cmp -s "$g/loaded" "$g/reloaded" || { echo "list after reload differs from first load"; return 1; }
	echo "  reload gives the whole list again, identical"
}

# The decisions themselves: with the function tracer on, enabled_functions
# lists the records that are not FTRACE_FL_DISABLED. For the module that
# must be exactly its live functions, on the kernel of KIND (stock must
# give the same; t_show() warns when a record whose lookup fails is not
# disabled; t_warn_visible judges the logs).
t_weak_decisions() {
	local k=$1 g mods
	g=$WEAK_DIR/guest-$k/files
	[ -s "$g/enabled" ] || { echo "$k: no enabled_functions snapshot"; return 1; }
	mods=$(sed -n 's/ (.*//; / \[modweak\]$/p' "$g/enabled" | sort)
	diff <(sed 's/$/ [modweak]/' "$WEAK_DIR/modweak/expect.live") <(echo "$mods") ||
		{ echo "$k: enabled module records differ from the live functions"; return 1; }
	if grep -q '__ftrace_invalid_address' "$g/enabled"; then
		echo "$k: a dead site was enabled"
		return 1
	fi
	echo "  $k: function tracer on, enabled records of modweak = the $(wc -l <<<"$mods") live functions, no dead site"
}

# The module's lines are the same as on stock, byte for byte.
t_weak_vs_stock() {
	local s p
	s=$("$TOP/scripts/list-delta.sh" "$WEAK_DIR/guest-stock/files/before" "$WEAK_DIR/guest-stock/files/loaded")
	p=$("$TOP/scripts/list-delta.sh" "$WEAK_DIR/guest-patched/files/before" "$WEAK_DIR/guest-patched/files/loaded")
	if [ -z "$s" ] || [ -z "$p" ]; then
		echo "a load added no lines"
		return 1
	fi
	diff <(echo "$s") <(echo "$p") || { echo "patched differs from stock"; return 1; }
	echo "  the $(wc -l <<<"$p") lines the load adds are identical on stock and patched"
	# The dead site with no symbol before it is listed with print_rec()'s
	# offset: 0 with the series' first patch, an unwritten stack slot on
	# stock (0 in every build here, so the lines agree; KMSAN sees the
	# difference: BASE:kmsan:*). Compared as is, number included.
	echo "  compared with the N of each __ftrace_invalid_address___N line; on stock, $(grep -c '^__ftrace_invalid_address___0 ' <<<"$s" || true) read ___0 (for a site with no symbol before it, an unwritten stack slot)"
}
