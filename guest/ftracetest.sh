#!/bin/sh
# Guest side of the selftests: run ftracetest (shipped as /files/ftrace) on
# the tests listed in /files/ftracetest.list, in that order, with the
# modules staged in /files/modules as /lib/modules. Send its output, the
# logs of the tests that did not pass, and dmesg to the host.
# shellcheck source=guest/lib.sh
. /lib.sh

use_staged_modules
mkdir -p /etc
# test_ownership.tc and mount_options.tc look for a second user and group.
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group

cd /files/ftrace || exit 1
# shellcheck disable=SC2046 # one test path per word
./ftracetest -l /tmp/ftlogs $(cat /files/ftracetest.list) >/tmp/ftracetest.out 2>&1
echo "ftracetest rc=$?" >>/tmp/ftracetest.out
dmesg >/tmp/dmesg
send ftracetest.out /tmp/ftracetest.out
send dmesg /tmp/dmesg
# ftracetest keeps the log of each test that did not pass.
for f in /tmp/ftlogs/*-log.*; do
	[ -e "$f" ] || continue
	send "log-$(basename "$f")" "$f"
done
exit 0
