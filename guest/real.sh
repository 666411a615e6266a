#!/bin/sh
# Guest side of bench/real.sh: real modules, loaded with modprobe from the
# staged /lib/modules, without their hardware.
#
# First, as udev does at boot, every module of /files/real.list is
# modprobed at once (each in the background, with what it needs), timed
# from the first modprobe to the last exit; then everything is unloaded.
# Then, for each module of /files/real.list ("MODULE DEP..."), its
# dependencies are loaded (not timed), available_filter_functions is
# saved, and the module alone is loaded RUNS times with modprobe (timed as
# guest/bench.sh times insmod) and unloaded with rmmod. The list after the
# first load, and set_ftrace_filter after ":mod:MODULE", go to the host,
# which compares them across kernels. A module whose init fails without
# its hardware is still timed (ftrace_module_enable() ran before its
# init) and named in "noinit". Last, /files/warn_control.ko warns once.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions
RUNS=$(cat /files/runs)

# unload_all: rmmod every module, those nothing uses first, until none
# is left (/proc/modules has no size: read it).
unload_all() {
	n=0
	while grep -q . /proc/modules && [ "$n" -lt 50 ]; do
		awk '$3 == 0 { print $1 }' /proc/modules >/tmp/unused
		while read -r m; do
			rmmod "$m" 2>/dev/null || true
		done </tmp/unused
		n=$((n + 1))
	done
	! grep -q . /proc/modules || { echo "cannot unload:"; cat /proc/modules; return 1; }
}

# loaded MODULE: whether MODULE is in /proc/modules.
loaded() {
	awk -v m="$1" '$1 == m { f = 1 } END { exit !f }' /proc/modules
}

# try_modprobe MODULE: modprobe MODULE; a failure (its init failed
# without its hardware) is left to loaded() to see.
try_modprobe() {
	modprobe "$1" 2>/tmp/modprobe.err || true
}

# boot_style: every module at once; prints "<us from the first modprobe
# to the last exit> <ftrace_module_enable() calls>".
boot_style() {
	echo >"$TRACING/trace"
	echo boot-start >"$TRACING/trace_marker"
	while read -r mod _; do
		try_modprobe "$mod" &
	done </files/real.list
	wait
	echo boot-end >"$TRACING/trace_marker"
	awk '
		function ts(line,   a, n, i) { n = split(line, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", a[i]); return a[i] } }
		/boot-start/ { s = ts($0) }
		/boot-end/ { e = ts($0) }
		/fme_entry:/ { n++ }
		END { if (s == "" || e == "") exit 1; printf "%d %d\n", (e - s) * 1000000 + 0.5, n }' "$TRACING/trace"
}

use_staged_modules
# Room for the kmalloc events of every task while stock's
# ftrace_module_enable() runs for minutes in the all-at-once load.
echo 65536 >"$TRACING/buffer_size_kb"
setup_probes || { echo "cannot set kprobes on ftrace_module_enable"; exit 1; }
b=$(boot_style) || { echo "boot-style run: no timestamps"; exit 1; }
echo "$b" >/tmp/boot
echo "real: all at once: $b"
unload_all || exit 1
: >/tmp/times
: >/tmp/noinit
while read -r mod deps; do
	for d in $deps; do
		modprobe "$d" || { echo "modprobe $d (for $mod) failed"; exit 1; }
	done
	cat "$AFF" >/tmp/before
	i=1
	while [ "$i" -le "$RUNS" ]; do
		t=$(time_load try_modprobe "$mod") || {
			echo "modprobe $mod: no timestamps; modprobe said:"
			cat /tmp/modprobe.err
			echo "the trace:"
			tail -n 20 "$TRACING/trace"
			exit 1
		}
		echo "$mod $i $t" >>/tmp/times
		echo "real: $mod run $i: $t"
		if [ "$i" -eq 1 ] && ! loaded "$mod"; then
			echo "$mod $(cat /tmp/modprobe.err)" >>/tmp/noinit
		elif [ "$i" -eq 1 ]; then
			cat "$AFF" >/tmp/after
			echo ":mod:$mod" >"$TRACING/set_ftrace_filter" || exit 1
			cat "$TRACING/set_ftrace_filter" >/tmp/filter
			echo >"$TRACING/set_ftrace_filter"
			send "$mod.before" /tmp/before
			send "$mod.after" /tmp/after
			send "$mod.filter" /tmp/filter
		fi
		! loaded "$mod" || rmmod "$mod" || { echo "rmmod $mod failed"; exit 1; }
		i=$((i + 1))
	done
	unload_all || exit 1
done </files/real.list
send times /tmp/times
send boot /tmp/boot
send noinit /tmp/noinit
send_logs || exit 1
exit 0
