#!/bin/sh
# Guest side of the kvm.ko check: kvm.ko is a real module whose virt/kvm
# weak functions are overridden by arch/x86/kvm. With its dependency
# loaded, snapshot available_filter_functions before loading kvm.ko, with
# it loaded and after unloading it; load it three times, timing insmod and
# ftrace_module_enable() (guest/lib.sh). The modules are staged in
# /files/modules. Send it all, and dmesg.
# shellcheck source=guest/lib.sh
. /lib.sh
AFF=$TRACING/available_filter_functions

use_staged_modules
ko=$(find /lib/modules/ -name kvm.ko)
[ -n "$ko" ] || exit 1
modprobe irqbypass || exit 1
setup_probes || exit 1
cat "$AFF" >/tmp/before
for i in 1 2 3; do
	time_insmod "$ko" >>/tmp/times || exit 1
	[ "$i" -gt 1 ] || cat "$AFF" >/tmp/loaded
	rmmod kvm || exit 1
done
cat "$AFF" >/tmp/unloaded
dmesg >/tmp/dmesg
for f in before loaded unloaded times dmesg; do
	send "$f" "/tmp/$f"
done
exit 0
