#!/usr/bin/env bash
# Make (or reuse) the work tree of one base and put the series on branch
# "series" (base + patches/BASE, applied with git am). Print the tree's path.
#
# Usage: scripts/make-tree.sh BASE [NAME]
#   NAME: another work tree of the same base, trees/BASE/NAME, made at the
#   series if it is new and otherwise left at the ref its user put it on
#   (detached HEAD: the series branch stays checked out in src). Builds that
#   need another ref than the series (stock: "stock"; walking the patches:
#   "walk"; each benchmark variant, the mutants) each keep their own, so
#   that no checkout touches the files of another build: a build directory
#   stays up to date, and a second run rebuilds nothing.
#   NAME "lookup" is the tree of the second series: branch "lookup" holds
#   the series + patches/BASE/$LOOKUP_SERIES (scripts/lib.sh).
#   NAME "fix" is the tree of the stock x86 fix: branch "fix" holds the
#   base + the patches of fixes/MAINLINE (fix_dir, scripts/lib.sh).
#   FTRACE_MODSYMS_PATCHES=DIR takes the series from DIR/BASE (tests).
#   FTRACE_MODSYMS_TREES=DIR makes the work tree in DIR/BASE/src, from a
#   repository of its own (DIR/BASE/repo, a shared clone of the import),
#   instead of the cache's trees/ (tests that must not disturb the shared
#   tree or its series branch).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# worktree REPO TREE START: the work tree TREE, made at START when new;
# an old one is only cleaned (an aborted am, local changes).
worktree() {
	local repo=$1 tree=$2 start=$3
	if [ ! -e "$tree/.git" ]; then
		rm -rf "$tree"
		git -C "$repo" worktree prune
		git -C "$repo" worktree add -q --detach "$tree" "$start" >&2 ||
			die "cannot create work tree $tree"
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" reset -q --hard ||
		die "cannot reset $tree"
}

series_files() {
	local dir=$1 p
	[ -r "$dir/series" ] || die "no series file in $dir"
	while read -r p; do
		case $p in '' | '#'*) continue ;; esac
		[ -r "$dir/$p" ] || die "$dir/series lists $p, which is missing"
		printf '%s\n' "$dir/$p"
	done <"$dir/series"
}

# series_sum DIR: the checksum of the patch files DIR/series lists.
series_sum() {
	series_files "$1" | xargs cat | sha256sum | cut -c1-64
}

# check_series BASE REPO DIR: every patch of DIR applies, in order, on
# tag base of REPO, tried in an index of its own (no work tree is made
# or touched): the first that does not is named before any checkout.
check_series() {
	local base=$1 repo=$2 dir=$3 tmp f
	tmp=$(mktemp -d)
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree base ||
		{ rm -rf "$tmp"; die "cannot read tag base of $repo"; }
	while read -r f; do
		GIT_INDEX_FILE=$tmp/index git -C "$repo" apply --cached "$f" >&2 || {
			rm -rf "$tmp"
			die "patch $(basename "$f") does not apply on base $base"
		}
	done < <(series_files "$dir")
	rm -rf "$tmp"
}

# am_all TREE DIR PREFIX WHERE: git am, at TREE's HEAD, every patch of
# DIR/series in order; the first that does not apply is named (PREFIX, its
# file name) as not applying on WHERE, and nothing is left half applied.
# The caller's sum stays unset: a second run applies again.
am_all() {
	local tree=$1 dir=$2 f
	while read -r f; do
		git -C "$tree" am -q --keep-cr "$f" >&2 || {
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			die "patch $3$(basename "$f") does not apply on $4"
		}
	done < <(series_files "$dir")
}

# Apply the series on a new branch "series" from "base", unless the branch
# already holds exactly these patch files (then leave mtimes alone).
apply_series() {
	local base=$1 tree=$2 dir sum old
	dir=${FTRACE_MODSYMS_PATCHES:-$TOP/patches}/$base
	sum=$(series_sum "$dir")
	old=$(git -C "$tree" config --get ftrace-modsyms.series-sum || true)
	if [ "$sum" = "$old" ] && git -C "$tree" rev-parse -q --verify series >/dev/null; then
		return 0
	fi
	git -C "$tree" config --unset ftrace-modsyms.series-sum || true
	git -C "$tree" checkout -q -B series base || die "cannot make branch series"
	am_all "$tree" "$dir" "" "base $base"
	git -C "$tree" config ftrace-modsyms.series-sum "$sum"
}

# patch_branch TREE NAME START DIR SUM PREFIX WHERE: branch NAME of TREE,
# START + every patch of DIR/series (am_all, which names a patch that does
# not apply as PREFIX+file on WHERE), made again unless SUM is the one it
# was made for.
patch_branch() {
	local tree=$1 name=$2 start=$3 dir=$4 sum=$5 key=ftrace-modsyms.$2-sum
	if [ "$(git -C "$tree" config --get "$key" || true)" = "$sum" ] &&
		git -C "$tree" rev-parse -q --verify "$name" >/dev/null; then
		return 0
	fi
	git -C "$tree" config --unset "$key" || true
	git -C "$tree" checkout -q --detach "$start"
	am_all "$tree" "$dir" "$6" "$7"
	git -C "$tree" branch -q -f "$name" HEAD
	git -C "$tree" config "$key" "$sum"
}

# apply_lookup BASE TREE: branch "lookup" of TREE, the series + the second
# series (patches/BASE/$LOOKUP_SERIES), made again when either changed.
apply_lookup() {
	local base=$1 tree=$2 dir
	dir=${FTRACE_MODSYMS_PATCHES:-$TOP/patches}/$base/$LOOKUP_SERIES
	[ -d "$dir" ] || die "base $base has no second series ($dir)"
	patch_branch "$tree" lookup series "$dir" \
		"$(git -C "$tree" rev-parse series)-$(series_sum "$dir")" \
		"$LOOKUP_SERIES/" "the series of $base"
}

# apply_fix TREE: branch "fix" of TREE, the base + the patches of
# fix_dir (scripts/lib.sh), made again when they changed.
apply_fix() {
	local tree=$1 dir
	dir=$(fix_dir)
	patch_branch "$tree" fix base "$dir" "$(series_sum "$dir")" \
		"fixes/$(basename "$dir")/" "the base"
}

main() {
	[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: $0 BASE [NAME]"
	local base=$1 name=${2:-src} repo tree trees dir
	need_cmd git sha256sum
	[[ $name =~ ^[a-z0-9-]+$ ]] || die "bad work tree name '$name'"
	repo=$("$TOP/scripts/import-base.sh" "$base")
	trees=${FTRACE_MODSYMS_TREES:-$CACHE/trees}
	if [ -n "${FTRACE_MODSYMS_TREES:-}" ]; then
		# Branches and config belong to a repository, not to a work
		# tree: a scratch area gets a repository of its own, so that its
		# series branch is not the shared tree's.
		[ -d "$trees/$base/repo" ] ||
			git clone -q --shared --no-checkout "$repo" "$trees/$base/repo" >&2 ||
			die "cannot clone $repo into $trees/$base/repo"
		repo=$trees/$base/repo
	fi
	tree=$trees/$base/src
	dir=${FTRACE_MODSYMS_PATCHES:-$TOP/patches}/$base
	# One make-tree.sh at a time per base: each resets the series tree,
	# and git fails rather than waits on a work tree's index.lock (a
	# check and a build tests/run.sh started early both make trees).
	mkdir -p "$trees"
	exec 8>"$trees/$base.lock"
	flock -w 600 8 || die "$trees/$base.lock: another make-tree.sh of $base held it for 10 minutes"
	# A series not applied yet is first tried without a work tree, so that
	# one that does not apply costs no checkout.
	[ "$(series_sum "$dir")" = "$(git -C "$repo" config --get ftrace-modsyms.series-sum || true)" ] ||
		check_series "$base" "$repo" "$dir"
	mkdir -p "$(dirname "$tree")"
	worktree "$repo" "$tree" base
	apply_series "$base" "$tree"
	if [ "$name" != src ]; then
		tree=$trees/$base/$name
		worktree "$repo" "$tree" series
		case $name in
		lookup) apply_lookup "$base" "$tree" ;;
		fix) apply_fix "$tree" ;;
		esac
	fi
	printf '%s\n' "$tree"
}

main "$@"
