# shellcheck shell=bash
# The series as a maintainer takes it: the base source, git am on a
# fresh tree, checkpatch, and the benchmark variant on top.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

t_fetch_base() {
	local tarball repo
	tarball=$("$TOP/scripts/fetch-base.sh" "$TEST_BASE")
	[ -s "$tarball" ] || { echo "no tarball at '$tarball'"; return 1; }
	repo=$("$TOP/scripts/import-base.sh" "$TEST_BASE")
	git -C "$repo" cat-file -e base:kernel/trace/ftrace.c ||
		{ echo "the import of $tarball has no kernel/trace/ftrace.c"; return 1; }
	echo "  $(base_info "$TEST_BASE" pkg) $(base_info "$TEST_BASE" version): $(basename "$tarball"), $(du -m "$tarball" | cut -f1) MiB, has kernel/trace/ftrace.c"
	[ ! -r "$CACHE/apt/sources.list" ] ||
		echo "  private apt sources: $(awk '{ print $3, $4 }' "$CACHE/apt/sources.list" | paste -sd';')"
}

# git am every patch, in series order, on a new work tree of the base.
# The tree is sparse: only the files the series touches are checked out
# (git am reads and writes no others), which takes seconds where a whole
# kernel tree takes a minute or more. (A sparse work tree turns on
# extensions.worktreeConfig in the base's repository, for its own
# sparse-checkout setting; nothing else changes there.) Its result must
# be the series tree that scripts/make-tree.sh makes (or keeps) for the
# checks that follow, from the same patch files.
t_git_am_fresh() {
	local repo tmp p n=0 dir=$TOP/patches/$TEST_BASE paths tree src
	repo=$("$TOP/scripts/import-base.sh" "$TEST_BASE")
	tmp=$CACHE/trees/$TEST_BASE/am-check
	rm -rf "$tmp"
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q --no-checkout --detach "$tmp" base
	mapfile -t paths < <(sed "s|^|$dir/|" "$dir/series" | xargs git -C "$tmp" apply --numstat |
		cut -f3 | sort -u | sed 's|^|/|')
	[ "${#paths[@]}" -gt 0 ] || { echo "the series touches no file"; return 1; }
	git -C "$tmp" sparse-checkout set --no-cone "${paths[@]}"
	git -C "$tmp" checkout -q
	while read -r p; do
		git -C "$tmp" am -q --keep-cr "$dir/$p" || { echo "git am failed on $p"; return 1; }
		echo "  git am $p: applied"
		n=$((n + 1))
	done <"$dir/series"
	[ "$(git -C "$tmp" rev-list --count base..HEAD)" -eq "$n" ] || return 1
	tree=$(git -C "$tmp" rev-parse 'HEAD^{tree}')
	git -C "$repo" worktree remove --force "$tmp"
	echo "  $n patches applied on a new tree of $(base_info "$TEST_BASE" pkg) $(base_info "$TEST_BASE" version) (sparse: the ${#paths[@]} files the series touches)"
	src=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	[ "$(git -C "$src" rev-parse 'series^{tree}')" = "$tree" ] ||
		{ echo "the result, tree $tree, is not the series of $src"; return 1; }
	echo "  the result is the series of the shared work tree (tree ${tree:0:12})"
}

# Each benchmark-only variant (bench/variant-*.patch) still applies on
# top of the series of the base (bench/run.sh --base builds them), and
# each of the second series (lookup-*) on top of that, where the base has
# it.
t_variant_applies() {
	local tree ltree="" p n=0 name
	# shellcheck source=bench/lib.sh
	. "$TOP/bench/lib.sh"
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	git -C "$tree" checkout -q series
	for name in $(variants "$TEST_BASE"); do
		p=$TOP/bench/variant-$name.patch
		if [[ $name == lookup-* ]]; then
			[ -n "$ltree" ] || ltree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" lookup)
			git -C "$ltree" checkout -q --detach lookup
			git -C "$ltree" apply --check "$p" ||
				{ echo "bench/${p##*/} does not apply on the second series"; return 1; }
			echo "  bench/${p##*/} applies on the second series"
		else
			git -C "$tree" apply --check "$p" ||
				{ echo "bench/${p##*/} does not apply on the series"; return 1; }
			echo "  bench/${p##*/} applies on the series"
		fi
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || { echo "no bench/variant-*.patch"; return 1; }
}

# The config of bench/real.sh (config/real.config) still applies to the
# base: the benchmark on real modules is not part of the test command,
# but its config cannot rot.
t_real_config() {
	local tree
	# shellcheck source=bench/lib.sh
	. "$TOP/bench/lib.sh"
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE")
	git -C "$tree" checkout -q series
	real_config_check "$tree" "$TEST_BASE" "${REAL_FRAGS[@]}"
	# shellcheck disable=SC2046 # the fragments' paths have no spaces
	real_config_check "$tree" "$TEST_BASE" $(real_debug_frags "$(default_model "$tree")")
}

# The patch that does not apply is named, before any work tree is made
# (scripts/make-tree.sh tries a new series in an index of its own first).
# In a scratch area: the shared tree keeps its series (and the build
# directories their file times).
t_bad_patch_named() {
	local bad err tree p trees applied made
	bad=$(mktemp -d)
	trees=$CACHE/trees-scratch
	mkdir -p "$bad/$TEST_BASE"
	cp "$TOP/patches/$TEST_BASE"/*.patch "$TOP/patches/$TEST_BASE/series" "$bad/$TEST_BASE/"
	p=$(tail -n 1 "$bad/$TEST_BASE/series")
	sed -i '0,/^@@ /s/^\(@@ .*\)$/\1\n-this line is not in the base/' "$bad/$TEST_BASE/$p"
	applied=0 made=0
	err=$(FTRACE_MODSYMS_TREES=$trees FTRACE_MODSYMS_PATCHES=$bad "$TOP/scripts/make-tree.sh" "$TEST_BASE" 2>&1) && applied=1
	tree=$trees/$TEST_BASE/src
	[ ! -e "$tree" ] || made=1
	# The scratch copies go on every path, before any verdict.
	rm -rf "$bad" "$trees"
	[ $applied -eq 0 ] || { echo "a corrupted $p was applied"; return 1; }
	[ $made -eq 0 ] || { echo "a work tree was made: $tree"; return 1; }
	grep -q "patch $p does not apply" <<<"$err" || { echo "unclear error: $err"; return 1; }
	echo "  a corrupted $p is refused, no work tree made: $(grep 'error:' <<<"$err" | paste -sd' ')"
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
# checkpatch_all DIR CP [ARG...]: checkpatch CP (with ARGs) on every patch
# of DIR/series.
checkpatch_all() {
	local dir=$1 cp=$2 p n=0 dict tmp bad="" serial=""
	local -a pids=() names=()
	shift 2
	dict=$(codespell_dict)
	tmp=$(mktemp -d)
	# Debian's python3 first: it has the ply and git modules checkpatch's
	# SPDX check (scripts/spdxcheck.py) needs, which a python3 of another
	# origin earlier in PATH may lack, and then that check is skipped.
	# One checkpatch per patch, all at once (each is one perl process),
	# but the first alone: in a git tree, the first that meets a CamelCase
	# word writes the tree's cache of them (.checkpatch-camelcase.git.*),
	# which the others read; if the first did not, they go one at a time.
	# A patch passes when checkpatch exits 0, prints nothing (--terse) and
	# does not say on stderr that it could not read the codespell
	# dictionary. (6.12's, run with --no-tree, also complains there of
	# the tree it does not have.)
	while read -r p; do
		PATH=/usr/bin:$PATH "$cp" --strict --no-signoff --codespell --codespellfile "$dict" \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES --terse --show-types "$@" "$dir/$p" \
			>"$tmp/$n.out" 2>"$tmp/$n.err" </dev/null &
		pids+=("$!")
		names+=("$p")
		if [ "$n" -eq 0 ] || [ -n "$serial" ]; then
			wait "$!" || echo "exit $?" >>"$tmp/$n.out"
			pids[n]=""
			if [ "$n" -eq 0 ] && [ -e .git ] && ! compgen -G '.checkpatch-camelcase.git.*' >/dev/null; then
				serial=1
			fi
		fi
		n=$((n + 1))
	done <"$dir/series"
	for ((n = 0; n < ${#names[@]}; n++)); do
		[ -z "${pids[n]}" ] || wait "${pids[n]}" || echo "exit $?" >>"$tmp/$n.out"
		! grep -qi codespell "$tmp/$n.err" || echo "exit 0, but: $(grep -i codespell "$tmp/$n.err")" >>"$tmp/$n.out"
		[ ! -s "$tmp/$n.out" ] || { cat "$tmp/$n.out" "$tmp/$n.err"; bad="$bad ${names[n]}"; }
	done
	rm -rf "$tmp"
	[ -z "$bad" ] || { echo "checkpatch:$bad"; return 1; }
	echo "  $n patches clean${serial:+ (one at a time: no CamelCase cache after the first)}, codespell dictionary $dict"
}

# new_files_maintained DIR: each file a patch of DIR/series creates has a
# maintained subsystem in MAINTAINERS (get_maintainer.pl, run in the tree
# with those patches applied).
new_files_maintained() {
	local dir=$1 f s
	while read -r f; do
		s=$(./scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats --subsystem -f "$f" | grep -v "@" |
			grep -v '^THE REST$' | paste -sd, || true)
		[ -n "$s" ] || { echo "$f: no MAINTAINERS entry covers it"; return 1; }
		echo "  new file $f: $s"
	done < <(sed 's|^|'"$dir"'/|' "$dir/series" |
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
	(cd "$tree" && checkpatch_all "$TOP/patches/$TEST_BASE" ./scripts/checkpatch.pl "${extra[@]}" &&
		new_files_maintained "$TOP/patches/$TEST_BASE")
	echo "  with scripts/checkpatch.pl --strict --no-signoff --codespell of the $TEST_BASE tree${extra[*]:+ (${extra[*]})}"
}

# checkpatch_612_dir: a directory with the checkpatch.pl of the 6.12 base
# and the files it reads, unpacked from the base's source once.
checkpatch_612_dir() {
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
	echo "$dir"
}

# The Assisted-by: tag must also pass the 6.12 checkpatch (stable trees).
t_checkpatch_612() {
	local dir
	dir=$(checkpatch_612_dir)
	# Without a tree it cannot know the kernel's typedefs: Elf_Sym would
	# be CamelCase to it.
	# Run from its own directory: in a git work tree checkpatch leaves a
	# .checkpatch-camelcase.git.* cache file in the current directory.
	(cd "$dir" && checkpatch_all "$TOP/patches/$TEST_BASE" "$dir/scripts/checkpatch.pl" --no-tree --ignore CAMELCASE)
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
