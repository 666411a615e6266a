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
# On a kernel booted with "ftrace_modsyms_lookups" (bench/run.sh: stock,
# the series and the second series), each module is then loaded once more,
# with /files/modsyms_tiny.ko (one function), and what names its records
# afterwards is timed (lookups, below); where the second series is
# applied, the build of its index is timed after that (index_builds).
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions
FILTER=$TRACING/set_ftrace_filter
RUNS=$(cat /files/runs)

# The operations lookups times, called through op.
# shellcheck disable=SC2317
read_list() { cat "$AFF" >/dev/null; }
# shellcheck disable=SC2317
set_filter() { echo "$1" >"$FILTER"; }
# shellcheck disable=SC2317
add_kprobe() { echo "p:modsyms_lookup $1" >>"$TRACING/kprobe_events"; }

# op NAME RUN OP CMD...: time CMD, as line "NAME RUN OP us" of /tmp/lookups.
op() {
	what="$1 $2 $3"
	shift 3
	t=$(time_op "$@") || { echo "$what failed"; return 1; }
	echo "$what $t" >>/tmp/lookups
	echo "bench: $what: $t us"
}

# lookups NAME MODE: with NAME and modsyms_tiny loaded, time: reading
# available_filter_functions; writing a glob that matches NAME's functions
# to set_ftrace_filter (NAME_fn_* for a generated module, NAME_* else),
# then "*:mod:NAME", then "*:mod:modsyms_tiny"; defining a kprobe on a
# function of NAME by name (of N generated ones the N/2-th, else the
# middle one of its list; its address is looked up, the kprobe is
# registered disabled). RUNS
# times, once for a module only timed (minutes per operation on stock).
# Then NAME's core size, init size and lines in /proc/kallsyms ("mem"
# line). After the first run, for a module whose lists are compared, the
# filters each write left, NAME's /proc/kallsyms lines and its lines in
# the other listings (listings) go to the host, and for some modules
# what %pS names each byte of their memory (sprint).
lookups() {
	name=$1 runs=$RUNS r=1
	[ "$2" != times ] || runs=1
	case $name in
	modsyms_*) glob="${name}_fn_*" probe=${name}_fn_$((${name#modsyms_} / 2)) ;;
	*) glob="${name}_*" probe=$(awk -v m="[$name]" '$2 == m { a[++n] = $1 } END { print a[int((n + 1) / 2)] }' /tmp/after) ;;
	esac
	while [ "$r" -le "$runs" ]; do
		op "$name" "$r" read read_list || return 1
		op "$name" "$r" glob set_filter "$glob" || return 1
		[ "$r" -gt 1 ] || cat "$FILTER" >"/tmp/$name.glob"
		op "$name" "$r" mod set_filter "*:mod:$name" || return 1
		[ "$r" -gt 1 ] || cat "$FILTER" >"/tmp/$name.mod"
		op "$name" "$r" mod-tiny set_filter "*:mod:modsyms_tiny" || return 1
		[ "$r" -gt 1 ] || cat "$FILTER" >"/tmp/$name.tiny"
		echo >"$FILTER"
		op "$name" "$r" kprobe add_kprobe "$name:$probe" || return 1
		echo "-:modsyms_lookup" >>"$TRACING/kprobe_events" || return 1
		r=$((r + 1))
	done
	echo "$name 1 mem $(cat "/sys/module/$name/coresize") $(cat "/sys/module/$name/initsize") $(grep -c "\[$name\]\$" /proc/kallsyms)" >>/tmp/lookups
	[ "$2" != times ] || return 0
	grep "\[$name\]\$" /proc/kallsyms >"/tmp/$name.kallsyms"
	listings "$name" || return 1
	for f in glob mod tiny kallsyms notrace graph addrs enabled touched; do
		send "$name.$f" "/tmp/$name.$f"
	done
	if [ -e /files/symprint.ko ] && sprint_wanted "$name"; then
		sprint "$name" || return 1
		send "$name.sprint" "/tmp/$name.sprint"
	fi
}

# sprint_wanted NAME: whether sprint names every byte of NAME: kvm.ko and
# the generated modules of at most 2,000 functions (a module's core data
# holds its symtab and strtab too: stock looks up each of their bytes with
# a scan, a minute under TCG for kvm.ko).
sprint_wanted() {
	case $1 in
	modsyms_*) [ "${1#modsyms_}" -le 2000 ] ;;
	*) true ;;
	esac
}

# sprint NAME: what sprint_symbol() (%pS) names every byte of NAME's core
# memory, a line per run (/files/symprint.ko, scripts/gen-module.sh), in
# /tmp/NAME.sprint.
sprint() {
	a=$(awk -v m="[$1]" '$3 == "__this_module" && $4 == m { print $1 }' /proc/kallsyms)
	[ -n "$a" ] || { echo "no __this_module of $1 in /proc/kallsyms"; return 1; }
	insmod /files/symprint.ko "target=0x$a" || { echo "symprint.ko failed on $1"; return 1; }
	cat /proc/symprint >"/tmp/$1.sprint"
	rmmod symprint
}

# listings NAME: what the other files that name records show for NAME:
# set_ftrace_notrace and set_graph_function after the glob of lookups, its lines of available_filter_functions_addrs, and of
# enabled_functions and touched_functions while and after the function
# tracer traces its records (and no other).
listings() {
	for f in notrace:set_ftrace_notrace graph:set_graph_function; do
		echo "$glob" >"$TRACING/${f#*:}" || return 1
		cat "$TRACING/${f#*:}" >"/tmp/$1.${f%%:*}"
		echo >"$TRACING/${f#*:}"
	done
	grep -F "[$1]" "$TRACING/available_filter_functions_addrs" >"/tmp/$1.addrs"
	echo "*:mod:$1" >"$FILTER" || return 1
	echo function >"$TRACING/current_tracer" || return 1
	grep -F "[$1]" "$TRACING/enabled_functions" >"/tmp/$1.enabled"
	echo nop >"$TRACING/current_tracer"
	echo >"$FILTER"
	grep -F "[$1]" "$TRACING/touched_functions" >"/tmp/$1.touched"
}

# index_builds NAME MODE: on a kernel with the second series, how long
# index_kallsyms() takes in each of RUNS more loads of NAME (once for a
# module only timed), as lines "NAME RUN build us" of /tmp/lookups: the
# function_graph tracer on it alone.
index_builds() {
	runs=$RUNS r=1
	[ "$2" != times ] || runs=1
	while [ "$r" -le "$runs" ]; do
		echo index_kallsyms >"$FILTER" || return 1
		echo function_graph >"$TRACING/current_tracer" || return 1
		echo >"$TRACING/trace"
		insmod "/files/$1.ko" || { echo "insmod $1 for the index build failed"; return 1; }
		t=$(graph_us "$TRACING/trace" index_kallsyms) || return 1
		echo nop >"$TRACING/current_tracer"
		echo >"$FILTER"
		rmmod "$1" || return 1
		echo "$1 $r build $t" >>/tmp/lookups
		echo "bench: $1 $r build: $t us"
		r=$((r + 1))
	done
}

# The dependency of kvm.ko, loaded once.
insmod /files/irqbypass.ko || { echo "insmod irqbypass.ko failed"; exit 1; }

setup_probes || { echo "cannot set kprobes on ftrace_module_enable"; exit 1; }
: >/tmp/times
: >/tmp/traces
: >/tmp/lookups
LOOKUPS=0
grep -qw ftrace_modsyms_lookups /proc/cmdline && LOOKUPS=1
# Whether this kernel has the second series' index (index_builds).
INDEXED=0
grep -qx index_kallsyms "$AFF" && INDEXED=1
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
	if [ $LOOKUPS = 1 ]; then
		for m in "$ko" modsyms_tiny.ko; do
			insmod "/files/$m" || { echo "insmod $m for lookups failed"; exit 1; }
		done
		lookups "$name" "$mode" || exit 1
		for m in modsyms_tiny "$name"; do
			rmmod "$m" || { echo "rmmod $m after lookups failed"; exit 1; }
		done
		# After the lookups: their loads then come in the same order,
		# at the same addresses, on every kernel (set_graph_function
		# lists its hash in an order the addresses give).
		if [ $INDEXED = 1 ]; then
			index_builds "$name" "$mode" || exit 1
		fi
	fi
done </files/modules.list
send times /tmp/times
[ $LOOKUPS = 0 ] || send lookups /tmp/lookups
send traces /tmp/traces
send_logs || exit 1
exit 0
