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
# ftrace_module_init() (entry, return), of trace_marker writes around
# insmod, and the sizes asked of kvmalloc() (which every index of the
# series and its variants is allocated with) from within
# ftrace_module_enable(), in the trace buffer.
setup_probes() {
	: >"$TRACING/kprobe_events" || return 1
	# shellcheck disable=SC2016 # $arg1 is the kprobe's, not the shell's
	for probe in 'p:fme_entry ftrace_module_enable' 'r:fme_return ftrace_module_enable' \
		'p:fmi_entry ftrace_module_init' 'r:fmi_return ftrace_module_init' \
		'p:fme_alloc __kvmalloc_node_noprof size=$arg1:u64'; do
		echo "$probe" >>"$TRACING/kprobe_events" || { echo "cannot set kprobe '$probe'" >&2; return 1; }
	done
	echo 1 >"$TRACING/events/kprobes/enable" || return 1
	echo 1 >"$TRACING/tracing_on"
}

# time_insmod KO: load KO and print "<insmod us> <ftrace_module_enable() us>
# <ftrace_module_init() us> <bytes kvmalloc'ed in ftrace_module_enable()>".
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
		/fme_alloc:/ && fs != "" && fe == "" && $1 == task { v = $0; sub(/.*size=/, "", v); bytes += v + 0 }
		END {
			if (s == "" || e == "" || fs == "" || fe == "" || is == "" || ie == "") { print "missing timestamps" > "/dev/stderr"; exit 1 }
			printf "%d %d %d %d\n", (e - s) * 1000000 + 0.5, (fe - fs) * 1000000 + 0.5, (ie - is) * 1000000 + 0.5, bytes
		}' "$TRACING/trace"
}
