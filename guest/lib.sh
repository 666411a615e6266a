# shellcheck shell=sh
# Helpers for the guest test scripts (busybox sh).

TRACING=/sys/kernel/tracing

# use_staged_modules: the modules the host staged in /files/modules (with
# their modules.dep, scripts/stage-modules.sh) as /lib/modules, for modprobe.
use_staged_modules() {
	mkdir -p /lib
	ln -s /files/modules /lib/modules
}

# send NAME FILE: copy FILE to the host over ttyS1, framed by markers.
send() {
	{
		echo "=== BEGIN $1"
		cat "$2"
		echo "=== END $1"
	} >/dev/ttyS1
}

# Timestamps of the kprobes on ftrace_module_enable() and
# ftrace_module_init() (entry, return) and of trace_marker writes around
# insmod, in the trace buffer; and, from the entry of
# ftrace_module_enable() to its return only (event triggers), the
# kmem:kmalloc events, whose bytes_req is the size every kvmalloc() asks
# for first: those called from ftrace_mod_syms_build(), where the series
# and each variant allocate their index, are its size. (Only where that
# function is not inlined: the kernels with KUnit, which make it
# visible; the others show 0. A kmalloc() of more than
# KMALLOC_MAX_CACHE_SIZE is traced twice, the second time from the slab
# allocator itself, which the call site leaves out, as it does the module
# name that ftrace_module_enable() copies with kstrdup() on every kernel.)
# Both probed functions are in kernel/trace/, built without fentry, so
# these are int3 kprobes: no ftrace_ops is registered, and
# ftrace_module_enable() runs as with no tracer (a kprobe on a traced
# function such as kvmalloc would register one, and the records of every
# module would then be checked against it).
setup_probes() {
	: >"$TRACING/kprobe_events" || return 1
	for probe in 'p:fme_entry ftrace_module_enable' 'r:fme_return ftrace_module_enable' \
		'p:fmi_entry ftrace_module_init' 'r:fmi_return ftrace_module_init'; do
		echo "$probe" >>"$TRACING/kprobe_events" || { echo "cannot set kprobe '$probe'" >&2; return 1; }
	done
	echo 'enable_event:kmem:kmalloc' >"$TRACING/events/kprobes/fme_entry/trigger" || return 1
	echo 'disable_event:kmem:kmalloc' >"$TRACING/events/kprobes/fme_return/trigger" || return 1
	echo 1 >"$TRACING/events/kprobes/enable" || return 1
	echo 1 >"$TRACING/tracing_on"
}

# time_insmod KO: load KO and print "<insmod us> <ftrace_module_enable() us>
# <ftrace_module_init() us> <index bytes: what ftrace_mod_syms_build()
# asked of kmalloc() for the insmod task, see setup_probes>".
time_insmod() {
	echo >"$TRACING/trace"
	echo insmod-start >"$TRACING/trace_marker"
	insmod "$1" || return 1
	echo insmod-end >"$TRACING/trace_marker"
	awk '
		function ts(line,   a, n) { n = split(line, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", a[i]); return a[i] } }
		/insmod-start/ { s = ts($0) }
		/insmod-end/ { e = ts($0) }
		/fme_entry:/ { fs = ts($0); task = $1 }
		/fme_return:/ { fe = ts($0) }
		/fmi_entry:/ { is = ts($0) }
		/fmi_return:/ { ie = ts($0) }
		/ kmalloc: call_site=ftrace_mod_syms_build\+/ && fs != "" && fe == "" && $1 == task { v = $0; sub(/.*bytes_req=/, "", v); sub(/ .*/, "", v); bytes += v + 0 }
		END {
			if (s == "" || e == "" || fs == "" || fe == "" || is == "" || ie == "") { print "missing timestamps" > "/dev/stderr"; exit 1 }
			printf "%d %d %d %d\n", (e - s) * 1000000 + 0.5, (fe - fs) * 1000000 + 0.5, (ie - is) * 1000000 + 0.5, bytes
		}' "$TRACING/trace"
}
