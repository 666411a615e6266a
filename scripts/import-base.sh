#!/usr/bin/env bash
# Import the Debian kernel source of one base into a cached git repository
# (one commit, tagged "base") and print the repository's path.
#
# Usage: scripts/import-base.sh BASE
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

import() {
	local base=$1 repo=$2 tarball tmp ver
	ver=$(base_info "$base" version)
	tarball=$("$TOP/scripts/fetch-base.sh" "$base")
	tmp=$repo.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	log "unpacking $(basename "$tarball")"
	tar -xf "$tarball" -C "$tmp" --strip-components=1 ||
		{ rm -rf "$tmp"; die "cannot unpack $tarball"; }
	log "importing the $base source into git"
	(
		cd "$tmp"
		git init -q -b base-import
		git config user.name "Base Import"
		git config user.email "base-import@localhost"
		git config gc.auto 0
		# Debian's tarball carries a .gitignore that ignores everything.
		git add -f -A
		GIT_AUTHOR_DATE="2000-01-01 00:00:00 +0000" GIT_COMMITTER_DATE="2000-01-01 00:00:00 +0000" \
			git commit -q -m "Debian $(base_info "$base" pkg) $ver"
		git tag base
	) || { rm -rf "$tmp"; die "git import of $tarball failed"; }
	mv "$tmp" "$repo"
}

main() {
	[ $# -eq 1 ] || die "usage: $0 BASE"
	local base=$1 repo
	need_cmd git tar xz
	repo=$CACHE/git/$base
	mkdir -p "$CACHE/git"
	# The import commit names the package version: re-import when ./bases
	# names another one, and drop the work trees made from the old import.
	if [ "$(git -C "$repo" log -1 --format=%s base 2>/dev/null)" != \
		"Debian $(base_info "$base" pkg) $(base_info "$base" version)" ]; then
		rm -rf "$repo" "$CACHE/trees/$base"
		import "$base" "$repo"
	fi
	printf '%s\n' "$repo"
}

main "$@"
