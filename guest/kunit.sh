#!/bin/sh
# Guest side of the module run of a KUnit suite: loading the one module
# in /files (ftrace_locs_test.ko, module_kallsyms_test.ko) runs its cases
# (KUnit runs a module's suites when it is loaded) with the module's own
# records, symtabs and init text present.
# Send the kernel log of the load, which has the KTAP output, to the host;
# then unload the module and load it again (see graph_on).
# shellcheck source=guest/lib.sh
. /lib.sh

# The boot log has a KTAP header of its own (no built-in suite): keep it
# apart from the module's.
dmesg -c >/tmp/boot
set -- /files/*.ko
if [ $# -ne 1 ] || [ ! -e "$1" ]; then
	echo "not one module in /files: $*"
	exit 1
fi
ko=$1
name=${ko##*/}
name=${name%.ko}

# With /files/graph (functions, one per line), the second load runs
# under the function_graph tracer on those functions only, called from
# the first (not the suite's own calls), and their calls, summed
# (graph_sums), go to the host as "graph": what the loader did where the
# suite's results cannot tell.
graph_on() {
	[ -e /files/graph ] || return 0
	if ! cat /files/graph >"$TRACING/set_ftrace_filter" ||
		! head -n 1 /files/graph >"$TRACING/set_graph_function"; then
		echo "cannot trace: $(paste -sd' ' /files/graph)"
		exit 1
	fi
	echo function_graph >"$TRACING/current_tracer" || exit 1
	echo >"$TRACING/trace"
}

graph_off() {
	[ -e /files/graph ] || return 0
	echo 0 >"$TRACING/tracing_on"
	graph_sums "$TRACING/trace" >/tmp/graph
	echo nop >"$TRACING/current_tracer"
	echo >"$TRACING/set_ftrace_filter"
	echo >"$TRACING/set_graph_function"
	echo 1 >"$TRACING/tracing_on"
}
insmod "$ko" || exit 1
dmesg >/tmp/dmesg
rmmod "$name" || exit 1
graph_on
insmod "$ko" || exit 1
graph_off
rmmod "$name" || exit 1
dmesg >/tmp/dmesg-all
send boot /tmp/boot
send dmesg /tmp/dmesg
send dmesg-all /tmp/dmesg-all
[ ! -e /files/graph ] || send graph /tmp/graph
exit 0
