#!/bin/sh
# Guest side of the weak-function test: snapshot available_filter_functions
# before loading /files/modweak.ko, after loading it, after unloading it and
# after loading it again; with the module loaded, turn the function tracer
# on and snapshot enabled_functions, which lists exactly the records that
# are not FTRACE_FL_DISABLED. Send all of it, and dmesg, to the host.
# Last, once that dmesg is taken, load /files/warn_control.ko, whose init
# warns, and send the log again: it shows the kernel prints warnings.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions

cat "$AFF" >/tmp/before
insmod /files/modweak.ko || exit 1
cat "$AFF" >/tmp/loaded
echo function >"$TRACING/current_tracer" || exit 1
cat "$TRACING/enabled_functions" >/tmp/enabled
echo nop >"$TRACING/current_tracer" || exit 1
rmmod modweak || exit 1
cat "$AFF" >/tmp/unloaded
insmod /files/modweak.ko || exit 1
cat "$AFF" >/tmp/reloaded
rmmod modweak || exit 1
dmesg >/tmp/dmesg
insmod /files/warn_control.ko || exit 1
dmesg >/tmp/dmesg-control
for f in before loaded enabled unloaded reloaded dmesg dmesg-control; do
	send "$f" "/tmp/$f"
done
exit 0
