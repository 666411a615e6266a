# shellcheck shell=bash
# The second series (patches/BASE/kallsyms-index, on top of the first):
# git am, checkpatch, its per-patch builds, its end-to-end kernel, its
# KUnit suite built in and as a module.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# lookup_dir: the second series of $TEST_BASE.
lookup_dir() {
	echo "$TOP/patches/$TEST_BASE/$LOOKUP_SERIES"
}

# git am of the second series on the series, in a work tree of its own
# (scripts/make-tree.sh BASE lookup), one patch at a time, each named.
t_lookup_git_am() {
	local tree dir n
	dir=$(lookup_dir)
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" lookup)
	n=$(git -C "$tree" rev-list --count series..lookup)
	[ "$n" -eq "$(grep -c . "$dir/series")" ] ||
		{ echo "branch lookup has $n commits on the series, $dir/series lists $(grep -c . "$dir/series")"; return 1; }
	git -C "$tree" log --reverse --format='  applied: %s' series..lookup
	echo "  $n patches of ${dir#"$TOP/"} applied with git am on the series of $TEST_BASE"
}

# checkpatch --strict of the base's own checkpatch, with the checks'
# options of the first series (checkpatch_all, tests/checks/series.sh),
# and each new file maintained.
t_lookup_checkpatch() {
	local tree dir
	dir=$(lookup_dir)
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" lookup)
	git -C "$tree" checkout -q --detach lookup
	(cd "$tree" && checkpatch_all "$dir" ./scripts/checkpatch.pl && new_files_maintained "$dir")
	echo "  with scripts/checkpatch.pl --strict --no-signoff --codespell of the $TEST_BASE tree"
}

# The same with 6.12's checkpatch (the Assisted-by: form of stable trees).
t_lookup_checkpatch_612() {
	local cdir dir
	dir=$(lookup_dir)
	cdir=$(checkpatch_612_dir)
	(cd "$cdir" && checkpatch_all "$dir" "$cdir/scripts/checkpatch.pl" --no-tree --ignore CAMELCASE)
	echo "  with the checkpatch.pl of $(base_info 6.12 pkg) $(base_info 6.12 version) (--no-tree, so CAMELCASE ignored)"
}

# Each patch of the second series builds with no warning: the
# objects of the files it changes and of those that include the headers
# it changes (scripts/build-objs.sh), KUnit and the suite on.
t_lookup_bisect() {
	local tree obj c out line
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" lookup)
	obj=$CACHE/build/$TEST_BASE/lookup-bisect
	for c in $(git -C "$tree" rev-list --reverse series..lookup); do
		line=$(git -C "$tree" log -1 --format='%h %s' "$c" | cut -c1-60)
		out=$("$TOP/scripts/build-objs.sh" "$tree" "$c" "$obj" x86_64 tinyconfig \
			"$TOP/config/e2e-series.config" "$TOP/config/e2e-lookup.config" "$FRAG")
		[[ $out == *", 0 warnings,"* ]] ||
			{ grep 'warning:' "$obj/build.log"; echo "warnings at $c"; return 1; }
		echo "  $line: ${out#*: }"
	done
}

# The end-to-end kernel of the second series: the patched one's config
# and its KUnit suite as a module (config/e2e-lookup.config); the
# benchmark's "lookup" kernel.
t_lookup_e2e_build() {
	local tree obj=$CACHE/build/$TEST_BASE/e2e-lookup
	tree=$(kind_tree "$TEST_BASE" lookup)
	"$TOP/scripts/build-kernel.sh" "$tree" lookup "$obj" "$FRAG" "$TOP/config/e2e.config" \
		"$TOP/config/e2e-series.config" "$TOP/config/e2e-lookup.config"
	echo "  lookup kernel: $(find "$obj" -name '*.ko' -printf '%f\n' | sort | paste -sd' ')"
}

# The functions of the index build that the second load of the suite
# runs under the function_graph tracer (scripts/kunit-guest.sh).
INDEX_BUILD_FUNCS=(index_kallsyms index_collect_all mod_kallsyms_index_init)

# init_index_split GRAPH: the load graphed in GRAPH (graph_sums lines of
# INDEX_BUILD_FUNCS) walked one symtab whole (index_collect_all(): the
# core symtab) and indexed of the init symtab only what the core symtab
# lacks (mod_kallsyms_index_init()), rather than walking the init symtab
# too, which gives the same answers and so shows in no lookup.
init_index_split() {
	local build walked split
	build=$(awk '$2 == "index_kallsyms" { print $3 }' "$1")
	walked=$(awk '$2 == "index_collect_all" { print $3 }' "$1")
	split=$(awk '$2 == "mod_kallsyms_index_init" { print $3 }' "$1")
	echo "index build: ${build:-0} index_kallsyms(), ${walked:-0} index_collect_all(), ${split:-0} mod_kallsyms_index_init()"
	[ "${build:-0}" = 1 ] && [ "${walked:-0}" = 1 ] && [ "${split:-0}" = 1 ]
}

# The suite as a module in the guest, loaded twice (passed_twice,
# tests/checks/kunit.sh): its own-symtab case
# compares the index with the scan at every address of the module's init
# and core memory. The second load runs under the function_graph tracer
# on the index build: the init symtab's index must have been split
# (init_index_split).
t_lookup_kunit_module() {
	local tree obj=$CACHE/build/$TEST_BASE/e2e-lookup out=$CACHE/test-kunit/lookup-module g rc=0 line
	tree=$(kind_tree "$TEST_BASE" lookup)
	"$TOP/scripts/kunit-guest.sh" "$tree" "$obj" "$out" module_kallsyms_kunit "${INDEX_BUILD_FUNCS[@]}" || rc=$?
	[ -s "$out/cases" ] || return 1
	export_cases "kunit module: " "$out/cases"
	g=$out/guest/files
	kunit_info "$g/dmesg" module_kallsyms
	echo "  insmod module_kallsyms_kunit.ko, kunit.py parse: $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	[ $rc -eq 0 ] || return $rc
	if grep -q '^SKIP' "$out/cases"; then
		echo "a case was skipped in the module"
		return 1
	fi
	[ -s "$g/graph" ] || { echo "no graph of the second load"; return 1; }
	if ! line=$(init_index_split "$g/graph"); then
		echo "second load: $line: the init symtab was walked whole"
		return 1
	fi
	echo "  second load: $line"
	passed_twice "$g" module_kallsyms
}

# Stock's lookups against the second series', byte for byte, in the guest:
# the first series' kernel (patched, whose module lookups are stock's
# scans) and the lookup kernel boot with the benchmark's guest script
# (bench/run.sh --kernels "patched lookup", one load each) and load what
# the argument names: "generated", a generated module of 2,000
# functions (quick tier), or "kvm", kvm.ko (full tier: its sprint on the
# first series' kernel, a scan of its symtab for each of its 1.2 MB, is
# most of this check's cost); their lines in the four
# listings, set_ftrace_filter, set_ftrace_notrace and set_graph_function
# after each kind of write, their /proc/kallsyms lines in order and
# sprint_symbol() of every byte of their core memory must be the same.
t_lookup_same_as_patched() {
	local which=$1 out=$CACHE/test-lookup-compare-$1 log=$CACHE/test-lookup-compare-$1.log rc=0 mods
	case $which in
	generated) mods=(--sizes 2000 --no-kvm) ;;
	kvm) mods=(--sizes "") ;;
	*) die "t_lookup_same_as_patched: generated or kvm, not '$which'" ;;
	esac
	GUEST_PREALLOC=0 LOCKED=1 "$TOP/bench/run.sh" --base "$TEST_BASE" --kernels "patched lookup" \
		"${mods[@]}" --runs 1 --out "$out" >"$log" 2>&1 || rc=$?
	grep -E '^(decision|list|lookup) check' "$log" | sed 's/^/  /'
	[ $rc -eq 0 ] || { tail -n 20 "$log"; return $rc; }
	echo "  $(grep -c ' identical to patched ' "$out/list-check.txt") comparisons, lookup identical to patched in each"
}

# The suite built in, run by kunit.py (x86_64 in qemu,
# config/kunit/module_kallsyms.kunitconfig).
t_lookup_kunit_builtin() {
	local tree out=$CACHE/test-kunit/lookup-builtin build=$CACHE/build/$TEST_BASE/kunit-lookup rc=0
	tree=$(kind_tree "$TEST_BASE" lookup)
	rm -rf "$out"
	"$TOP/scripts/kunit-run.sh" "$tree" lookup "$build" "$out" x86_64 \
		"$TOP/config/kunit/module_kallsyms.kunitconfig" || rc=$?
	[ -s "$out/results.json" ] || return 1
	"$TOP/scripts/kunit-cases.py" "$out/results.json" >"$out/cases"
	export_cases "kunit.py x86_64: " "$out/cases"
	kunit_info "$build/test.log" module_kallsyms
	echo "  kunit.py run --arch=x86_64: $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	return $rc
}

# A matrix cell of the second series (NAME ARCH BASECONFIG FRAGMENT...,
# as t_matrix): its objects built with W=1 and no warning at ref lookup,
# the suite built in where MODULES and KALLSYMS are on, and the index
# compiled in exactly there (index_kallsyms() in kernel/module/kallsyms.o).
t_lookup_matrix() {
	local name=$1 arch=$2 baseconfig=$3 tree obj want=no have=no
	shift 3
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" lookup)
	obj=$CACHE/build/$TEST_BASE/lookup-matrix-$name
	W=1 "$TOP/scripts/build-objs.sh" "$tree" lookup "$obj" "$arch" "$baseconfig" \
		"$TOP/config/matrix/kunit.config" "$TOP/config/matrix/lookup.config" "$@" | sed 's/^/  /'
	if grep -qx 'CONFIG_MODULES=y' "$obj/.config" && grep -qx 'CONFIG_KALLSYMS=y' "$obj/.config"; then
		want=yes
		[ -e "$obj/lib/tests/module_kallsyms_kunit.o" ] ||
			{ echo "MODULES and KALLSYMS on, but the suite was not built"; return 1; }
		echo "  KUnit suite module_kallsyms_kunit.c built in"
	fi
	[ ! -e "$obj/kernel/module/kallsyms.o" ] ||
		! nm "$obj/kernel/module/kallsyms.o" | grep ' T index_kallsyms$' >/dev/null || have=yes
	[ "$have" = "$want" ] || { echo "by-address index compiled in: $have, expected $want"; return 1; }
	echo "  by-address index compiled in: $have, as expected"
}
