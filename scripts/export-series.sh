#!/usr/bin/env bash
# Export a series from a kernel work tree to patches/BASE with git
# format-patch: the commits from tag "base" to HEAD, a cover letter made
# from cover/BASE.txt (first line: subject; then the body), and the quilt
# series file. Nothing in patches/ is edited by hand.
#
# Usage: scripts/export-series.sh TREE BASE [NAME UPSTREAM]
#   NAME UPSTREAM: a series that applies on top of patches/BASE (UPSTREAM,
#   a ref of TREE, is where the first series ends): its commits from
#   UPSTREAM to HEAD go to patches/BASE/NAME, its cover letter from
#   cover/BASE-NAME.txt.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

main() {
	[ $# -eq 2 ] || [ $# -eq 4 ] || die "usage: $0 TREE BASE [NAME UPSTREAM]"
	local tree=$1 base=$2 out cover branch from=base
	out=$TOP/patches/$base
	cover=$TOP/cover/$base.txt
	if [ $# -eq 4 ]; then
		[[ $3 =~ ^[a-z0-9-]+$ ]] || die "bad series name '$3'"
		out=$out/$3
		cover=$TOP/cover/$base-$3.txt
		from=$4
		git -C "$tree" rev-parse -q --verify "$from^{commit}" >/dev/null ||
			die "$tree has no ref $from"
	fi
	[ -r "$cover" ] || die "no cover letter text $cover"
	branch=$(git -C "$tree" symbolic-ref --short HEAD) ||
		die "$tree: HEAD is not on a branch"
	git -C "$tree" config "branch.$branch.description" "$(cat "$cover")"
	# Only this series' files: a series on top of it has a directory here.
	mkdir -p "$out"
	rm -f "$out"/*.patch "$out/series"
	# Recipients: what get_maintainer.pl of the tree says for the patches.
	local tmp to=() cc=() who
	tmp=$(mktemp -d)
	git -C "$tree" format-patch -q -o "$tmp" "$from..HEAD" >/dev/null ||
		die "git format-patch failed in $tree"
	while read -r who; do
		case $who in
		*@vger.kernel.org*) cc+=("--cc=$who") ;;
		?*) to+=("--to=$who") ;;
		esac
	done < <(cd "$tree" && ./scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats "$tmp"/*.patch)
	rm -rf "$tmp"
	# The first base in bases is mainline; the others are stable trees.
	local prefix=PATCH
	[ "$base" = "$(mainline_base)" ] || prefix="PATCH $base.y"
	# The cover letter is from whoever wrote the last patch, not from the
	# identity the work tree happens to have (the import's "Base Import").
	local name email
	name=$(git -C "$tree" log -1 --format=%an)
	email=$(git -C "$tree" log -1 --format=%ae)
	git -C "$tree" -c user.name="$name" -c user.email="$email" \
		format-patch -q --cover-letter --cover-from-description=auto \
		--subject-prefix="$prefix" \
		--no-signature --zero-commit --thread=shallow "${to[@]}" "${cc[@]}" \
		-o "$out" "$from..HEAD" >/dev/null ||
		die "git format-patch failed in $tree"
	local p
	for p in "$out"/*.patch; do
		case ${p##*/} in 0000-cover-letter.patch) ;; *) echo "${p##*/}" ;; esac
	done >"$out/series"
	log "exported $(wc -l <"$out/series") patches to $out"
}

main "$@"
