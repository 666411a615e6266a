#!/usr/bin/env bash
# Fetch the Debian linux-source package of one base into the cache and
# print the path of the kernel source tarball it ships.
#
# Usage: scripts/fetch-base.sh BASE      (BASE is a first column of ./bases)
#
# The package comes through the project's private apt configuration
# (scripts/apt.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/apt.sh
. "$TOP/scripts/apt.sh"

extract_tarball() {
	local deb=$1 out=$2 tmp tarball
	tarball=$(find "$out" -maxdepth 1 -name 'linux-source-*.tar.*' -print -quit)
	if [ -z "$tarball" ]; then
		tmp=$(mktemp -d "$out/extract.XXXXXX")
		dpkg-deb -x "$deb" "$tmp" || { rm -rf "$tmp"; die "cannot unpack $deb"; }
		tarball=$(find "$tmp/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' -print -quit)
		[ -n "$tarball" ] || { rm -rf "$tmp"; die "$deb ships no linux-source tarball"; }
		mv "$tarball" "$out/"
		tarball=$out/$(basename "$tarball")
		rm -rf "$tmp"
	fi
	printf '%s\n' "$tarball"
}

main() {
	[ $# -eq 1 ] || die "usage: $0 BASE"
	local base=$1 pkg ver out deb
	pkg=$(base_info "$base" pkg)
	ver=$(base_info "$base" version)
	need_cmd apt-get dpkg-deb flock
	# One directory per package version: a new version in ./bases never
	# reuses the source of an old one.
	out=$CACHE/src/$base/${ver//[:~]/_}
	mkdir -p "$out"
	lock_fetch
	deb=$(fetch_deb "$pkg" "$ver" all "$out")
	extract_tarball "$deb" "$out"
}

main "$@"
