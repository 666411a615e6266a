#!/bin/sh
# Guest side of the x86 odd-callback check (fixes/7.3): load
# /files/odd_callback.ko, whose ftrace_ops callback sits at an odd address
# and is filtered on odd_callback_target(); run the target once through the
# trampoline as register_ftrace_function() made it; then write
# set_ftrace_pid, which patches the call in that trampoline again; then run
# the target a second time. Each step's callback count goes to the host as
# it is taken, so a crash at the second run leaves the first count behind.
# shellcheck source=guest/lib.sh
. /lib.sh
P=/sys/module/odd_callback/parameters

step() {
	cat "$P/calls" >"/tmp/calls-$1" || exit 1
	send "calls-$1" "/tmp/calls-$1"
}

insmod /files/odd_callback.ko || exit 1
dmesg | grep 'odd_callback: callback at' >/tmp/address
send address /tmp/address
echo 1 >"$P/call" || exit 1
step first
echo $$ >"$TRACING/set_ftrace_pid" || exit 1
echo >"$TRACING/set_ftrace_pid" || exit 1
echo 1 >"$P/call" || exit 1
step second
rmmod odd_callback || exit 1
dmesg >/tmp/dmesg
send dmesg /tmp/dmesg
exit 0
