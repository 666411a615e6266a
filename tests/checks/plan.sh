# shellcheck shell=bash
# The list of checks, in the order they run: each with its id, its tier,
# the checks it needs and its title (def, tests/run.sh). Ids are
# "BASE:topic:name"; "any:" checks do not depend on a base.
#
# The quick tier (the README's test command, CI) has, for the mainline
# base, every check that needs only the patched kernels: the builds (per
# patch, the matrix, the patched e2e kernel), the weak-function module
# against the lists its generator expects, the WARN control, the KUnit
# suite as a module, the series' ftracetest tests, the guest failure
# reports and the debug quick subset; of the second series, git am,
# checkpatch, its e2e kernel, its KUnit suite as a module and its guest
# lookups against the first series' (stock's scans) for a generated
# module (kvm.ko's in the full tier); and for the stable bases what a
# backport needs to stay true to its series: the source, git am on a
# fresh tree, checkpatch and the benchmark variants. bench/real.sh's
# configs are checked with it, in the full tier. The full tier adds
# the rest, so that every base gets every check: among them the stock e2e
# kernel and every comparison with it (the weak module's lines and
# decisions, ftracetest func_mod_trace.tc and 00basic, kvm.ko's list;
# together about 12 minutes cold: the stock kernel is a whole build of
# its own, since the series' Kconfig options and include/linux/module.h
# leave ccache nothing to share), the two kunit.py runs, the W=1/sparse/
# kernel-doc counts and the documentation build.
#
# Kernels of the quick tier (each built once, out of tree, in
# $CACHE/build/BASE/): e2e-patched (every boot but the debug one),
# e2e-lookup (the second series' boots; the benchmark's lookup kernel;
# started in the background, under SCHED_IDLE, as soon as the second
# series is applied: early, tests/run.sh),
# debug-patched-MODEL (the debug quick subset), the objects of bisect (one
# build per patch) and of six matrix cells. The full tier adds e2e-stock,
# matrix-ppc64le-modules (a whole ppc64le tinyconfig kernel and its
# modules, for modpost: 537 s cold on 7.3, so not in the quick tier), for
# the mainline base kmsan-stock and kmsan-patched (clang-19), and for
# each base of fixes/MAINLINE/bases e2e-fix (the base with the x86 fix
# only, the stock e2e config).

# plan_base BASE TIER: every check of one base; TIER is the tier of the
# checks the quick tier does not keep for that base.
plan_base() {
	local b=$1 t=$2 m="$TOP/config/matrix"
	def "$b:fetch:source" quick "" "fetch the base source" t_fetch_base
	def "$b:series:git-am" quick "$b:fetch:source" "git am of the series on a fresh tree" t_git_am_fresh
	def "$b:series:variant-applies" quick "$b:series:git-am" "the benchmark variants apply on the series" t_variant_applies
	def "$b:bench:real-config" full "$b:series:git-am" "bench/real.sh's configs apply, the real and the --debug one (merge_config, olddefconfig)" t_real_config
	def "$b:series:checkpatch" quick "$b:series:git-am" "checkpatch --strict (its own checkpatch.pl)" t_checkpatch_73
	plan_lookup_am "$b"
	def "$b:build:bisect" "$t" "$b:series:git-am" "each patch builds (the objects of the files it changes)" t_bisect_build
	def "$b:build:hygiene" full "$b:series:git-am" "no new W=1, sparse or kernel-doc warning" t_hygiene
	def "$b:matrix:x86_64-noibt" "$t" "$b:series:git-am" "matrix: x86_64 IBT off (MAX_OFFSET 0)" \
		t_matrix x86_64-noibt x86_64 tinyconfig yes "$FRAG" "$m/x86_64-noibt.config"
	def "$b:matrix:x86_64-nomodules" "$t" "$b:series:git-am" "matrix: x86_64 CONFIG_MODULES=n" \
		t_matrix x86_64-nomodules x86_64 tinyconfig no "$FRAG" "$m/x86_64-nomodules.config"
	def "$b:matrix:x86_64-nofunctrace" "$t" "$b:series:git-am" "matrix: x86_64 CONFIG_FUNCTION_TRACER=n" \
		t_matrix x86_64-nofunctrace x86_64 tinyconfig no "$FRAG" "$m/x86_64-nofunctrace.config"
	def "$b:matrix:arm64" "$t" "$b:series:git-am" "matrix: arm64 (no MAX_OFFSET)" \
		t_matrix arm64 arm64 defconfig no "$m/arm64.config"
	def "$b:matrix:x86_64-clang" "$t" "$b:series:git-am" "matrix: x86_64 clang-19 (LLVM=-19)" \
		t_matrix x86_64-clang x86_64-llvm tinyconfig yes "$FRAG" "$m/x86_64-clang.config"
	def "$b:matrix:ppc64le" "$t" "$b:series:git-am" "matrix: powerpc64le (MAX_OFFSET 16)" \
		t_matrix ppc64le powerpc ppc64le_defconfig yes "$m/ppc64le.config"
	def "$b:matrix:ppc64le-modules" full "$b:series:git-am" "matrix: powerpc64le, the KUnit suite as a module, modpost" \
		t_matrix_modules ppc64le-modules powerpc "$m/ppc64le-modules.config"
	def "$b:build:e2e-stock" full "$b:series:git-am" "end-to-end kernel, stock" t_e2e_build stock
	def "$b:build:e2e-patched" "$t" "$b:series:git-am" "end-to-end kernel, patched" t_e2e_build patched
	def "$b:weak:build" "$t" "$b:build:e2e-patched" "weak module and WARN control: build" t_weak_module_build
	def "$b:weak:boot-stock" full "$b:weak:build $b:build:e2e-stock" "weak module: boot stock" t_weak_boot stock
	def "$b:weak:boot-patched" "$t" "$b:weak:build" "weak module: boot patched" t_weak_boot patched
	def "$b:warn:stock" full "$b:weak:boot-stock" "a WARN is seen on the stock e2e kernel" t_warn_visible stock
	def "$b:warn:patched" "$t" "$b:weak:boot-patched" "a WARN is seen on the patched e2e kernel" t_warn_visible patched
	def "$b:weak:list" "$t" "$b:weak:boot-patched" "weak module: exact list on patched" t_weak_list
	def "$b:weak:vs-stock" full "$b:weak:boot-stock $b:weak:boot-patched" "weak module: patched identical to stock" t_weak_vs_stock
	def "$b:weak:decisions-patched" "$t" "$b:weak:boot-patched" "weak module: record decisions (enabled_functions), patched" t_weak_decisions patched
	def "$b:weak:decisions-stock" full "$b:weak:boot-stock" "weak module: record decisions (enabled_functions), stock" t_weak_decisions stock
	def "$b:kunit:module" "$t" "$b:build:e2e-patched" "KUnit suite as a module in the guest" t_kunit_module
	def "$b:selftests:stage-stock" full "$b:build:e2e-stock" "stage modules and selftests, stock" t_e2e_stage stock
	def "$b:selftests:stage-patched" "$t" "$b:build:e2e-patched" "stage modules and selftests, patched" t_e2e_stage patched
	def "$b:selftests:weak-patched" "$t" "$b:selftests:stage-patched" "ftracetest: the weak-function tests, patched" t_ftracetest patched weak
	def "$b:selftests:weak-stock" full "$b:selftests:stage-stock" "ftracetest: the weak-function tests, stock" t_ftracetest stock weak
	def "$b:selftests:basic-stock" full "$b:selftests:stage-stock" "ftracetest: func_mod_trace.tc and 00basic, stock" t_ftracetest stock basic
	def "$b:selftests:basic-patched" full "$b:selftests:stage-patched" "ftracetest: func_mod_trace.tc and 00basic, patched" t_ftracetest patched basic
	def "$b:selftests:basic-vs-stock" full "$b:selftests:basic-stock $b:selftests:basic-patched" \
		"ftracetest: func_mod_trace.tc and 00basic, patched vs stock" t_ftracetest_vs_stock basic
	def "$b:kvm:list" full "$b:selftests:stage-stock $b:selftests:stage-patched" "kvm.ko: function list identical on stock and patched" t_kvm_list
	def "$b:guest:failures" "$t" "$b:build:e2e-patched" "guest: hang and boot failure reported" t_guest_failures
	def "$b:debug:quick" "$t" "$b:series:git-am" "debug kernel: reliability scenarios, quick subset, patched" t_debug_quick
	def "$b:build:lookup-inline" "$t" "$b:build:e2e-patched $b:debug:quick" "the symbol filter of find_kallsyms_symbol() is inlined (e2e and debug kernels)" t_lookup_inline
	def "$b:kunit:x86_64" full "$b:series:git-am" "KUnit built in, kunit.py run --arch=x86_64" t_kunit_builtin x86_64
	def "$b:kunit:ppc64le" full "$b:series:git-am" "KUnit built in, kunit.py run --arch=powerpcle" t_kunit_builtin powerpcle
	def "$b:docs:htmldocs" full "$b:series:git-am" "make htmldocs of Documentation/trace" t_htmldocs
}

# plan_kmsan BASE: the KMSAN proof of the stock bug the series' first
# patch fixes (full tier: two clang kernels of their own).
plan_kmsan() {
	local b=$1
	def "$b:kmsan:build-stock" full "$b:series:git-am" "KMSAN kernel (clang), stock" t_kmsan_build stock
	def "$b:kmsan:build-patched" full "$b:series:git-am" "KMSAN kernel (clang), patched" t_kmsan_build patched
	def "$b:kmsan:module" full "$b:kmsan:build-patched" "KMSAN: the weak-function module" t_kmsan_module
	def "$b:kmsan:boot-stock" full "$b:kmsan:module $b:kmsan:build-stock" "KMSAN: boot stock" t_kmsan_boot stock
	def "$b:kmsan:boot-patched" full "$b:kmsan:module" "KMSAN: boot patched" t_kmsan_boot patched
	def "$b:kmsan:stock-reports" full "$b:kmsan:boot-stock" "KMSAN: stock reports print_rec()'s uninitialized offset" t_kmsan_stock
	def "$b:kmsan:patched-clean" full "$b:kmsan:boot-patched" "KMSAN: nothing reported with the series" t_kmsan_patched
}

# plan_lookup_am BASE: git am of the second series (patches/BASE/
# kallsyms-index), right after the first series' checkpatch: its end-to-end
# kernel (a whole build: the series changes include/linux/module.h, so
# ccache has nothing of the first series' to reuse) then builds in the
# background, on the CPU time the checks in between leave idle (early,
# tests/run.sh).
plan_lookup_am() {
	local b=$1
	[ -d "$TOP/patches/$b/$LOOKUP_SERIES" ] || return 0
	def "$b:lookup:git-am" quick "$b:series:git-am" "second series: git am on the series" t_lookup_git_am
}

# plan_lookup BASE: the rest of the second series: checkpatch, its end-to-end
# kernel (started early), its KUnit suite as a module and its guest
# comparison with the first series in the quick tier; its per-patch builds,
# matrix and KUnit suite built in in the full tier.
plan_lookup() {
	local b=$1 m="$TOP/config/matrix"
	[ -d "$TOP/patches/$b/$LOOKUP_SERIES" ] || return 0
	def "$b:lookup:checkpatch" quick "$b:lookup:git-am" "second series: checkpatch --strict (its own checkpatch.pl)" t_lookup_checkpatch
	def "$b:lookup:checkpatch-6.12" quick "$b:lookup:git-am 6.12:fetch:source" \
		"second series: checkpatch --strict of 6.12" t_lookup_checkpatch_612
	def "$b:lookup:bisect" full "$b:lookup:git-am" "second series: each patch builds" t_lookup_bisect
	def "$b:lookup:matrix-x86_64" full "$b:lookup:git-am" "second series: matrix x86_64 IBT" \
		t_lookup_matrix x86_64 x86_64 tinyconfig "$FRAG"
	def "$b:lookup:matrix-x86_64-noibt" full "$b:lookup:git-am" "second series: matrix x86_64 IBT off" \
		t_lookup_matrix x86_64-noibt x86_64 tinyconfig "$FRAG" "$m/x86_64-noibt.config"
	def "$b:lookup:matrix-x86_64-nomodules" full "$b:lookup:git-am" "second series: matrix x86_64 MODULES=n" \
		t_lookup_matrix x86_64-nomodules x86_64 tinyconfig "$FRAG" "$m/x86_64-nomodules.config"
	def "$b:lookup:matrix-arm64" full "$b:lookup:git-am" "second series: matrix arm64" \
		t_lookup_matrix arm64 arm64 defconfig "$m/arm64.config"
	def "$b:lookup:matrix-x86_64-clang" full "$b:lookup:git-am" "second series: matrix x86_64 clang-19" \
		t_lookup_matrix x86_64-clang x86_64-llvm tinyconfig "$FRAG" "$m/x86_64-clang.config"
	def "$b:lookup:matrix-ppc64le" full "$b:lookup:git-am" "second series: matrix powerpc64le" \
		t_lookup_matrix ppc64le powerpc ppc64le_defconfig "$m/ppc64le.config"
	def "$b:lookup:e2e-build" quick "$b:lookup:git-am" "second series: end-to-end kernel" t_lookup_e2e_build
	early "$b:lookup:e2e-build" "$b:lookup:git-am"
	def "$b:lookup:kunit-module" quick "$b:lookup:e2e-build" "second series: KUnit suite as a module in the guest" t_lookup_kunit_module
	def "$b:lookup:same-as-patched" quick "$b:lookup:e2e-build $b:build:e2e-patched" \
		"second series: a generated module's listings, filters, /proc/kallsyms and sprint_symbol() the same as the first series' (stock's lookups)" \
		t_lookup_same_as_patched generated
	def "$b:lookup:same-as-patched-kvm" full "$b:lookup:e2e-build $b:build:e2e-patched" \
		"second series: kvm.ko's listings, filters, /proc/kallsyms and sprint_symbol() the same as the first series'" \
		t_lookup_same_as_patched kvm
	def "$b:lookup:kunit-x86_64" full "$b:lookup:git-am" "second series: KUnit built in, kunit.py run --arch=x86_64" t_lookup_kunit_builtin
}

# plan_fix BASE: the stock x86 crash of fixes/MAINLINE on the stock e2e
# kernel and its absence with the fix (full tier: one kernel more, which
# ccache mostly takes from the stock one).
plan_fix() {
	local b=$1
	def "$b:fix:checkpatch" full "$b:series:git-am" "x86 fix: checkpatch --strict (the base's checkpatch.pl)" t_fix_checkpatch
	def "$b:fix:build" full "$b:series:git-am" "end-to-end kernel, stock + the x86 fix of fixes/" t_e2e_build fix
	def "$b:fix:module" full "$b:build:e2e-stock" "x86 fix: the module with a callback at an odd address" t_fix_module
	def "$b:fix:stock-crashes" full "$b:fix:module" "x86 fix: stock oopses when the trampoline's call of an odd callback is patched again" t_fix_stock_crashes
	def "$b:fix:fixed-runs" full "$b:fix:module $b:fix:build" "x86 fix: with the fix the odd callback is called, nothing reported" t_fix_fixed_runs
}

plan() {
	local b mainline
	mainline=$(mainline_base)
	def any:repo:parsers quick "" "the parsers of guest output, on fixture logs" t_parsers
	def any:repo:parser-mutants quick any:repo:parsers "the parsers fail when broken on purpose" t_parser_mutants
	def any:repo:shellcheck quick "" "shellcheck" t_shellcheck
	def any:fetch:unknown-base quick "" "an unknown base is refused" t_unknown_base
	def any:fetch:mirror quick "" "the apt mirrors come from the machine's sources" t_mirror_from_apt
	def any:repo:non-root quick "" "a user who is not root passes the package step" t_deps_non_root
	plan_base "$mainline" quick
	plan_kmsan "$mainline"
	def "$mainline:series:bad-patch" quick "$mainline:series:git-am" "a patch that does not apply is named" t_bad_patch_named
	while read -r b; do
		plan_base "$b" full
	done < <(awk '!/^#/ && $1 != m { print $1 }' m="$mainline" "$TOP/bases")
	def "$mainline:series:checkpatch-6.12" quick "$mainline:series:git-am 6.12:fetch:source" \
		"checkpatch --strict of 6.12, for the Assisted-by form" t_checkpatch_612
	plan_lookup "$mainline"
	while read -r b; do
		plan_fix "$b"
	done < <(fix_bases)
}
