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
# kmem:kmalloc events, for the size of the index (see insmod_times).
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

# insmod_times TRACE: from the trace buffer of one load (time_insmod),
# "<insmod us> <ftrace_module_enable() us> <ftrace_module_init() us>
# <index bytes>". The index bytes: the bytes_req of the kmalloc events of
# the insmod task inside ftrace_module_enable() that come from the
# kvzalloc() with which ftrace_mod_syms_build() allocates the index of the
# series and of each variant (its first attempt), each allocation once
# (by its pointer). Their call site is ftrace_mod_syms_build() or the
# kvmalloc itself, __kvmalloc_node_noprof(): on 7.x, a kmalloc of more
# than KMALLOC_MAX_CACHE_SIZE is traced twice, from inside the slab
# allocator (call site __kvmalloc_node_noprof()) and with its caller; on
# 6.12, kvmalloc is out of line in mm/util.c and kmalloc names it as the
# caller, except for at most PAGE_SIZE, where it is a tail call (the
# event of a large kmalloc from inside the slab allocator then names
# __kmalloc_node_noprof()). Where ftrace_mod_syms_build() is inlined
# (kernels without KUnit, such as bench/real.sh's), a small index names
# ftrace_module_enable() as its call site, as does the copy of the module
# name that ftrace_module_enable() makes on every kernel: of those, the
# index is the zeroed allocation (__GFP_ZERO: the series and every
# variant allocate it with kvzalloc(); the name copy is not zeroed, and
# the other flags of a kvmalloc() depend on its size).
insmod_times() {
	awk '
		function ts(line,   a, n) { n = split(line, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", a[i]); return a[i] } }
		function field(line, name,   v) { v = line; if (!sub(".* " name "=", "", v)) return ""; sub(/ .*/, "", v); return v }
		/insmod-start/ { s = ts($0) }
		/insmod-end/ { e = ts($0) }
		/fme_entry:/ { fs = ts($0); task = $1 }
		/fme_return:/ { fe = ts($0) }
		/fmi_entry:/ { is = ts($0) }
		/fmi_return:/ { ie = ts($0) }
		(/ kmalloc: call_site=(ftrace_mod_syms_build|__kvmalloc_node_noprof)\+/ ||
		 / kmalloc: call_site=ftrace_module_enable\+.*__GFP_ZERO/) && fs != "" && fe == "" && $1 == task {
			p = field($0, "ptr")
			if (!(p in seen)) { seen[p] = 1; bytes += field($0, "bytes_req") + 0 }
		}
		END {
			if (s == "" || e == "" || fs == "" || fe == "" || is == "" || ie == "") { print "missing timestamps" > "/dev/stderr"; exit 1 }
			printf "%d %d %d %d\n", (e - s) * 1000000 + 0.5, (fe - fs) * 1000000 + 0.5, (ie - is) * 1000000 + 0.5, bytes
		}' "$1"
}

# time_load CMD...: run CMD (insmod or modprobe of one module) and print
# its times as insmod_times does; the trace of the load stays in the
# buffer until the next one. Fails if CMD fails.
time_load() {
	echo >"$TRACING/trace"
	echo insmod-start >"$TRACING/trace_marker"
	"$@" || return 1
	echo insmod-end >"$TRACING/trace_marker"
	insmod_times "$TRACING/trace"
}

# time_op CMD...: run CMD and print how long it took in microseconds,
# between trace_marker writes before and after it (op_us). Fails if CMD
# fails.
time_op() {
	echo >"$TRACING/trace"
	echo op-start >"$TRACING/trace_marker"
	"$@" || return 1
	echo op-end >"$TRACING/trace_marker"
	op_us "$TRACING/trace"
}

# op_us TRACE: the microseconds between the op-start and op-end markers
# of TRACE. Fails if either is missing.
op_us() {
	awk '
		function ts(line,   a, n) { n = split(line, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", a[i]); return a[i] } }
		/op-start/ { s = ts($0) }
		/op-end/ { e = ts($0) }
		END { if (s == "" || e == "") { print "missing op markers" > "/dev/stderr"; exit 1 }; printf "%d\n", (e - s) * 1000000 + 0.5 }' "$1"
}

# graph_us TRACE FUNC: the microseconds the function_graph tracer gives
# for the one call of FUNC in TRACE (a leaf: set_ftrace_filter held FUNC
# alone), rounded. Fails if TRACE has no such line.
graph_us() {
	awk -v f="$2();" '
		$NF == f && / us +\| / { sub(/ us +\|.*/, ""); printf "%d\n", $NF + 0.5; found = 1; exit }
		END { if (!found) { print "no function_graph line of " f > "/dev/stderr"; exit 1 } }' "$1"
}

# graph_sums TRACE: per function of a function_graph TRACE, its calls and
# their microseconds, as lines "profile FUNC CALLS US", sorted by FUNC
# (guest/profile.sh). "FUNC() {" opens a call, its "}" (with the
# duration) closes it, "FUNC();" is a call that called nothing traced,
# "} /* FUNC */" closes a call whose opening the buffer lost; lines
# without a duration (comments of events) are skipped. A function nested
# in another counts in both.
graph_sums() {
	grep -v '^#' "$1" | awk '
		{
			d = ""
			for (i = 1; i < NF; i++)
				if ($(i + 1) == "us") { d = $i; break }
			f = $NF
			if (f == "{") { stack[++top] = $(NF - 1); next }
			if (d == "") next
			if (f == "}") {
				if (top == 0) next
				f = stack[top--]
			} else if (f == "*/") {
				f = $(NF - 1)
				if (top > 0 && stack[top] == f "()") top--
			}
			sub(/\(\);?$/, "", f)
			us[f] += d; calls[f]++
		}
		END { for (f in us) printf "profile %s %d %.3f\n", f, calls[f], us[f] }' | LC_ALL=C sort
}

# time_insmod KO: time_load of insmod KO.
time_insmod() {
	time_load insmod "$1"
}

# send_logs: the kernel log as "dmesg"; then /files/warn_control.ko warns
# once and the log after it goes as "dmesg-control", so that the host can
# tell this kernel prints warnings (scripts/splat.sh).
send_logs() {
	dmesg >/tmp/dmesg
	send dmesg /tmp/dmesg
	insmod /files/warn_control.ko || return 1
	dmesg >/tmp/dmesg-control
	send dmesg-control /tmp/dmesg-control
}
