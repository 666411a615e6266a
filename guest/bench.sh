#!/bin/sh
# Guest side of the A/B benchmark. For each module in /files/modules.list:
# snapshot available_filter_functions, then RUNS times load it (timing the
# whole insmod and, with kprobes, ftrace_module_enable()) and unload it.
# The list right after the first load is sent to the host with the snapshot
# taken before it, so the host can compare stock and patched line for line,
# and so is set_ftrace_filter after ":mod:NAME" was written to it: the
# filter takes exactly the module's records that are not
# FTRACE_FL_DISABLED, i.e. the decisions themselves. (Turning the function
# tracer on would show them too, but traces the whole kernel, far too slow
# under TCG.) A module listed with "times" is only loaded and timed.
# The trace buffer of every load goes to the host too ("traces": what
# insmod_times read, kept in the work directory). Last,
# /files/warn_control.ko warns once, and the log after it shows the
# host that this kernel prints warnings.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions
RUNS=$(cat /files/runs)

setup_probes || { echo "cannot set kprobes on ftrace_module_enable"; exit 1; }
: >/tmp/times
: >/tmp/traces
while read -r ko mode; do
	name=${ko%.ko}
	[ "$mode" = times ] || cat "$AFF" >/tmp/before
	i=1
	while [ "$i" -le "$RUNS" ]; do
		t=$(time_insmod "/files/$ko") || { echo "insmod $ko failed"; exit 1; }
		echo "$name $i $t" >>/tmp/times
		{ echo "### $name $i"; cat "$TRACING/trace"; } >>/tmp/traces
		echo "bench: $name run $i: $t"
		if [ "$i" -eq 1 ] && [ "$mode" != times ]; then
			cat "$AFF" >/tmp/after
			send "$name.before" /tmp/before
			send "$name.after" /tmp/after
			echo ":mod:$name" >"$TRACING/set_ftrace_filter" || exit 1
			cat "$TRACING/set_ftrace_filter" >/tmp/filter
			echo >"$TRACING/set_ftrace_filter"
			send "$name.filter" /tmp/filter
		fi
		rmmod "$name" || { echo "rmmod $name failed"; exit 1; }
		i=$((i + 1))
	done
done </files/modules.list
send times /tmp/times
send traces /tmp/traces
send_logs || exit 1
exit 0
