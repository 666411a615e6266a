#!/bin/sh
# Guest side of the weak-function test: snapshot available_filter_functions
# before loading /files/modweak.ko, after loading it, after unloading it and
# after loading it again, and send all four to the host.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions

cat "$AFF" >/tmp/before
insmod /files/modweak.ko || exit 1
cat "$AFF" >/tmp/loaded
grep -c . "$TRACING/enabled_functions" >/tmp/enabled || true
rmmod modweak || exit 1
cat "$AFF" >/tmp/unloaded
insmod /files/modweak.ko || exit 1
cat "$AFF" >/tmp/reloaded
rmmod modweak || exit 1
for f in before loaded unloaded reloaded; do
	send "$f" "/tmp/$f"
done
exit 0
