#!/bin/sh
# Guest side of the reliability scenarios on the debug kernels (tests/debug.sh).
# The host boots the kernel once per scenario, named on the kernel command
# line as ftm_scenario=NAME, so that every splat in a boot's log belongs to
# one scenario; or, for the quick subset, once for a set of them,
# ftm_scenario=NAME,NAME,... (run_set below). The modules are in /files:
# big.ko, mid.ko, small.ko
# (generated, one-line functions) and weak.ko (overridden weak functions; its
# traceable functions in weak.live, its dead call sites in weak.dead).
# Each scenario prints "debug: ..." lines of what it checked and sends the
# files the host compares between stock and patched; any failed check exits
# non-zero. The host reads the splats from the console and from dmesg.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions
DEBUGFS=/sys/kernel/debug

say() {
	echo "debug: $*"
}

# put NAME FILE: send FILE to the host as NAME, or as SCENARIO.NAME in a
# set boot (the host files it under that scenario).
put() {
	send "${PREFIX:-}$1" "$2"
}

fail() {
	echo "debug: FAIL: $*"
	exit 1
}

scenario_name() {
	sed -n 's/.*ftm_scenario=\([a-z0-9_,-]*\).*/\1/p' /proc/cmdline
}

# The detectors a scenario relies on must be alive: lockdep turns itself
# off after its first report, kmemleak after an internal error. Leaks
# kmemleak suspects before the scenario (boot) are cleared, so that the
# scan after it shows only what the scenario leaked.
# KMEMLEAK: each (the default: cleared before the scenario, judged after
# it); in a set boot (run_set) first (cleared before, not judged) or set
# (neither: the set's "leaks" step judges).
detectors_start() {
	lockdep_on
	[ "${KMEMLEAK:-each}" != "set" ] || return 0
	echo scan >"$DEBUGFS/kmemleak" || fail "kmemleak is off"
	echo clear >"$DEBUGFS/kmemleak"
}

detectors_end() {
	lockdep_on
	if [ "${KMEMLEAK:-each}" != each ]; then
		say "lockdep still on (debug_locks 1)"
		return 0
	fi
	no_leak
	say "lockdep still on (debug_locks 1); kmemleak: no leak since the scenario began"
}

# no_leak: kmemleak finds no leak since its last clear. Two scans:
# kmemleak reports an object only when it is older than 5 s and
# unreferenced in two scans.
no_leak() {
	echo scan >"$DEBUGFS/kmemleak" || fail "kmemleak is off"
	sleep 6
	echo scan >"$DEBUGFS/kmemleak"
	cat "$DEBUGFS/kmemleak" >/tmp/kmemleak
	[ ! -s /tmp/kmemleak ] || {
		head -n 40 /tmp/kmemleak
		fail "kmemleak: $(grep -c '^unreferenced object' /tmp/kmemleak) objects leaked"
	}
}

# The step of a set boot after its scenarios: kmemleak, cleared before
# the first of them, finds no leak.
scenario_leaks() {
	lockdep_on
	no_leak
	say "kmemleak: no leak since the first scenario of the set began; lockdep still on (debug_locks 1)"
}

lockdep_on() {
	grep -q '^ *debug_locks: *1$' /proc/lockdep_stats ||
		fail "lockdep is off ($(grep debug_locks /proc/lockdep_stats))"
}

# load_parallel KO...: insmod every KO at the same time, as udev does; all must load.
# shellcheck disable=SC2317 # called through elapsed_ms
load_parallel() {
	pids=""
	for ko in "$@"; do
		insmod "/files/$ko" &
		pids="$pids $!"
	done
	bad=0
	for p in $pids; do
		wait "$p" || bad=1
	done
	[ "$bad" -eq 0 ] || fail "a parallel insmod of $* failed"
}

# module_records NAME [FILE]: how many lines of available_filter_functions
# (or of a snapshot of it) name module NAME. Each read of the list looks
# every record up again, so snapshots are counted where there is one.
module_records() {
	grep -c "\[$1\]\$" "${2:-$AFF}" || true
}

# elapsed_ms CMD...: run CMD, print how long it took in milliseconds.
elapsed_ms() {
	s=$(cut -d' ' -f1 /proc/uptime)
	"$@" || return 1
	e=$(cut -d' ' -f1 /proc/uptime)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%d\n", (e - s) * 1000 + 0.5 }'
}

# 1. The big module: load, unload, load again; the list after each load is
# the same, after the unload it is the one from before.
scenario_load() {
	cat "$AFF" >/tmp/before
	t1=$(time_insmod /files/big.ko) || fail "insmod big.ko"
	cat "$AFF" >/tmp/after
	rmmod big || fail "rmmod big"
	cmp -s /tmp/before "$AFF" || fail "unloading big did not restore available_filter_functions"
	t2=$(time_insmod /files/big.ko) || fail "insmod big.ko again"
	cmp -s /tmp/after "$AFF" || fail "the list after the second load differs from the first"
	n=$(module_records big /tmp/after)
	syms=$(grep -c '\[big\]$' /proc/kallsyms)
	rmmod big || fail "rmmod big"
	say "big: $n records, $syms symbols; load 1: $t1, load 2: $t2 (insmod us, ftrace_module_enable() us, ftrace_module_init() us, index bytes, 0 where ftrace_mod_syms_build() is inlined); unload restored the list, reload gave the same list"
	echo "load1 $t1" >/tmp/times
	echo "load2 $t2" >>/tmp/times
	put before /tmp/before
	put after /tmp/after
	put times /tmp/times
}

# 2. Three modules of different sizes loaded at the same time.
scenario_parallel() {
	cat "$AFF" >/tmp/before
	ms=$(elapsed_ms load_parallel big.ko mid.ko small.ko) || exit 1
	cat "$AFF" >/tmp/after
	for m in big mid small; do
		say "$m: $(module_records "$m" /tmp/after) records"
	done
	rmmod big mid small || fail "rmmod"
	cmp -s /tmp/before "$AFF" || fail "unloading did not restore available_filter_functions"
	say "three parallel loads took $ms ms; unload restored the list"
	echo "parallel $ms" >/tmp/times
	put before /tmp/before
	put after /tmp/after
	put times /tmp/times
}

# traced_records NAME: records of module NAME in the snapshot of
# enabled_functions.
traced_records() {
	grep -c "\[$1\]" /tmp/enabled || true
}

# 3. Loads while tracers run. a) The function tracer on (after an earlier
# on/off), filtering one kernel function and, cached, ":mod:" of the weak
# and big modules: at load the cached filter takes every live record of
# each. b) function_graph with a filter on the weak module: its init
# function calls every live function, traced through the new call sites.
scenario_tracing() {
	echo function >"$TRACING/current_tracer" || fail "function tracer"
	echo nop >"$TRACING/current_tracer"
	echo ksys_sync >"$TRACING/set_ftrace_filter" || fail "filter ksys_sync"
	echo ':mod:weak' >>"$TRACING/set_ftrace_filter" || fail "cached :mod:weak"
	echo ':mod:big' >>"$TRACING/set_ftrace_filter" || fail "cached :mod:big"
	echo function >"$TRACING/current_tracer" || fail "function tracer on"
	insmod /files/weak.ko || fail "insmod weak.ko under the function tracer"
	insmod /files/big.ko || fail "insmod big.ko under the function tracer"
	cat "$TRACING/enabled_functions" >/tmp/enabled
	cat "$AFF" >/tmp/after
	nw=$(traced_records weak)
	nb=$(traced_records big)
	[ "$nw" -eq "$(wc -l </files/weak.live)" ] ||
		fail "function tracer: $nw records of weak enabled, want $(wc -l </files/weak.live)"
	[ "$nb" -eq "$(module_records big /tmp/after)" ] ||
		fail "function tracer: $nb records of big enabled, want $(module_records big /tmp/after)"
	enabled_weak
	say "function tracer with cached :mod: filters: weak $nw records enabled (its live functions), big $nb (all), no dead call site"
	echo nop >"$TRACING/current_tracer"
	rmmod weak big || fail "rmmod under the function tracer"
	echo >"$TRACING/set_ftrace_filter"

	echo ksys_sync >"$TRACING/set_ftrace_filter" || fail "filter ksys_sync"
	echo ':mod:weak' >>"$TRACING/set_ftrace_filter" || fail "cached :mod:weak"
	echo >"$TRACING/trace"
	echo function_graph >"$TRACING/current_tracer" || fail "function_graph"
	insmod /files/weak.ko || fail "insmod weak.ko under function_graph"
	# Read the trace first: a change of tracer empties the buffer.
	cat "$TRACING/trace" >/tmp/graph
	echo nop >"$TRACING/current_tracer"
	n=0
	while read -r f; do
		grep -qw "$f" /tmp/graph && n=$((n + 1))
	done </files/weak.called
	[ "$n" -eq "$(wc -l </files/weak.called)" ] || {
		grep -v '^#' /tmp/graph | tail -n 20
		fail "function_graph traced $n of the $(wc -l </files/weak.called) functions weak's init calls"
	}
	rmmod weak || fail "rmmod weak"
	echo >"$TRACING/set_ftrace_filter"
	say "function_graph filtering ksys_sync and, cached, :mod:weak: the calls of weak's init to its $n live functions were traced"
	put enabled.weak /tmp/enabled.weak
}

# 4. A glob on set_ftrace_filter with the big module loaded: every module
# record is looked up by name (kallsyms), with or without the series.
scenario_filter() {
	insmod /files/big.ko || fail "insmod big.ko"
	ms=$(elapsed_ms sh -c "echo 'big_fn_1*' >$TRACING/set_ftrace_filter") || fail "glob on set_ftrace_filter"
	n=$(wc -l <"$TRACING/set_ftrace_filter")
	sort "$TRACING/set_ftrace_filter" >/tmp/filter
	echo >"$TRACING/set_ftrace_filter"
	ms2=$(elapsed_ms sh -c "echo ':mod:big' >$TRACING/set_ftrace_filter") || fail ":mod:big on set_ftrace_filter"
	n2=$(wc -l <"$TRACING/set_ftrace_filter")
	echo >"$TRACING/set_ftrace_filter"
	rmmod big || fail "rmmod big"
	[ "$n" -gt 0 ] || fail "'big_fn_1*' matched nothing"
	say "set_ftrace_filter 'big_fn_1*': $n functions in $ms ms; ':mod:big': $n2 in $ms2 ms"
	printf 'glob %s\nmod %s\n' "$ms" "$ms2" >/tmp/times
	put filter /tmp/filter
	put times /tmp/times
}

# symbol_range SYM: the address of text symbol SYM and of the next symbol.
symbol_range() {
	start=$(awk -v s="$1" '$3 == s && ($2 == "t" || $2 == "T") { print $1; exit }' /proc/kallsyms)
	[ -n "$start" ] || return 1
	end=$(awk -v a="$start" '$1 > a' /proc/kallsyms | sort | head -n 1 | cut -d' ' -f1)
	echo "0x$start 0x$end"
}

# inject KIND: fail every slab (failslab) or page (fail_page_alloc)
# allocation made from ftrace_module_enable() by the tasks that opt in.
inject() {
	d=$DEBUGFS/$1
	echo 100 >"$d/probability"
	echo 1 >"$d/interval"
	echo 1000000 >"$d/times"
	echo 1 >"$d/verbose"
	echo Y >"$d/task-filter"
	echo "$RANGE_START" >"$d/require-start"
	echo "$RANGE_END" >"$d/require-end"
	echo 32 >"$d/stacktrace-depth"
}

# injected: how many failures failslab and fail_page_alloc injected.
injected() {
	echo $((2000000 - $(cat "$DEBUGFS/failslab/times") - $(cat "$DEBUGFS/fail_page_alloc/times")))
}

# decided_records NAME: the records of module NAME a tracer enables when
# all the rest of the kernel is in set_ftrace_notrace: exactly those that
# are not FTRACE_FL_DISABLED.
decided_records() {
	echo "*:mod:!$1" >"$TRACING/set_ftrace_notrace" || fail "notrace"
	echo function >"$TRACING/current_tracer" || fail "function tracer"
	cut -d' ' -f1 "$TRACING/enabled_functions" | sort
	echo nop >"$TRACING/current_tracer"
	echo >"$TRACING/set_ftrace_notrace"
}

# 5. The index cannot be allocated: every allocation under
# ftrace_module_enable() of the insmod fails, so the records take
# test_for_valid_rec(). The decisions and the list must not change.
scenario_nomem() {
	RANGE=$(symbol_range ftrace_module_enable) || fail "no ftrace_module_enable in /proc/kallsyms"
	RANGE_START=${RANGE% *}
	RANGE_END=${RANGE#* }
	inject failslab
	inject fail_page_alloc
	echo N >"$DEBUGFS/fail_page_alloc/ignore-gfp-wait"
	echo N >"$DEBUGFS/fail_page_alloc/ignore-gfp-highmem"
	echo N >"$DEBUGFS/failslab/ignore-gfp-wait"
	cat "$AFF" >/tmp/before
	sh -c 'echo 1 >/proc/self/make-it-fail && exec insmod /files/weak.ko' ||
		fail "insmod weak.ko with the allocations failing"
	nweak=$(injected)
	t=$(sh -c 'echo 1 >/proc/self/make-it-fail && exec sh -c ". /lib.sh && time_insmod /files/big.ko"') ||
		fail "insmod big.ko with the allocations failing"
	nbig=$(($(injected) - nweak))
	echo 0 >"$DEBUGFS/failslab/probability"
	echo 0 >"$DEBUGFS/fail_page_alloc/probability"
	if [ "$nweak" -eq 0 ] || [ "$nbig" -eq 0 ]; then
		fail "no allocation failed (weak: $nweak, big: $nbig injected)"
	fi
	cat "$AFF" >/tmp/after
	# big first: with it loaded, the notrace hash of every function is big
	# enough that freeing it (an RCU callback, in softirq) tripped the soft
	# lockup detector on stock's KASAN kernel in qemu; the series does not
	# touch that path.
	rmmod big || fail "rmmod big"
	decided_records weak >/tmp/decided.weak
	sort /files/weak.live >/tmp/live
	cmp -s /tmp/decided.weak /tmp/live ||
		fail "records enabled with the allocations failing: $(tr '\n' ' ' </tmp/decided.weak)"
	rmmod weak || fail "rmmod weak"
	say "allocations failed under ftrace_module_enable() ($RANGE): $nweak injected loading weak, $nbig loading big (insmod, ftrace_module_enable(), ftrace_module_init() us, index bytes: $t); weak: $(wc -l </tmp/decided.weak) records enabled, exactly its live functions"
	echo "injected $nweak $nbig $t" >/tmp/times
	put before /tmp/before
	put after /tmp/after
	put decided.weak /tmp/decided.weak
	put times /tmp/times
}

# 6. The weak module loaded and unloaded 50 times: the same list each time,
# the list from before after each unload, no leak kmemleak can find.
scenario_cycles() {
	cycles=$(cat /files/cycles)
	cat "$AFF" >/tmp/before
	slab0=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	insmod /files/weak.ko || fail "insmod weak.ko"
	cat "$AFF" >/tmp/after
	decided_records weak >/tmp/decided.weak
	rmmod weak || fail "rmmod weak"
	i=2
	while [ "$i" -le "$cycles" ]; do
		insmod /files/weak.ko || fail "insmod weak.ko, cycle $i"
		cmp -s /tmp/after "$AFF" || fail "cycle $i: the list differs from the first load"
		rmmod weak || fail "rmmod weak, cycle $i"
		cmp -s /tmp/before "$AFF" || fail "cycle $i: unloading did not restore the list"
		i=$((i + 1))
	done
	slab1=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	say "$cycles loads and unloads of weak: the same list each time, restored each time; Slab: ${slab0} kB before, ${slab1} kB after (kmemleak below)"
	echo "slab $slab0 $slab1" >/tmp/times
	put before /tmp/before
	put after /tmp/after
	put decided.weak /tmp/decided.weak
	put times /tmp/times
}

# enabled_weak: the records of weak in the snapshot of enabled_functions,
# by name, sorted, in /tmp/enabled.weak; no dead call site in it.
enabled_weak() {
	! grep -q __ftrace_invalid_address /tmp/enabled || fail "a dead call site is enabled"
	grep "\[weak\]" /tmp/enabled | cut -d' ' -f1 | sort >/tmp/enabled.weak
}

# tracer_from_boot: ftrace=function on the command line started the
# function tracer.
tracer_from_boot() {
	[ "$(cat "$TRACING/current_tracer")" = function ] ||
		fail "ftrace=function did not start the function tracer (current_tracer: $(cat "$TRACING/current_tracer"))"
}

# 7. Booted with ftrace=function: the records are enabled from boot, and
# every record of a module as it loads, except the dead call sites of
# overridden weak functions (FTRACE_FL_DISABLED): the lines of
# available_filter_functions not enabled are exactly those (the host
# compares them with stock's too).
scenario_boot_function() {
	tracer_from_boot
	cat "$AFF" >/tmp/before
	insmod /files/weak.ko || fail "insmod weak.ko under ftrace=function"
	cat "$TRACING/enabled_functions" >/tmp/enabled
	echo nop >"$TRACING/current_tracer"
	cat "$AFF" >/tmp/after
	enabled_weak
	sort /files/weak.live >/tmp/live
	cmp -s /tmp/enabled.weak /tmp/live ||
		fail "ftrace=function: records of weak enabled: $(tr '\n' ' ' </tmp/enabled.weak)"
	# The lines of the list whose function is not in enabled_functions
	# (names counted, for static functions of the same name): the host
	# compares them with stock's.
	awk 'NR == FNR { sub(/ \([0-9]+\).*/, ""); n[$0]++; next } n[$0] > 0 { n[$0]--; next } { print }' \
		/tmp/enabled /tmp/after >/tmp/notenabled
	# Those are the dead call sites of weak (listed by the kernels that
	# list disabled records, as __ftrace_invalid_address___OFFSET).
	! grep -qv '^__ftrace_invalid_address___[0-9]* \[weak\]$' /tmp/notenabled ||
		fail "ftrace=function: not enabled: $(grep -v '^__ftrace_invalid_address___[0-9]* \[weak\]$' /tmp/notenabled | head -n 5 | tr '\n' ' ')"
	[ ! -s /tmp/notenabled ] || [ "$(wc -l </tmp/notenabled)" -eq "$(cat /files/weak.dead)" ] ||
		fail "ftrace=function: $(wc -l </tmp/notenabled) dead call sites of weak listed and not enabled, want $(cat /files/weak.dead)"
	rmmod weak || fail "rmmod weak"
	cmp -s /tmp/before "$AFF" || fail "unloading weak did not restore available_filter_functions"
	say "ftrace=function from boot: weak loaded with $(wc -l </tmp/enabled.weak) records enabled (its live functions), no dead call site; $(wc -l </tmp/enabled) records enabled, of the $(wc -l </tmp/after) of available_filter_functions; not enabled: $(tr '\n' ' ' </tmp/notenabled)"
	put before /tmp/before
	put after /tmp/after
	put enabled.weak /tmp/enabled.weak
	put notenabled /tmp/notenabled
}

# 8. Booted with ftrace=function ftrace_filter=ksys_sync,:mod:weak: the
# filter on the module is cached at boot and applied as it loads, where
# the kernel takes :mod: from ftrace_filter= (7.3 does, through
# ftrace_set_regex()); then exactly its live functions are enabled and the
# calls of its init to them are traced. A kernel that drops the :mod:
# part at boot must enable none of them.
scenario_boot_filter() {
	tracer_from_boot
	grep -qx ksys_sync "$TRACING/set_ftrace_filter" || fail "ftrace_filter= did not set ksys_sync"
	cached=0
	! grep -q ':mod:weak$' "$TRACING/set_ftrace_filter" || cached=1
	insmod /files/weak.ko || fail "insmod weak.ko under ftrace=function"
	cat "$TRACING/enabled_functions" >/tmp/enabled
	cat "$TRACING/trace" >/tmp/trace
	echo nop >"$TRACING/current_tracer"
	enabled_weak
	if [ "$cached" = 1 ]; then
		sort /files/weak.live >/tmp/live
		cmp -s /tmp/enabled.weak /tmp/live ||
			fail "ftrace_filter=:mod:weak: records of weak enabled: $(tr '\n' ' ' </tmp/enabled.weak)"
		n=0
		while read -r f; do
			grep -qw "$f" /tmp/trace && n=$((n + 1))
		done </files/weak.called
		[ "$n" -eq "$(wc -l </files/weak.called)" ] ||
			fail "the function tracer traced $n of the $(wc -l </files/weak.called) functions weak's init calls"
		what="cached at boot; at the load exactly weak's $(wc -l </tmp/enabled.weak) live functions were enabled, and the $n calls its init makes to them traced"
	else
		[ ! -s /tmp/enabled.weak ] ||
			fail "ftrace_filter= without :mod:weak, yet records of weak enabled: $(tr '\n' ' ' </tmp/enabled.weak)"
		what="not taken at boot by this kernel (set_ftrace_filter: $(tr '\n' ' ' <"$TRACING/set_ftrace_filter")); no record of weak enabled"
	fi
	[ "$(grep -cv '\[weak\]' /tmp/enabled)" -eq 1 ] ||
		fail "enabled_functions holds other records than ksys_sync and weak's: $(grep -v '\[weak\]' /tmp/enabled | head -n 5 | tr '\n' ' ')"
	rmmod weak || fail "rmmod weak"
	echo >"$TRACING/set_ftrace_filter"
	say "ftrace=function ftrace_filter=ksys_sync,:mod:weak from boot: :mod:weak $what; no dead call site"
	put enabled.weak /tmp/enabled.weak
}

# stop_loops: end the background loops of scenario_reload and wait for them.
stop_loops() {
	rm -f /tmp/running
	wait
	[ ! -s /tmp/loop-errors ] || fail "failed beside the loads: $(head -n 3 /tmp/loop-errors | tr '\n' ' ')"
}

# reload_fail MSG: fail, with the background loops stopped first.
reload_fail() {
	stop_loops
	fail "$@"
}

# 9. weak loaded and unloaded again and again while one task starts and
# stops the function tracer with a filter on weak (":mod:weak", cached
# while weak is out) and another reads available_filter_functions: the
# list the same after each load, and at the end no record enabled, the
# decisions and the filter on weak exactly its live functions.
scenario_reload() {
	cycles=$(cat /files/cycles)
	cat "$AFF" >/tmp/before
	insmod /files/weak.ko || fail "insmod weak.ko"
	cat "$AFF" >/tmp/after
	rmmod weak || fail "rmmod weak"
	rm -f /tmp/loop-errors /tmp/refused
	touch /tmp/running
	(
		t=0
		while [ -e /tmp/running ]; do
			# A module between ftrace_module_init() and
			# ftrace_module_enable() (or going away) has records
			# that match nothing, and cache_mod() refuses it as
			# loaded: EINVAL, on stock as well. Counted, not failed.
			if ! err=$({ echo ':mod:weak' >"$TRACING/set_ftrace_filter"; } 2>&1); then
				case $err in
				*"Invalid argument"*) echo x >>/tmp/refused ;;
				*) echo ":mod:weak write $t: $err" >>/tmp/loop-errors ;;
				esac
			fi
			echo function >"$TRACING/current_tracer" || echo "function tracer start $t" >>/tmp/loop-errors
			echo nop >"$TRACING/current_tracer"
			t=$((t + 1))
		done
		echo "$t" >/tmp/starts
	) &
	(
		r=0
		while [ -e /tmp/running ]; do
			cat "$AFF" >/dev/null || echo "available_filter_functions read $r" >>/tmp/loop-errors
			r=$((r + 1))
		done
		echo "$r" >/tmp/reads
	) &
	i=1
	while [ "$i" -le "$cycles" ]; do
		insmod /files/weak.ko || reload_fail "insmod weak.ko, load $i"
		cat "$AFF" >/tmp/now
		cmp -s /tmp/after /tmp/now || reload_fail "load $i: the list differs from the first load's"
		rmmod weak || reload_fail "rmmod weak, load $i"
		i=$((i + 1))
	done
	stop_loops
	starts=$(cat /tmp/starts)
	reads=$(cat /tmp/reads)
	refused=0
	[ ! -e /tmp/refused ] || refused=$(wc -l </tmp/refused)
	if [ "$starts" -eq 0 ] || [ "$reads" -eq 0 ]; then
		fail "the loops beside the loads did not run (tracer starts $starts, list reads $reads)"
	fi
	echo >"$TRACING/set_ftrace_filter"
	cat "$TRACING/enabled_functions" >/tmp/enabled
	[ ! -s /tmp/enabled ] || fail "records enabled with no tracer: $(head -n 5 /tmp/enabled | tr '\n' ' ')"
	cmp -s /tmp/before "$AFF" || fail "after the last unload the list differs from the one before"
	insmod /files/weak.ko || fail "insmod weak.ko after the loop"
	decided_records weak >/tmp/decided.weak
	sort /files/weak.live >/tmp/live
	cmp -s /tmp/decided.weak /tmp/live ||
		fail "records enabled after the loop: $(tr '\n' ' ' </tmp/decided.weak)"
	echo ':mod:weak' >"$TRACING/set_ftrace_filter" || fail ":mod:weak"
	cut -d' ' -f1 "$TRACING/set_ftrace_filter" | sort >/tmp/filter
	echo >"$TRACING/set_ftrace_filter"
	cmp -s /tmp/filter /tmp/live || fail ":mod:weak after the loop holds: $(tr '\n' ' ' </tmp/filter)"
	rmmod weak || fail "rmmod weak"
	say "$cycles loads and unloads of weak, the same list after each, beside $starts function tracer starts with :mod:weak ($refused of the writes refused with EINVAL while weak was coming or going) and $reads reads of available_filter_functions; then no record enabled, and weak's decisions and :mod:weak exactly its live functions"
	echo "reload $cycles $starts $reads $refused" >/tmp/times
	put before /tmp/before
	put after /tmp/after
	put decided.weak /tmp/decided.weak
	put times /tmp/times
}

# load_each MODULE...: insmod each of /files/MODULE.ko in turn.
# shellcheck disable=SC2317 # called through elapsed_ms
load_each() {
	for m in "$@"; do
		insmod "/files/$m.ko" || fail "insmod $m.ko"
	done
}

# unload_each MODULE...: rmmod each in turn.
# shellcheck disable=SC2317 # called through elapsed_ms
unload_each() {
	for m in "$@"; do
		rmmod "$m" || fail "rmmod $m"
	done
}

# 10. Hundreds of small modules (10-50 functions each) loaded one by one,
# then the big one; all unloaded. The load and unload times per module,
# the list after the loads (as the lines they add), the list from before
# after the unloads, the Slab counter before and after (kmemleak below).
scenario_many() {
	# shellcheck disable=SC2046 # one module name per word
	set -- $(cat /files/many.list)
	count=$#
	cat "$AFF" >/tmp/before
	slab0=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	load=$(elapsed_ms load_each "$@") || exit 1
	big=$(time_insmod /files/big.ko) || fail "insmod big.ko after $count small modules"
	cat "$AFF" >/tmp/after
	nrec=0
	for m in "$@"; do
		nrec=$((nrec + $(module_records "$m" /tmp/after)))
	done
	unload=$(elapsed_ms unload_each big "$@") || exit 1
	slab1=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	cmp -s /tmp/before "$AFF" || fail "unloading all did not restore available_filter_functions"
	say "$count small modules ($nrec records) loaded in $load ms, then big ($big: insmod, ftrace_module_enable(), ftrace_module_init() us, index bytes); all unloaded in $unload ms; the list restored; Slab: $slab0 kB before, $slab1 kB after (kmemleak below)"
	echo "many $count $load $unload $(echo "$big" | cut -d' ' -f1-2) $slab0 $slab1" >/tmp/times
	put before /tmp/before
	put after /tmp/after
	put times /tmp/times
}

# Positive controls: each detector reports what it exists to report.
scenario_control() {
	echo WARNING >"$DEBUGFS/provoke-crash/DIRECT"
	echo READ_AFTER_FREE >"$DEBUGFS/provoke-crash/DIRECT"
	insmod /files/kmemleak-test.ko || fail "insmod kmemleak-test.ko"
	rmmod kmemleak_test || true
	echo scan >"$DEBUGFS/kmemleak"
	sleep 6
	echo scan >"$DEBUGFS/kmemleak"
	n=$(grep -c '^unreferenced object' "$DEBUGFS/kmemleak" || true)
	say "kmemleak: $n objects leaked (kmemleak-test leaks on purpose)"
	echo HUNG_TASK >"$DEBUGFS/provoke-crash/DIRECT" &
	# The hung task detector reports within two of its 10 s periods.
	i=0
	while [ $i -lt 30 ] && ! dmesg | grep -q 'blocked for more than'; do
		sleep 1
		i=$((i + 1))
	done
	say "controls provoked: WARNING, use-after-free, kmemleak-test, a hung task"
}

# Positive control that ends the boot: LKDTM's SPINLOCKUP returns to user
# space holding a spinlock (lockdep reports it), and the second one spins
# on it (the soft lockup detector panics).
scenario_control_lockup() {
	echo SPINLOCKUP >"$DEBUGFS/provoke-crash/DIRECT"
	echo SPINLOCKUP >"$DEBUGFS/provoke-crash/DIRECT"
	sleep 30
	fail "SPINLOCKUP did not stop the kernel"
}

# run_one NAME: one scenario (a failed check exits the shell it runs in).
run_one() {
	case $1 in
	control) scenario_control ;;
	control-lockup) scenario_control_lockup ;;
	leaks) scenario_leaks ;;
	load) detectors_start && scenario_load && detectors_end ;;
	parallel) detectors_start && scenario_parallel && detectors_end ;;
	tracing) detectors_start && scenario_tracing && detectors_end ;;
	filter) detectors_start && scenario_filter && detectors_end ;;
	nomem) detectors_start && scenario_nomem && detectors_end ;;
	cycles) detectors_start && scenario_cycles && detectors_end ;;
	boot-function) detectors_start && scenario_boot_function && detectors_end ;;
	boot-filter) detectors_start && scenario_boot_filter && detectors_end ;;
	reload) detectors_start && scenario_reload && detectors_end ;;
	many) detectors_start && scenario_many && detectors_end ;;
	*) fail "unknown scenario '$1'" ;;
	esac
}

# run_set NAME...: the scenarios of the quick subset in one boot, in order,
# each in a subshell of its own, so that a failed one does not stop the
# others (the host puts "leaks" after the scenarios, and a control last:
# control-lockup ends the boot). Each begins with its "scenario" line and
# ends with "scenario NAME ended rc=N" and its own dmesg (read and
# cleared; the first one's has the boot's too), by which the host splits
# the boot into one log per scenario. kmemleak, whose scans take 10 s and
# more each, is cleared before the first scenario and judged once, by
# "leaks"; lockdep is checked after each.
run_set() {
	for s in "$@"; do
		say "scenario $s on $HEADER"
		rc=0
		(
			PREFIX=$s.
			KMEMLEAK="set"
			[ "$s" != "$1" ] || KMEMLEAK=first
			run_one "$s"
		) || rc=$?
		dmesg -c >/tmp/dmesg
		send "$s.dmesg" /tmp/dmesg
		say "scenario $s ended rc=$rc"
	done
}

main() {
	s=$(scenario_name)
	mount -t debugfs debugfs "$DEBUGFS" 2>/dev/null || true
	setup_probes || fail "cannot set kprobes on ftrace_module_enable"
	HEADER="$(uname -r) ($(uname -v | grep -o 'PREEMPT[A-Z_]*' || echo 'no PREEMPT in uname -v'); $(dmesg | grep -o 'Dynamic Preempt: [a-z]*' || echo 'no dynamic preemption'))"
	case $s in
	*,*)
		ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086 # the names, split at commas
		set -- $s
		IFS=$ifs
		run_set "$@"
		return 0
		;;
	esac
	say "scenario $s on $HEADER"
	rc=0
	run_one "$s" || rc=$?
	dmesg >/tmp/dmesg
	put dmesg /tmp/dmesg
	[ "$rc" -eq 0 ] || fail "scenario $s stopped with status $rc"
}

main
exit 0
