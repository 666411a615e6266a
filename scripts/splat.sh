# shellcheck shell=bash
# The one detector of kernel problems in a guest's console or dmesg, for
# every check that judges a kernel log. Source it; do not run it.
#
# WARN_ON and lockdep reports start with "WARNING:"; KASAN reports, soft
# lockups and BUG_ON with "BUG:"; oopses and panics, RCU stalls, hung
# tasks and lockdep switching itself off have their own words. A kernel
# built without CONFIG_BUG prints no WARNING: line at all, so every judged
# kernel has it on, and each kind proves it with a control (a module whose
# init warns).
SPLAT_RE='WARNING:|BUG:|Oops|Kernel panic|detected stalls|self-detected stall|blocked for more than|lockdep is turned off'

# splats FILE...: the lines of the logs that report a problem, timestamps
# stripped, each once; nothing when there is none. Missing files are skipped.
splats() {
	local f
	for f in "$@"; do
		[ -r "$f" ] && cat "$f"
	done | tr -d '\r' | grep -aE "$SPLAT_RE" | sed 's/^\[ *[0-9.]*\] //' | sort -u || true
}

# kernel_warned FILE...: print the splats of the logs; true if there is any.
kernel_warned() {
	local s
	s=$(splats "$@")
	[ -n "$s" ] || return 1
	printf '%s\n' "$s"
}

# splat_in_boot CONSOLE: " during boot" when a splat comes before the
# guest's test script started (guest/init prints GUEST-START).
# awk reads the file itself: it may stop early, which would cut a writer
# before it off with SIGPIPE and fail the caller under pipefail.
splat_in_boot() {
	awk -v re="$SPLAT_RE" '{ gsub(/\r/, "") } /GUEST-START/ { exit } $0 ~ re { found = 1; exit }
		END { if (found) print " during boot, before the test" }' "$1"
}

# boot_verdict DIR: "pass" when the guest run in DIR (scripts/run-guest.sh:
# DIR/console.log, DIR/files/dmesg) has no splat and its test ended with
# "GUEST-DONE rc=0" (the last GUEST-DONE, should there be more than one);
# otherwise one line that says what went wrong.
boot_verdict() {
	local out=$1 s
	s=$(splats "$out/console.log" "$out/files/dmesg")
	if [ -n "$s" ]; then
		echo "splat$(splat_in_boot "$out/console.log"): $(head -n 3 <<<"$s" | paste -sd';')"
	elif ! grep -aqs 'GUEST-DONE rc=' "$out/console.log"; then
		echo "no end (panic or hang): $(tail -n 2 "$out/console.log" 2>/dev/null | tr -d '\r' | paste -sd' ')"
	elif [ "$(grep -ao 'GUEST-DONE rc=[0-9]*' "$out/console.log" | tail -n 1)" != 'GUEST-DONE rc=0' ]; then
		grep -a -m1 -E '(^|: )FAIL' "$out/console.log" | tr -d '\r' || echo 'guest check failed'
	else
		echo pass
	fi
}

# split_boot IN OUT NAMES: a guest run of several scenarios in turn (IN as
# scripts/run-guest.sh leaves it; guest/debug.sh run_set) made into one
# directory OUT/NAME per scenario of the comma-separated NAMES, as if each
# had been a boot of its own, for boot_verdict. A scenario's console runs
# from its "debug: scenario NAME on" line to the next one (the boot before
# the first scenario belongs to the first, and the others begin with a
# GUEST-START line that says so, for splat_in_boot); the guest's "scenario NAME
# ended rc=N" becomes that console's "GUEST-DONE rc=N", and the run's own
# GUEST-DONE, which says nothing of the scenarios, is renamed. Its files
# are those the guest sent as NAME.FILE.
split_boot() {
	local in=$1 out=$2 names=$3 s f
	for s in ${names//,/ }; do
		rm -rf "${out:?}/$s"
		mkdir -p "$out/$s/files"
	done
	[ -r "$in/console.log" ] || return 0
	tr -d '\r' <"$in/console.log" | awk -v dir="$out" -v first="${names%%,*}" '
		BEGIN { f = dir "/" first "/console.log" }
		/^debug: scenario [a-z0-9_-]+ on / && $3 != first {
			close(f); f = dir "/" $3 "/console.log"
			print "GUEST-START (of the whole run, in " first "/console.log)" >>f
		}
		/GUEST-DONE rc=/ { sub(/GUEST-DONE/, "whole run done,") }
		{ print >>f }
		/^debug: scenario [a-z0-9_-]+ ended rc=[0-9]+$/ { sub(/.*rc=/, ""); print "GUEST-DONE rc=" $0 >>f }' ||
		return 1
	for s in ${names//,/ }; do
		[ -e "$out/$s/console.log" ] ||
			echo "split_boot: the run never reached scenario $s" >"$out/$s/console.log"
	done
	for f in "$in/files"/*; do
		[ -e "$f" ] || continue
		s=${f##*/}
		s=${s%%.*}
		[ -d "$out/$s/files" ] || continue
		cp "$f" "$out/$s/files/${f##*/"$s".}"
	done
}

# kmsan_reports FILE: one line per KMSAN report in the log: its "BUG:
# KMSAN:" line, then " <- local variable NAME of FRAME" when KMSAN names
# the local variable the value came from (an inlined function's local
# gets a suffix: offset.i), and " <- FRAME" for the first print_rec() or
# lookup_ip() frame of its stack when there is one. Nothing when there is
# no report.
kmsan_reports() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //' | awk '
		/^BUG: KMSAN:/ { if (r != "") print r; r = $0; f = 0; v = ""; next }
		r == "" { next }
		/^Local variable .* created at:/ { v = $3; next }
		v != "" && NF { r = r " <- local variable " v " of " $1; v = ""; next }
		!f && /(print_rec|lookup_ip)\+/ { f = 1; r = r " <- " $1 }
		END { if (r != "") print r }'
}
