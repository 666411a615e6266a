#!/bin/sh
# Guest side of the KMSAN check: load /files/modweak.ko, whose first call
# site has no symbol before it, read available_filter_functions (print_rec()
# names every record) and filter on the module (match_records() and
# lookup_ip()), then send the list and the kernel log to the host.
# shellcheck source=guest/lib.sh
. /lib.sh

insmod /files/modweak.ko || exit 1
cat "$TRACING/available_filter_functions" >/tmp/loaded
echo ':mod:modweak' >"$TRACING/set_ftrace_filter" || exit 1
echo >"$TRACING/set_ftrace_filter" || exit 1
dmesg >/tmp/dmesg
send loaded /tmp/loaded
send dmesg /tmp/dmesg
exit 0
