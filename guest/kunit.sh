#!/bin/sh
# Guest side of the module run of a KUnit suite: loading the one module
# in /files (ftrace_locs_test.ko, module_kallsyms_test.ko) runs its cases
# (KUnit runs a module's suites when it is loaded) with the module's own
# records, symtabs and init text present.
# Send the kernel log of the load, which has the KTAP output, to the host;
# then unload the module and load it again.
# shellcheck source=guest/lib.sh
. /lib.sh

# The boot log has a KTAP header of its own (no built-in suite): keep it
# apart from the module's.
dmesg -c >/tmp/boot
set -- /files/*.ko
if [ $# -ne 1 ] || [ ! -e "$1" ]; then
	echo "not one module in /files: $*"
	exit 1
fi
ko=$1
name=${ko##*/}
name=${name%.ko}
insmod "$ko" || exit 1
dmesg >/tmp/dmesg
rmmod "$name" || exit 1
insmod "$ko" || exit 1
rmmod "$name" || exit 1
dmesg >/tmp/dmesg-all
send boot /tmp/boot
send dmesg /tmp/dmesg
send dmesg-all /tmp/dmesg-all
exit 0
