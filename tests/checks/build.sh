# shellcheck shell=bash
# Builds: each patch on its own, the warning counts, the build matrix,
# and the kernels of the end-to-end tests.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

FRAG=$TOP/config/x86_64-bench.config

# Every patch, applied in order, builds with no warning at all: the
# objects of the C files the series has changed so far and of those that
# include the headers it changes (scripts/build-objs.sh), with KUnit on so
# that the helpers the KUnit patch makes visible are built that way. A
# patch that changes only tools/testing/ or Documentation/ changes nothing
# the kernel build reads, and is not built again.
t_bisect_build() {
	local tree obj c out line f
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" walk)
	obj=$CACHE/build/$TEST_BASE/bisect
	for c in $(git -C "$tree" rev-list --reverse base..series); do
		line=$(git -C "$tree" log -1 --format='%h %s' "$c" | cut -c1-60)
		if [ -z "$(changed_files "$tree" "$c^" "$c" build)" ]; then
			echo "  $line: only tools/testing/ or Documentation/, nothing to build"
			continue
		fi
		out=$("$TOP/scripts/build-objs.sh" "$tree" "$c" "$obj" x86_64 tinyconfig \
			"$TOP/config/e2e-series.config" "$FRAG")
		[[ $out == *", 0 warnings,"* ]] ||
			{ grep 'warning:' "$obj/build.log"; echo "warnings at $c"; return 1; }
		# Every C file the patch changes or adds is built again (the
		# config of this check builds them all), and so is the sample
		# module once it exists.
		for f in $(changed_files "$tree" "$c^" "$c" kernel |
			sed -n 's/\.c$/.o/p'); do
			[[ " ${out%%, *} " == *" $f "* ]] || { echo "$f: changed at $c, not built"; return 1; }
		done
		if [ -e "$tree/samples/ftrace/ftrace-weak-mod.c" ] && [[ " ${out%%, *} " != *" samples/ftrace/ftrace-weak.o "* ]]; then
			echo "the sample module was not linked at $c"
			return 1
		fi
		echo "  $line: ${out#*: }"
	done
}

# No patch adds a warning in the files the series touches: W=1, sparse
# (where the tree accepts Debian's sparse) and kernel-doc -Wall, counted
# per file at the base and after each patch (scripts/hygiene.sh).
t_hygiene() {
	local tree obj c f w s k pw ps pk line new
	local -A prev=() base=()
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" walk)
	obj=$CACHE/build/$TEST_BASE/hygiene
	for c in base $(git -C "$tree" rev-list --reverse base..series); do
		line=$(git -C "$tree" log -1 --format='%h %s' "$c" | cut -c1-50)
		new=""
		while read -r f w s k; do
			if [ "$c" = base ]; then
				base[$f]="$w $s $k"
				prev[$f]="$w $s $k"
				continue
			fi
			# A file the series adds starts from no warning.
			[ -n "${prev[$f]:-}" ] || prev[$f]="0 0 0"
			read -r pw ps pk <<<"${prev[$f]}"
			[ "$w" -le "$pw" ] || new="$new $f: W=1 $pw -> $w;"
			[ "$s" = n/a ] || [ "$ps" = n/a ] || [ "$s" -le "$ps" ] || new="$new $f: sparse $ps -> $s;"
			[ "$k" -le "$pk" ] || new="$new $f: kernel-doc $pk -> $k;"
			prev[$f]="$w $s $k"
		done < <("$TOP/scripts/hygiene.sh" "$tree" "$c" "$obj")
		[ -z "$new" ] || { echo "$line: new warnings:$new"; return 1; }
		echo "  $line: no new warning"
	done
	for f in "${!prev[@]}"; do
		echo "  $f: W=1, sparse, kernel-doc -Wall: ${base[$f]:-(new file)} at base, ${prev[$f]} after the series"
	done | sort
}

# One cell of the build matrix: the objects of the series' C files (and of
# those that include the headers it changes) for an arch and config, and whether the new index code is compiled in
# (it must be exactly where FTRACE_MCOUNT_MAX_OFFSET is defined and module
# support is on).
t_matrix() {
	local name=$1 arch=$2 baseconfig=$3 expect=$4 tree obj have
	shift 4
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	obj=$CACHE/build/$TEST_BASE/matrix-$name
	W=1 "$TOP/scripts/build-objs.sh" "$tree" series "$obj" "$arch" "$baseconfig" \
		"$TOP/config/matrix/kunit.config" "$@" | sed 's/^/  /'
	git -C "$tree" checkout -q series
	# The KUnit suite builds wherever its dependency, DYNAMIC_FTRACE, is on.
	if grep -qx 'CONFIG_DYNAMIC_FTRACE=y' "$obj/.config"; then
		[ -n "$(find "$obj/lib" -name ftrace_locs_kunit.o)" ] ||
			{ echo "KUnit suite not built with DYNAMIC_FTRACE=y"; return 1; }
		echo "  KUnit suite ftrace_locs_kunit.c built in"
	else
		echo "  KUnit suite not built: no DYNAMIC_FTRACE"
	fi
	# ftrace.c is built exactly where the function tracer is on.
	if grep -qx 'CONFIG_FUNCTION_TRACER=y' "$obj/.config" && [ ! -e "$obj/kernel/trace/ftrace.o" ]; then
		echo "FUNCTION_TRACER=y, but kernel/trace/ftrace.o was not built"
		return 1
	fi
	have=no
	if [ -e "$obj/kernel/trace/ftrace.o" ] &&
		[ "$(nm "$obj/kernel/trace/ftrace.o" | grep -c ' ftrace_mod_syms_add$')" -gt 0 ]; then
		have=yes
	fi
	[ "$have" = "$expect" ] || { echo "symbol index compiled in: $have, expected $expect"; return 1; }
	echo "  symbol index compiled in: $have, as expected"
}

# A matrix cell that links: vmlinux and the modules of tinyconfig and the
# fragments for ARCH, the KUnit suite among the modules, so that modpost
# resolves the suite's undefined symbols against vmlinux's exports (the
# object-only cells above never link it).
t_matrix_modules() {
	local name=$1 arch=$2 tree obj ko
	shift 2
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	obj=$CACHE/build/$TEST_BASE/matrix-$name
	"$TOP/scripts/build-kernel.sh" --arch "$arch" "$tree" series "$obj" "$@"
	# lib/tests/ on mainline, lib/ on 6.12
	ko=$(cd "$obj" && find lib -name 'ftrace_locs*.ko')
	[ -n "$ko" ] || { echo "the KUnit suite was not linked as a module"; return 1; }
	# Without vmlinux's symbols modpost skips the check of undefined ones.
	if grep -i 'symbol info of vmlinux is missing' "$obj/build.log"; then
		return 1
	fi
	grep -q 'MODPOST Module.symvers' "$obj/build.log" ||
		{ echo "modpost did not run (log: $obj/build.log)"; return 1; }
	echo "  $ko linked; modpost resolved its undefined symbols against vmlinux ($(grep -c . "$obj/Module.symvers") exports)"
}

# The symbol filter is inlined in the patched kernels the quick tier
# built: the e2e kernel and the debug kernel, where gcc 12 kept it out of
# line (KASAN makes it bigger) before patch 2 made it __always_inline: a
# call per symbol in each lookup of a module address
# (tests/mutants/build/ puts that back).
t_lookup_inline() {
	lookup_inline "$CACHE/build/$TEST_BASE/e2e-patched/vmlinux" \
		"$CACHE/build/$TEST_BASE/debug-patched-$(debug_model "$("$TOP/scripts/make-tree.sh" "$TEST_BASE")")/vmlinux"
}

# The kernels of the end-to-end tests, stock and patched, with the same
# options (config/x86_64-bench.config and config/e2e.config: -O2,
# CONFIG_BUG, kvm.ko, the trace-printk sample, KUnit); the patched one also
# has what the series adds, as modules (config/e2e-series.config). Every
# boot of the quick tier but the debug one boots the patched kernel; the
# stock one is in the full tier, and so is the fix kernel (KIND fix: the
# base with the stock x86 fix of fixes/MAINLINE only, the stock config;
# tests/checks/fix.sh).
# As distributions build them, functions are aligned: the tracer callbacks
# (function_trace_call(), ftrace_ops_list_func()) sit at even addresses,
# so the jmp bug of fixes/7.3 cannot strike them (the check shows where
# they are); tests/checks/fix.sh shows it with a test module's callback.
t_e2e_build() {
	local kind=$1 tree ref obj=$CACHE/build/$TEST_BASE/e2e-$1 frags=("$FRAG" "$TOP/config/e2e.config") f a
	tree=$(kind_tree "$TEST_BASE" "$kind")
	ref=$(kind_ref "$kind")
	case $kind in
	stock | fix) ;;
	*) frags+=("$TOP/config/e2e-series.config") ;;
	esac
	"$TOP/scripts/build-kernel.sh" "$tree" "$ref" "$obj" "${frags[@]}"
	echo "  $kind kernel ($ref): $(find "$obj" -name '*.ko' -printf '%f\n' | sort | paste -sd' ')"
	for f in function_trace_call ftrace_ops_list_func; do
		a=$(awk -v f="$f" '$3 == f { print $1 }' "$obj/System.map")
		[ -n "$a" ] || { echo "no $f in System.map"; return 1; }
		[ $((16#$a % 16)) -eq 0 ] || { echo "$f at 0x$a: not 16-byte aligned"; return 1; }
		echo "  $f at 0x$a, 16-byte aligned"
	done
}
