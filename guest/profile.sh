#!/bin/sh
# Guest side of bench/profile.sh: load /files/MODULE.ko (the name in
# /files/module) RUNS times untraced, timing each insmod (time_op), then
# once more under the function_graph tracer, with set_graph_function
# holding /files/function and max_graph_depth /files/depth, and sum, per
# function the tracer shows, its calls and their microseconds (graph_sums):
# lines "profile FUNCTION CALLS US" in the file "profile" sent to the host,
# "insmod RUN US" lines in "insmod". Under qemu -icount a microsecond is
# a thousand guest instructions.
# shellcheck source=guest/lib.sh
. /lib.sh
T=$TRACING
MOD=$(cat /files/module)
RUNS=$(cat /files/runs)

: >/tmp/insmod
r=1
while [ "$r" -le "$RUNS" ]; do
	t=$(time_op insmod "/files/$MOD.ko") || { echo "insmod $MOD failed"; exit 1; }
	echo "insmod $r $t" >>/tmp/insmod
	echo "profile: insmod $r: $t us"
	rmmod "$MOD" || exit 1
	r=$((r + 1))
done

# The graph of a load of the biggest module has millions of lines.
echo 262144 >"$T/buffer_size_kb" || exit 1
cat /files/function >"$T/set_graph_function" || { echo "no function $(cat /files/function) to graph"; exit 1; }
cat /files/depth >"$T/max_graph_depth" || exit 1
echo function_graph >"$T/current_tracer" || exit 1
echo >"$T/trace"
insmod "/files/$MOD.ko" || { echo "insmod $MOD under function_graph failed"; exit 1; }
echo 0 >"$T/tracing_on"
graph_sums "$T/trace" >/tmp/profile
grep -q "^profile $(cat /files/function) 1 " /tmp/profile || {
	echo "the graph has no call of $(cat /files/function) (buffer overrun?):"
	grep -F "$(cat /files/function)" /tmp/profile "$T/trace" | head -n 5
	head -n 20 "$T/trace"
	exit 1
}
echo nop >"$T/current_tracer"
echo 1 >"$T/tracing_on"
rmmod "$MOD" || exit 1
send insmod /tmp/insmod
send profile /tmp/profile
exit 0
