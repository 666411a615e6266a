#!/bin/sh
# Guest side of the module run of the KUnit suite: loading
# /files/ftrace_locs_test.ko runs its cases (KUnit runs a module's suites
# when it is loaded) with the module's own records and init text present.
# Send the kernel log of the load, which has the KTAP output, to the host;
# then unload the module and load it again.
# shellcheck source=guest/lib.sh
. /lib.sh

# The boot log has a KTAP header of its own (no built-in suite): keep it
# apart from the module's.
dmesg -c >/tmp/boot
insmod /files/ftrace_locs_test.ko || exit 1
dmesg >/tmp/dmesg
rmmod ftrace_locs_test || exit 1
insmod /files/ftrace_locs_test.ko || exit 1
rmmod ftrace_locs_test || exit 1
dmesg >/tmp/dmesg-all
send boot /tmp/boot
send dmesg /tmp/dmesg
send dmesg-all /tmp/dmesg-all
exit 0
