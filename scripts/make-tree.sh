#!/usr/bin/env bash
# Make (or reuse) the work tree of one base and put the series on branch
# "series" (base + patches/BASE, applied with git am). Print the tree's path.
#
# Usage: scripts/make-tree.sh BASE
#   FTRACE_MODSYMS_PATCHES=DIR takes the series from DIR/BASE (tests).
#
# One work tree per base, whatever is built from it: stock (tag "base") and
# patched kernels then share source paths, so ccache hits across them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

worktree() {
	local repo=$1 tree=$2
	if [ ! -e "$tree/.git" ]; then
		rm -rf "$tree"
		git -C "$repo" worktree prune
		git -C "$repo" worktree add -q --detach "$tree" base >&2 ||
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

# Apply the series on a new branch "series" from "base", unless the branch
# already holds exactly these patch files (then leave mtimes alone).
apply_series() {
	local base=$1 tree=$2 dir sum old f
	dir=${FTRACE_MODSYMS_PATCHES:-$TOP/patches}/$base
	sum=$(series_files "$dir" | xargs cat | sha256sum | cut -c1-64)
	old=$(git -C "$tree" config --get ftrace-modsyms.series-sum || true)
	if [ "$sum" = "$old" ] && git -C "$tree" rev-parse -q --verify series >/dev/null; then
		return 0
	fi
	git -C "$tree" config --unset ftrace-modsyms.series-sum || true
	git -C "$tree" checkout -q -B series base || die "cannot make branch series"
	while read -r f; do
		git -C "$tree" am -q --keep-cr "$f" >&2 || {
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			git -C "$tree" config --unset ftrace-modsyms.series-sum || true
			die "patch $(basename "$f") does not apply on base $base"
		}
	done < <(series_files "$dir")
	git -C "$tree" config ftrace-modsyms.series-sum "$sum"
}

main() {
	[ $# -eq 1 ] || die "usage: $0 BASE"
	local base=$1 repo tree
	need_cmd git sha256sum
	repo=$("$TOP/scripts/import-base.sh" "$base")
	tree=$CACHE/trees/$base/src
	mkdir -p "$(dirname "$tree")"
	worktree "$repo" "$tree"
	apply_series "$base" "$tree"
	printf '%s\n' "$tree"
}

main "$@"
