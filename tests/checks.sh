# shellcheck shell=bash
# The checks run by tests/run.sh; each function is one check and prints,
# indented by two spaces, what it checked. Sourced, not run.

FRAG=$TOP/config/x86_64-bench.config

# kernel_warned LOG: print the WARN, BUG and call trace lines of a guest's
# kernel log; true if there is any.
kernel_warned() {
	grep -E 'WARNING:|BUG:|Call Trace' "$1"
}

t_shellcheck() {
	local files
	mapfile -t files < <(git -C "$TOP" ls-files '*.sh' 'guest/init' '.ci/run')
	[ ${#files[@]} -gt 0 ] || { echo "no shell scripts found"; return 1; }
	(cd "$TOP" && shellcheck -x "${files[@]}")
	echo "  shellcheck clean: ${#files[@]} scripts"
}

t_unknown_base() {
	local err
	if err=$("$TOP/scripts/fetch-base.sh" no-such-base 2>&1); then
		echo "fetch-base.sh accepted an unknown base"
		return 1
	fi
	grep -q "unknown base 'no-such-base'" <<<"$err" || { echo "unclear error: $err"; return 1; }
	echo "  an unknown base is refused: $err"
}

t_fetch_base() {
	local tarball
	tarball=$("$TOP/scripts/fetch-base.sh" "$TEST_BASE")
	[ -s "$tarball" ] || { echo "no tarball at '$tarball'"; return 1; }
	tar -tf "$tarball" --wildcards '*/kernel/trace/ftrace.c' >/dev/null ||
		{ echo "$tarball has no kernel/trace/ftrace.c"; return 1; }
	echo "  $(base_info "$TEST_BASE" pkg) $(base_info "$TEST_BASE" version): $(basename "$tarball"), $(du -m "$tarball" | cut -f1) MiB, has kernel/trace/ftrace.c"
}

# git am every patch, in series order, on a new work tree of the base.
t_git_am_fresh() {
	local repo tmp p n=0 dir=$TOP/patches/$TEST_BASE
	repo=$("$TOP/scripts/import-base.sh" "$TEST_BASE")
	tmp=$CACHE/trees/$TEST_BASE/am-check
	rm -rf "$tmp"
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q --detach "$tmp" base
	while read -r p; do
		git -C "$tmp" am -q "$dir/$p" || { echo "git am failed on $p"; return 1; }
		echo "  git am $p: applied"
		n=$((n + 1))
	done <"$dir/series"
	[ "$(git -C "$tmp" rev-list --count base..HEAD)" -eq "$n" ] || return 1
	git -C "$repo" worktree remove --force "$tmp"
	echo "  $n patches applied on a new tree of $(base_info "$TEST_BASE" pkg) $(base_info "$TEST_BASE" version)"
}

# The benchmark's sort-every-symbol variant still applies on top of the
# series of the base (bench/run.sh --base builds it).
t_variant_applies() {
	local tree
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	git -C "$tree" checkout -q series
	git -C "$tree" apply --check "$TOP/bench/variant-sort-all-symbols.patch" ||
		{ echo "bench/variant-sort-all-symbols.patch does not apply on the series"; return 1; }
	echo "  bench/variant-sort-all-symbols.patch applies on the series"
}

# The patch that does not apply is named, and the tree is left at base.
t_bad_patch_named() {
	local bad err tree
	bad=$(mktemp -d)
	mkdir -p "$bad/$TEST_BASE"
	cp "$TOP/patches/$TEST_BASE"/*.patch "$TOP/patches/$TEST_BASE/series" "$bad/$TEST_BASE/"
	p=$(tail -n 1 "$bad/$TEST_BASE/series")
	sed -i '0,/^@@ /s/^\(@@ .*\)$/\1\n-this line is not in the base/' "$bad/$TEST_BASE/$p"
	if err=$(FTRACE_MODSYMS_PATCHES=$bad "$TOP/scripts/make-tree.sh" "$TEST_BASE" 2>&1); then
		rm -rf "$bad"
		echo "a corrupted $p was applied"
		return 1
	fi
	rm -rf "$bad"
	grep -q "patch $p does not apply" <<<"$err" || { echo "unclear error: $err"; return 1; }
	tree=$CACHE/trees/$TEST_BASE/src
	[ -z "$(git -C "$tree" status --porcelain)" ] || { echo "tree left dirty"; return 1; }
	echo "  a corrupted $p is refused: $(grep 'error:' <<<"$err")"
}

# Debian's codespell keeps its dictionary where checkpatch does not look.
codespell_dict() {
	local f
	f=$(dpkg -L codespell 2>/dev/null | grep '/dictionary\.txt$' | head -n 1 || true)
	[ -r "$f" ] || { echo "no codespell dictionary (package codespell)" >&2; return 1; }
	echo "$f"
}

# The imported trees have no upstream history, so checkpatch cannot look
# up the commits the changelogs cite: UNKNOWN_COMMIT_ID is ignored, the
# 'commit <sha> ("<title>")' form is still checked.
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every
# new file; it is ignored, and instead each file a patch creates must be
# covered by a MAINTAINERS entry (checked in the tree, which has them).
checkpatch_all() {
	local cp=$1 p n=0 dir=$TOP/patches/$TEST_BASE dict
	shift
	dict=$(codespell_dict)
	# Debian's python3 first: it has the ply and git modules checkpatch's
	# SPDX check (scripts/spdxcheck.py) needs, which a python3 of another
	# origin earlier in PATH may lack, and then that check is skipped.
	while read -r p; do
		PATH=/usr/bin:$PATH "$cp" --strict --no-signoff --codespell --codespellfile "$dict" \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES --terse --show-types "$@" "$dir/$p" ||
			{ echo "checkpatch: $p"; return 1; }
		n=$((n + 1))
	done <"$dir/series"
	echo "  $n patches clean, codespell dictionary $dict"
}

# new_files_maintained: each file a patch of the series creates has a
# maintained subsystem in MAINTAINERS (get_maintainer.pl, run in the tree
# at series).
new_files_maintained() {
	local f s
	while read -r f; do
		s=$(./scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats --subsystem -f "$f" | grep -v "@" |
			grep -v '^THE REST$' | paste -sd, || true)
		[ -n "$s" ] || { echo "$f: no MAINTAINERS entry covers it"; return 1; }
		echo "  new file $f: $s"
	done < <(sed 's|^|'"$TOP/patches/$TEST_BASE"'/|' "$TOP/patches/$TEST_BASE/series" |
		xargs sed -n 's/^ create mode [0-9]* //p')
}

t_checkpatch_73() {
	local tree extra=() mainline
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	mainline=$(mainline_base)
	# 6.12's checkpatch calls Elf_Sym (an ELF type macro the kernel uses
	# everywhere) CamelCase; 7.x's does not.
	[ "$TEST_BASE" = "$mainline" ] || extra=(--ignore CAMELCASE)
	git -C "$tree" checkout -q series
	(cd "$tree" && checkpatch_all ./scripts/checkpatch.pl "${extra[@]}" && new_files_maintained)
	echo "  with scripts/checkpatch.pl --strict --no-signoff --codespell of the $TEST_BASE tree${extra[*]:+ (${extra[*]})}"
}

# The Assisted-by: tag must also pass the 6.12 checkpatch (stable trees).
t_checkpatch_612() {
	local tarball dir=$CACHE/checkpatch-6.12
	if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
		tarball=$("$TOP/scripts/fetch-base.sh" 6.12)
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch'
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	# Without a tree it cannot know the kernel's typedefs: Elf_Sym would
	# be CamelCase to it.
	# Run from its own directory: in a git work tree checkpatch leaves a
	# .checkpatch-camelcase.git.* cache file in the current directory.
	(cd "$dir" && checkpatch_all "$dir/scripts/checkpatch.pl" --no-tree --ignore CAMELCASE)
	echo "  with the checkpatch.pl of $(base_info 6.12 pkg) $(base_info 6.12 version) (--no-tree, so CAMELCASE ignored)"
	# It does tell the forms apart: the bare form of 7.3's document is refused.
	local first bad
	first=$TOP/patches/$TEST_BASE/$(head -n 1 "$TOP/patches/$TEST_BASE/series")
	bad=$(mktemp)
	sed 's/^Assisted-by: .*/Assisted-by: LLM/' "$first" >"$bad"
	if (cd "$dir" && "$dir/scripts/checkpatch.pl" --no-tree --strict --no-signoff --terse "$bad") >/dev/null 2>&1; then
		rm -f "$bad"
		echo "6.12 checkpatch accepted 'Assisted-by: LLM'"
		return 1
	fi
	rm -f "$bad"
	echo "  and it refuses 'Assisted-by: LLM' (so the check is real)"
}

# Every patch, applied in order, builds kernel/trace, kernel/module and
# lib/tests with no warning at all (the base has none either), with KUnit
# on so that the helpers the KUnit patch makes visible are built that way.
t_bisect_build() {
	local tree obj c out
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	obj=$CACHE/build/$TEST_BASE/bisect
	for c in base $(git -C "$tree" rev-list --reverse base..series); do
		out=$("$TOP/scripts/build-objs.sh" "$tree" "$c" "$obj" x86_64 tinyconfig \
			"$TOP/config/ktest-series.config" "$FRAG")
		[[ $out == *", 0 warnings,"* ]] ||
			{ grep 'warning:' "$obj/build.log"; echo "warnings at $c"; return 1; }
		if [ -e "$tree/samples/ftrace/ftrace-weak-mod.c" ] && [ ! -e "$obj/samples/ftrace/ftrace-weak.o" ]; then
			echo "the sample module was not built at $c"
			return 1
		fi
		echo "  $(git -C "$tree" log -1 --format='%h %s' "$c" | cut -c1-60): builds, 0 warnings"
	done
	git -C "$tree" checkout -q series
}

# No patch adds a warning in the files the series touches: W=1, sparse
# (where the tree accepts Debian's sparse) and kernel-doc -Wall, counted
# per file at the base and after each patch (scripts/hygiene.sh).
t_hygiene() {
	local tree obj c f w s k pw ps pk line new
	local -A prev=() base=()
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
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
	git -C "$tree" checkout -q series
	for f in "${!prev[@]}"; do
		echo "  $f: W=1, sparse, kernel-doc -Wall: ${base[$f]:-(new file)} at base, ${prev[$f]} after the series"
	done | sort
}

# One cell of the build matrix: the series' kernel/trace and kernel/module
# for an arch and config, and whether the new index code is compiled in
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
	have=no
	if [ -e "$obj/kernel/trace/ftrace.o" ] &&
		[ "$(nm "$obj/kernel/trace/ftrace.o" | grep -c ' ftrace_mod_syms_add$')" -gt 0 ]; then
		have=yes
	fi
	[ "$have" = "$expect" ] || { echo "symbol index compiled in: $have, expected $expect"; return 1; }
	echo "  symbol index compiled in: $have, as expected"
}

t_build() {
	local kind=$1 ref tree
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	case $kind in stock) ref=base ;; patched) ref=series ;; esac
	"$TOP/scripts/build-kernel.sh" "$tree" "$ref" "$CACHE/build/$TEST_BASE/$kind" "$FRAG"
	echo "  $kind kernel ($ref) links: $(du -k "$CACHE/build/$TEST_BASE/$kind/arch/x86/boot/bzImage" | cut -f1) KiB bzImage"
}

# Boot a kernel with the weak-function module: load, unload, reload.
weak_guest() {
	local kind=$1 work=$CACHE/test-weak
	[ -s "$work/modweak/modweak.ko" ] || return 1
	"$TOP/scripts/mkinitramfs.sh" "$work/weak.cpio" "$TOP/guest/weak.sh" "$work/modweak/modweak.ko"
	"$TOP/scripts/run-guest.sh" "$CACHE/build/$TEST_BASE/$kind/arch/x86/boot/bzImage" \
		"$work/weak.cpio" "$work/guest-$kind" 300
}

t_weak_module_build() {
	local work=$CACHE/test-weak tree opt=()
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	rm -rf "$work"
	# An objtool that does not mark holes (insn->hole, 7.x) warns about an
	# overridden weak function at the start of a section (6.12).
	grep -q 'insn->hole' "$tree/tools/objtool/check.c" || opt=(--live-first)
	"$TOP/scripts/gen-module.sh" weak modweak "$work/modweak" "${opt[@]}"
	"$TOP/scripts/build-module.sh" "$CACHE/build/$TEST_BASE/${1:-patched}" "$work/modweak"
	echo "  modweak.ko: $(wc -l <"$work/modweak/expect.live") live functions, $(cat "$work/modweak/expect.dead") overridden weak ones, init text${opt[*]:+ (${opt[*]})}"
}

t_weak_boot() {
	local kernel=$CACHE/build/$TEST_BASE/$1/arch/x86/boot/bzImage
	weak_guest "$1"
	echo "  $1 kernel booted (qemu $("$TOP/scripts/qemu-accel.sh" "$kernel")), loaded, unloaded and reloaded modweak.ko"
}

# The exact function list of the module on the patched kernel (or the
# kernel built in build/BASE/KIND).
t_weak_list() {
	local work=$CACHE/test-weak g delta names n dead
	g=$work/guest-${1:-patched}/files
	delta=$("$TOP/scripts/list-delta.sh" "$g/before" "$g/loaded")
	names=$(grep -v '^__ftrace_invalid_address___' <<<"$delta" | sort)
	diff <(sed 's/$/ [modweak]/' "$work/modweak/expect.live") <(echo "$names") ||
		{ echo "named lines differ from the expected live functions"; return 1; }
	echo "  each of the $(wc -l <"$work/modweak/expect.live") live functions listed once, with [modweak]"
	n=$(grep -c '^__ftrace_invalid_address___' <<<"$delta" || true)
	dead=$(cat "$work/modweak/expect.dead")
	[ "$n" -eq "$dead" ] || { echo "$n invalid lines, expected $dead"; return 1; }
	echo "  the $dead dead weak sites listed as invalid: $(grep '^__ftrace_invalid' <<<"$delta" | sort | uniq -c | awk '{printf "%s x %s; ", $1, $2}')"
	cmp -s "$g/before" "$g/unloaded" || { echo "list after unload differs from before load"; return 1; }
	echo "  unload restores the whole list exactly"
	cmp -s "$g/loaded" "$g/reloaded" || { echo "list after reload differs from first load"; return 1; }
	echo "  reload gives the whole list again, identical"
}

# The decisions themselves: with the function tracer on, enabled_functions
# lists the records that are not FTRACE_FL_DISABLED. For the module that
# must be exactly its live functions, on stock and patched alike, and no
# kernel may WARN (t_show() warns when a record whose lookup fails is not
# disabled).
t_weak_decisions() {
	local work=$CACHE/test-weak k g mods kinds=("$@")
	[ $# -gt 0 ] || kinds=(stock patched)
	for k in "${kinds[@]}"; do
		g=$work/guest-$k/files
		[ -s "$g/enabled" ] || { echo "$k: no enabled_functions snapshot"; return 1; }
		mods=$(sed -n 's/ (.*//; / \[modweak\]$/p' "$g/enabled" | sort)
		diff <(sed 's/$/ [modweak]/' "$work/modweak/expect.live") <(echo "$mods") ||
			{ echo "$k: enabled module records differ from the live functions"; return 1; }
		if grep -q '__ftrace_invalid_address' "$g/enabled"; then
			echo "$k: a dead site was enabled"
			return 1
		fi
		if kernel_warned "$g/dmesg"; then
			echo "$k: the kernel warned"
			return 1
		fi
		echo "  $k: function tracer on, enabled records of modweak = the $(wc -l <<<"$mods") live functions, no dead site, no WARN"
	done
}

# The module's lines are the same as on stock, byte for byte.
t_weak_vs_stock() {
	local work=$CACHE/test-weak s p
	s=$("$TOP/scripts/list-delta.sh" "$work/guest-stock/files/before" "$work/guest-stock/files/loaded")
	p=$("$TOP/scripts/list-delta.sh" "$work/guest-patched/files/before" "$work/guest-patched/files/loaded")
	if [ -z "$s" ] || [ -z "$p" ]; then
		echo "a load added no lines"
		return 1
	fi
	diff <(echo "$s") <(echo "$p") || { echo "patched differs from stock"; return 1; }
	echo "  the $(wc -l <<<"$p") lines the load adds are identical on stock and patched"
}

# The KUnit suite the series adds, built in, run by kunit.py in qemu, for
# ARCH (x86_64 or powerpcle, see scripts/kunit-run.sh). Its cases are
# listed in $CACHE/test-kunit/builtin-ARCH/cases for the summary.
t_kunit_builtin() {
	local arch=$1 tree out=$CACHE/test-kunit/builtin-$1 build=$CACHE/build/$TEST_BASE/kunit-$1 rc=0 how
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	rm -rf "$out"
	"$TOP/scripts/kunit-run.sh" "$tree" series "$build" "$out" "$arch" || rc=$?
	git -C "$tree" checkout -q series
	[ -s "$out/results.json" ] || return 1
	"$TOP/scripts/kunit-cases.py" "$out/results.json" >"$out/cases"
	kunit_info "$build/test.log"
	case $arch in
	x86_64) how="qemu $("$TOP/scripts/qemu-accel.sh" "$build/arch/x86/boot/bzImage")" ;;
	*) how="qemu-system-ppc64 -M pseries, TCG" ;;
	esac
	echo "  kunit.py run --arch=$arch ($how): $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	return $rc
}

# kunit_info LOG: from a kernel log, the lines the cases print about what
# they checked (not their pass/fail counts or failure reports).
kunit_info() {
	grep -v -e ' pass:[0-9]' -e 'EXPECTATION FAILED' "$1" |
		sed -n 's/^.*# \(ftrace_locs_[a-z_]*: .*\)$/  \1/p'
}

# The suite as a module, loaded twice in the guest: the agreement cases
# check the module's own records. Parsed with kunit.py parse.
t_kunit_module() {
	local tree obj=$CACHE/build/$TEST_BASE/ktest-patched out=$CACHE/test-kunit/module g rc=0 runs
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	"$TOP/scripts/kunit-guest.sh" "$tree" "$obj" "$out" || rc=$?
	[ -s "$out/cases" ] || return 1
	g=$out/guest/files
	kunit_info "$g/dmesg"
	echo "  insmod ftrace_locs_test.ko, kunit.py parse: $(grep -o 'Ran [0-9]* tests.*' "$out/kunit.log")"
	[ $rc -eq 0 ] || return $rc
	runs=$(grep -c '^\[[0-9. ]*\] ok 1 ftrace_locs$' "$g/dmesg-all" || true)
	[ "$runs" -eq 2 ] || { echo "$runs passing runs of the suite in two loads"; return 1; }
	echo "  unloaded and loaded again: the suite passed both times"
	if kernel_warned "$g/dmesg-all"; then
		echo "the kernel warned"
		return 1
	fi
	echo "  no WARN or BUG in the kernel log"
}

# The kernels of the end-to-end tests, stock and patched, with the same
# options (config/ktest.config: kvm.ko, the trace-printk sample, KUnit);
# the patched one also has what the series adds, as modules
# (config/ktest-series.config).
t_ktest_build() {
	local kind=$1 tree ref frags=("$FRAG" "$TOP/config/ktest.config")
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	case $kind in
	stock) ref=base ;;
	patched)
		ref=series
		frags+=("$TOP/config/ktest-series.config")
		;;
	esac
	"$TOP/scripts/build-kernel.sh" "$tree" "$ref" "$CACHE/build/$TEST_BASE/ktest-$kind" "${frags[@]}"
	echo "  $kind kernel ($ref): $(find "$CACHE/build/$TEST_BASE/ktest-$kind" -name '*.ko' -printf '%f\n' | sort | paste -sd' ')"
}

# The modules of the ktest-KIND kernel, staged for the guest in
# $CACHE/test-ktest/KIND/stage, and the ftrace selftests of the series in
# $CACHE/test-ktest/KIND/tools/. On stock, the sample module of the series
# is built out of tree, so that the same tests run there.
t_ktest_stage() {
	local kind=$1 tree work=$CACHE/test-ktest/$1 ext=() ref=series
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	rm -rf "$work"
	mkdir -p "$work"
	git -C "$tree" archive series tools/testing/selftests/ftrace | tar -x -C "$work"
	if [ "$kind" = stock ]; then
		ref=base
		mkdir -p "$work/ext"
		git -C "$tree" archive series samples/ftrace | tar -x -C "$work/ext"
		ext=("$work/ext/samples/ftrace")
	fi
	git -C "$tree" checkout -q "$ref"
	"$TOP/scripts/stage-modules.sh" "$tree" "$CACHE/build/$TEST_BASE/ktest-$kind" "$work/stage" "${ext[@]}"
	git -C "$tree" checkout -q series
	echo "  $kind: $(find "$work/stage" -name '*.ko' -printf '%f\n' | sort | paste -sd' ') staged with modules.dep${ext[*]:+; ftrace-weak.ko of the series built out of tree}"
}

# ftracetest_cases OUT: "STATUS<TAB>test<TAB>result" for each test of an
# ftracetest output. A test of test.d/ftrace ("ftrace - ...") must pass;
# another one that cannot run in this guest (UNSUPPORTED, UNTESTED,
# UNRESOLVED) is a skip, with its result.
ftracetest_cases() {
	awk -F '\t' '/^\[[0-9]+\] / {
		name = $1; sub(/^\[[0-9]+\] /, "", name)
		r = $NF; gsub(/[][]/, "", r)
		if (r == "PASS" || r == "XFAIL") s = "PASS"
		else if (r == "FAIL" || r == "UNDEFINED" || name ~ /^ftrace - /) s = "FAIL"
		else s = "SKIP"
		printf "%s\tftracetest: %s\t%s\n", s, name, r
	}' "$1"
}

# ftracetest in a guest of the ktest-KIND kernel, on a SET of tests: weak
# (the tests of the series) or basic (ftrace/func_mod_trace.tc and
# 00basic). Each set gets its own boot: on 7.3-rc7, stock included,
# loading a module whose init is traced can call a NULL address once the
# function tracer has been on and off before (README, "Found on the way").
t_ftracetest() {
	local kind=$1 set=$2 work=$CACHE/test-ktest/$1 out rc=0
	out=$work/ftracetest-$set
	[ -d "$work/stage" ] || { echo "no staged modules in $work (t_ktest_stage)"; return 1; }
	rm -rf "$out"
	mkdir -p "$out"
	case $set in
	weak) printf '%s\n' test.d/ftrace/func_mod_weak.tc test.d/ftrace/func_mod_weak_filter.tc ;;
	basic) printf '%s\n' test.d/ftrace/func_mod_trace.tc test.d/00basic ;;
	esac >"$out/ftracetest.list"
	"$TOP/scripts/mkinitramfs.sh" "$out/initrd.cpio" "$TOP/guest/ftracetest.sh" \
		"$work/stage/lib/modules" "$work/tools/testing/selftests/ftrace" "$out/ftracetest.list"
	"$TOP/scripts/run-guest.sh" "$CACHE/build/$TEST_BASE/ktest-$kind/arch/x86/boot/bzImage" \
		"$out/initrd.cpio" "$out/guest" 600
	ftracetest_cases "$out/guest/files/ftracetest.out" >"$out/cases"
	[ -s "$out/cases" ] || { cat "$out/guest/files/ftracetest.out"; return 1; }
	grep -q "ftracetest rc=" "$out/guest/files/ftracetest.out"
	echo "  $kind kernel, ftracetest $(tr '\n' ' ' <"$out/ftracetest.list")in a fresh boot: $(cut -f3 "$out/cases" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')"
	# The basic set is judged against stock (t_ftracetest_vs_stock).
	if [ "$set" = weak ] && grep -v '^PASS' "$out/cases"; then
		rc=1
	fi
	if kernel_warned "$out/guest/files/dmesg"; then
		echo "the kernel warned"
		rc=1
	else
		echo "  no WARN or BUG in the kernel log"
	fi
	return $rc
}

# The ftracetest SET on patched, test by test, against stock: a test that
# passes on stock must pass on patched; one that does not pass on either,
# with the same result, is a skip (the guest or the base, not the series).
# Writes $CACHE/test-ktest/SET-vs-stock.cases for the summary.
t_ftracetest_vs_stock() {
	local set=$1 work=$CACHE/test-ktest out
	out=$work/$set-vs-stock.cases
	rm -f "$out"
	if [ ! -s "$work/stock/ftracetest-$set/cases" ] || [ ! -s "$work/patched/ftracetest-$set/cases" ]; then
		echo "no ftracetest results of the $set set on both kernels"
		return 1
	fi
	awk -F '\t' 'NR == FNR { stock[$2] = $3; next }
		{
			s = ($2 in stock) ? stock[$2] : "missing"
			if ($3 == "PASS" || $3 == "XFAIL") print "PASS\t" $2 "\t" $3
			else if ($3 == s) print "SKIP\t" $2 "\t" $3 " on stock too"
			else print "FAIL\t" $2 "\t" $3 ", on stock " s
		}' "$work/stock/ftracetest-$set/cases" "$work/patched/ftracetest-$set/cases" >"$out"
	echo "  $(grep -c '^PASS' "$out") pass on patched; not passing on either kernel, with the same result:"
	grep '^SKIP' "$out" | cut -f2,3 | sed 's/^/    /; s/\t/: /' || true
	if grep '^FAIL' "$out"; then
		return 1
	fi
	echo "  no test that passes on stock fails on patched"
}

# ms_summary COLUMN FILE: "median (min-max)" in ms of a column of
# microseconds (the lines of guest/lib.sh's time_insmod).
ms_summary() {
	cut -d' ' -f"$1" "$2" | sort -n | awk '{ v[NR] = $1 / 1000 }
		END { printf "%.1f (%.1f-%.1f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

# kvm.ko, a real module (virt/kvm has __weak functions that arch/x86/kvm
# overrides): the lines its load adds to available_filter_functions are
# identical on stock and patched, and unloading restores the whole list.
# Its load times on both are printed (3 loads each).
t_kvm_list() {
	local kind work=$CACHE/test-ktest g d n inv
	for kind in stock patched; do
		[ -d "$work/$kind/stage" ] || { echo "no staged modules in $work/$kind"; return 1; }
		"$TOP/scripts/mkinitramfs.sh" "$work/$kind/kvm.cpio" "$TOP/guest/kvm.sh" "$work/$kind/stage/lib/modules"
		"$TOP/scripts/run-guest.sh" "$CACHE/build/$TEST_BASE/ktest-$kind/arch/x86/boot/bzImage" \
			"$work/$kind/kvm.cpio" "$work/$kind/kvm" 600
		g=$work/$kind/kvm/files
		"$TOP/scripts/list-delta.sh" "$g/before" "$g/loaded" >"$work/$kind/kvm.delta"
		[ -s "$work/$kind/kvm.delta" ] || { echo "$kind: loading kvm.ko added no line"; return 1; }
		cmp -s "$g/before" "$g/unloaded" || { echo "$kind: the list after unloading kvm.ko differs"; return 1; }
		if kernel_warned "$g/dmesg"; then
			echo "$kind: the kernel warned"
			return 1
		fi
	done
	d=$work/patched/kvm.delta
	diff "$work/stock/kvm.delta" "$d" || { echo "kvm.ko: patched differs from stock"; return 1; }
	n=$(grep -v '^__ftrace_invalid_address___' "$d" | grep -c ' \[kvm\]$' || true)
	inv=$(grep -c '^__ftrace_invalid_address___' "$d" || true)
	echo "  kvm.ko adds $(wc -l <"$d") lines to available_filter_functions, identical on stock and patched: $n functions, $inv invalid records (dead weak call sites)"
	echo "  unloading restores the whole list on both; no WARN or BUG"
	for kind in stock patched; do
		echo "  $kind: 3 loads of kvm.ko, insmod ms $(ms_summary 1 "$work/$kind/kvm/files/times"), ftrace_module_enable() ms $(ms_summary 2 "$work/$kind/kvm/files/times")"
	done
	[ "$inv" -gt 0 ] || { echo "no invalid record: the check found no dead call site in kvm.ko"; return 1; }
}

# The documentation patch: make htmldocs of Documentation/trace (Sphinx)
# at the base and with the series; no warning may name a file the series
# touches there.
t_htmldocs() {
	local tree ref obj n files
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	files=$(git -C "$tree" diff --name-only base series -- Documentation/trace)
	[ -n "$files" ] || { echo "the series touches nothing in Documentation/trace"; return 1; }
	for ref in base series; do
		obj=$CACHE/build/$TEST_BASE/htmldocs-$ref
		git -C "$tree" checkout -q "$ref"
		rm -rf "$obj"
		mkdir -p "$obj"
		PATH=/usr/bin:$PATH make -C "$tree" O="$obj" SPHINXDIRS=trace htmldocs >"$obj/build.log" 2>&1 ||
			{ git -C "$tree" checkout -q series; tail -n 20 "$obj/build.log"; return 1; }
		[ -s "$obj/Documentation/output/trace/ftrace.html" ] || { echo "$ref: no ftrace.html"; return 1; }
		n=$(grep -c -F "$files" "$obj/build.log" || true)
		echo "  $ref: make SPHINXDIRS=trace htmldocs, $(grep -c 'WARNING' "$obj/build.log" || true) warnings in all, $n naming $(tr '\n' ' ' <<<"$files")"
		[ "$n" -eq 0 ] || { grep -F "$files" "$obj/build.log"; git -C "$tree" checkout -q series; return 1; }
	done
}

# A guest that hangs, and a kernel that does not boot, give clear errors
# with the last console lines.
# The quick subset of the reliability scenarios (tests/debug.sh --quick):
# the patched debug kernel (lockdep, KASAN, kmemleak, fault injection,
# lockup detectors) through every scenario with smaller modules, after the
# detector controls. Each scenario and control counts in the summary.
# The preemption model: lazy where the base has it (7.x), else voluntary.
t_debug_quick() {
	local tree model=lazy rc=0
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	grep -q '^config PREEMPT_LAZY' "$tree/kernel/Kconfig.preempt" || model=voluntary
	rm -f "$CACHE/debug/quick.cases"
	LOCKED=1 "$TOP/tests/debug.sh" --base "$TEST_BASE" --preempt "$model" --quick | sed 's/^/  /' || rc=$?
	cp "$CACHE/debug/$TEST_BASE-$model/cases" "$CACHE/debug/quick.cases" || true
	return "$rc"
}

t_guest_failures() {
	local work=$CACHE/test-guest-fail err kernel=$CACHE/build/$TEST_BASE/patched/arch/x86/boot/bzImage
	rm -rf "$work"
	mkdir -p "$work"
	printf '#!/bin/sh\necho hanging on purpose\nwhile :; do sleep 1; done\n' >"$work/hang.sh"
	"$TOP/scripts/mkinitramfs.sh" "$work/hang.cpio" "$work/hang.sh"
	if err=$("$TOP/scripts/run-guest.sh" "$kernel" "$work/hang.cpio" "$work/hang" 25 2>&1); then
		echo "a hanging guest passed"
		return 1
	fi
	if ! grep -q 'did not finish within 25s' <<<"$err" || ! grep -q 'hanging on purpose' <<<"$err"; then
		echo "unclear error: $err"
		return 1
	fi
	echo "  a hanging guest is stopped after 25 s: $(grep 'error:' <<<"$err" | cut -c1-60)..., with its console tail"
	head -c 4096 /dev/urandom >"$work/not-a-kernel"
	if err=$(FTRACE_MODSYMS_ACCEL=tcg "$TOP/scripts/run-guest.sh" "$work/not-a-kernel" "$work/hang.cpio" "$work/bad" 25 2>&1); then
		echo "a kernel that cannot boot passed"
		return 1
	fi
	grep -q 'guest stopped before its test finished\|did not finish within' <<<"$err" ||
		{ echo "unclear error: $err"; return 1; }
	echo "  a kernel that does not boot is reported: $(grep 'error:' <<<"$err" | cut -c1-70)..."
}

# The checks of a stable backport in the default run (CI): the series
# applies and passes checkpatch, no patch adds a warning (6.12 takes
# Debian's sparse, so this is where sparse runs), the kernel with the
# KUnit suite as a module builds, the suite passes in the guest, and the
# weak-function module's list and records are exactly its live functions
# on it.
# "tests/run.sh BASE" runs every check for BASE instead.
run_backport_checks() {
	local b="[$TEST_BASE]"
	check "$b fetch: base source" t_fetch_base
	check "$b series: git am on a fresh tree" t_git_am_fresh
	check "$b checkpatch --strict (its own checkpatch.pl)" t_checkpatch_73
	check "$b series: no new W=1, sparse or kernel-doc warning" t_hygiene
	check "$b build: test kernel, patched" t_ktest_build patched
	check "$b kunit: module loaded in the guest" t_kunit_module
	count_cases "$b kunit module" "$CACHE/test-kunit/module/cases"
	check "$b ktest: stage modules, patched" t_ktest_stage patched
	check "$b ftracetest: the weak-function tests, patched" t_ftracetest patched weak
	count_cases "$b" "$CACHE/test-ktest/patched/ftracetest-weak/cases"
	check "$b weak module: build" t_weak_module_build ktest-patched
	check "$b weak module: boot" t_weak_boot ktest-patched
	check "$b weak module: exact list" t_weak_list ktest-patched
	check "$b weak module: record decisions (enabled_functions)" t_weak_decisions ktest-patched
}

run_checks() {
	check "shellcheck" t_shellcheck
	check "fetch: unknown base refused" t_unknown_base
	check "fetch: $TEST_BASE base source" t_fetch_base
	check "series: git am on a fresh $TEST_BASE tree" t_git_am_fresh
	check "series: a patch that does not apply is named" t_bad_patch_named
	check "bench: the variant patch applies on the series" t_variant_applies
	check "checkpatch --strict ($TEST_BASE)" t_checkpatch_73
	check "checkpatch --strict (6.12, for the Assisted-by form)" t_checkpatch_612
	check "series: each patch builds (kernel/trace, kernel/module, lib/tests, samples/ftrace)" t_bisect_build
	check "series: no new W=1, sparse or kernel-doc warning" t_hygiene
	check "matrix: x86_64 IBT off (MAX_OFFSET 0)" t_matrix x86_64-noibt x86_64 tinyconfig yes "$FRAG" "$TOP/config/matrix/x86_64-noibt.config"
	check "matrix: x86_64 CONFIG_MODULES=n" t_matrix x86_64-nomodules x86_64 tinyconfig no "$FRAG" "$TOP/config/matrix/x86_64-nomodules.config"
	check "matrix: x86_64 CONFIG_FUNCTION_TRACER=n" t_matrix x86_64-nofunctrace x86_64 tinyconfig no "$FRAG" "$TOP/config/matrix/x86_64-nofunctrace.config"
	check "matrix: arm64 (no MAX_OFFSET)" t_matrix arm64 arm64 defconfig no "$TOP/config/matrix/arm64.config"
	check "matrix: x86_64 clang-19 (LLVM=-19)" t_matrix x86_64-clang x86_64-llvm tinyconfig yes "$FRAG" "$TOP/config/matrix/x86_64-clang.config"
	check "matrix: powerpc64le (MAX_OFFSET 16)" t_matrix ppc64le powerpc ppc64le_defconfig yes "$TOP/config/matrix/ppc64le.config"
	check "build: stock kernel" t_build stock
	check "build: patched kernel" t_build patched
	check "weak module: build" t_weak_module_build
	check "weak module: boot stock" t_weak_boot stock
	check "weak module: boot patched" t_weak_boot patched
	check "weak module: exact list on patched" t_weak_list
	check "weak module: patched identical to stock" t_weak_vs_stock
	check "weak module: record decisions (enabled_functions)" t_weak_decisions
	check "kunit: built in, kunit.py run --arch=x86_64" t_kunit_builtin x86_64
	count_cases "kunit x86_64 built in" "$CACHE/test-kunit/builtin-x86_64/cases"
	check "kunit: built in, kunit.py run --arch=powerpcle" t_kunit_builtin powerpcle
	count_cases "kunit ppc64le built in" "$CACHE/test-kunit/builtin-powerpcle/cases"
	check "build: test kernel, stock" t_ktest_build stock
	check "build: test kernel, patched" t_ktest_build patched
	check "kunit: module loaded in the guest" t_kunit_module
	count_cases "kunit module" "$CACHE/test-kunit/module/cases"
	check "ktest: stage modules, stock" t_ktest_stage stock
	check "ktest: stage modules, patched" t_ktest_stage patched
	check "ftracetest: the weak-function tests, patched" t_ftracetest patched weak
	count_cases "patched" "$CACHE/test-ktest/patched/ftracetest-weak/cases"
	check "ftracetest: the weak-function tests, stock" t_ftracetest stock weak
	count_cases "stock" "$CACHE/test-ktest/stock/ftracetest-weak/cases"
	check "ftracetest: func_mod_trace.tc and 00basic, stock" t_ftracetest stock basic
	check "ftracetest: func_mod_trace.tc and 00basic, patched" t_ftracetest patched basic
	check "ftracetest: func_mod_trace.tc and 00basic, patched vs stock" t_ftracetest_vs_stock basic
	count_cases "patched" "$CACHE/test-ktest/basic-vs-stock.cases"
	check "kvm.ko: function list identical on stock and patched" t_kvm_list
	check "docs: make htmldocs of Documentation/trace" t_htmldocs
	check "debug kernel: reliability scenarios, quick subset, patched" t_debug_quick
	count_cases "debug" "$CACHE/debug/quick.cases"
	check "guest: hang and boot failure reported" t_guest_failures
}
