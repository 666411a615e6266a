# shellcheck shell=bash
# The guest harness itself, and the quick subset of the debug scenarios.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# The quick subset of the reliability scenarios (tests/debug.sh --quick):
# the patched debug kernel (lockdep, KASAN, kmemleak, fault injection,
# lockup detectors) through every scenario with smaller modules, after the
# detector controls. Each scenario and control counts in the summary.
t_debug_quick() {
	local model rc=0
	model=$(debug_model "$("$TOP/scripts/make-tree.sh" "$TEST_BASE")")
	# No case of an earlier run is reported, should this one die first.
	rm -f "$CACHE/debug/$TEST_BASE-$model/cases"
	LOCKED=1 "$TOP/tests/debug.sh" --base "$TEST_BASE" --preempt "$model" --quick | sed 's/^/  /' || rc=$?
	export_cases "debug quick: " "$CACHE/debug/$TEST_BASE-$model/cases"
	return "$rc"
}

# A guest that hangs, and a kernel that does not boot, give clear errors
# with the last console lines.
t_guest_failures() {
	local work=$CACHE/test-guest-fail err kernel
	kernel=$(e2e_kernel patched)
	rm -rf "$work"
	mkdir -p "$work"
	printf '#!/bin/sh\necho hanging on purpose\nwhile :; do sleep 1; done\n' >"$work/hang.sh"
	"$TOP/scripts/mkinitramfs.sh" "$work/hang.cpio" "$work/hang.sh"
	if err=$("$TOP/scripts/run-guest.sh" "$kernel" "$work/hang.cpio" "$work/hang" 15 2>&1); then
		echo "a hanging guest passed"
		return 1
	fi
	if ! grep -q 'did not finish within 15s' <<<"$err" || ! grep -q 'hanging on purpose' <<<"$err"; then
		echo "unclear error: $err"
		return 1
	fi
	echo "  a hanging guest is stopped after 15 s: $(grep 'error:' <<<"$err" | cut -c1-60)..., with its console tail"
	head -c 4096 /dev/urandom >"$work/not-a-kernel"
	if err=$(FTRACE_MODSYMS_ACCEL=tcg "$TOP/scripts/run-guest.sh" "$work/not-a-kernel" "$work/hang.cpio" "$work/bad" 25 2>&1); then
		echo "a kernel that cannot boot passed"
		return 1
	fi
	grep -q 'guest stopped before its test finished\|did not finish within' <<<"$err" ||
		{ echo "unclear error: $err"; return 1; }
	echo "  a kernel that does not boot is reported: $(grep 'error:' <<<"$err" | cut -c1-70)..."
}
