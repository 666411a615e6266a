# shellcheck shell=bash
# Debian packages through an apt configuration private to this project
# (its own sources, lists and archive cache under $CACHE/apt); /etc/apt is
# never touched. sid and experimental are reached that way. The mirrors
# are the machine's own: the site its apt sources use for bookworm (the
# Debian archive, which also carries sid and experimental) and for
# bookworm-security, as apt-get indextargets reports them;
# FTRACE_MODSYMS_MIRROR and FTRACE_MODSYMS_SECURITY_MIRROR override them.
# Source it after scripts/lib.sh; do not run it.

APTDIR=$CACHE/apt

apt_private() {
	apt-get -q \
		-o Dir::Etc::SourceList="$APTDIR/sources.list" \
		-o Dir::Etc::SourceParts="$APTDIR/sources.list.d" \
		-o Dir::Etc::Preferences="$APTDIR/preferences" \
		-o Dir::Etc::PreferencesParts="$APTDIR/preferences.d" \
		-o Dir::State::Lists="$APTDIR/lists" \
		-o Dir::Cache="$APTDIR/cache" \
		-o APT::Default-Release= \
		"$@"
}

# mirror SUITE: the site of the machine's apt sources for SUITE.
mirror() {
	# shellcheck disable=SC2016 # apt's own $(FIELD) placeholders
	apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
		awk -v s="$1" '$2 == s { print $1; exit }'
}

setup_apt() {
	local archive security
	archive=${FTRACE_MODSYMS_MIRROR:-$(mirror bookworm)}
	security=${FTRACE_MODSYMS_SECURITY_MIRROR:-$(mirror bookworm-security)}
	[ -n "$archive" ] ||
		die "no apt source of this machine names bookworm: set FTRACE_MODSYMS_MIRROR to a Debian archive mirror"
	[ -n "$security" ] ||
		die "no apt source of this machine names bookworm-security: set FTRACE_MODSYMS_SECURITY_MIRROR to a Debian security mirror"
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" \
		"$APTDIR/sources.list.d" "$APTDIR/preferences.d"
	: >"$APTDIR/preferences"
	cat >"$APTDIR/sources.list" <<EOS
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive sid main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive experimental main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $security bookworm-security main
EOS
	[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] ||
		die "debian-archive-keyring is not installed (scripts/install-deps.sh)"
	# Lists are refreshed at most once a day; the stamp is written only
	# after an update that succeeded.
	if ! cmp -s "$APTDIR/sources.list" "$APTDIR/sources.used" ||
		[ -z "$(find "$APTDIR" -maxdepth 1 -name updated.stamp -mtime -1 -print -quit)" ]; then
		log "updating the project's private apt lists"
		rm -f "$APTDIR/updated.stamp"
		apt_private update >"$APTDIR/update.log" 2>&1 || {
			tail -n 20 "$APTDIR/update.log" >&2
			die "apt-get update of the private lists failed (is the Debian archive reachable?)"
		}
		cp "$APTDIR/sources.list" "$APTDIR/sources.used"
		touch "$APTDIR/updated.stamp"
	fi
}

# fetch_deb PKG VERSION ARCH DIR: download PKG=VERSION (a package of
# ARCH: amd64, all) into DIR unless it is there, and print its path.
# Download into a temporary directory and move the .deb into place only
# once apt-get has finished: an interrupted run leaves nothing to trust.
fetch_deb() {
	local pkg=$1 ver=$2 arch=$3 out=$4 deb tmp
	deb=$out/${pkg}_${ver//:/%3a}_$arch.deb
	if [ ! -s "$deb" ]; then
		setup_apt
		log "downloading $pkg=$ver"
		tmp=$(mktemp -d "$out/download.XXXXXX")
		(cd "$tmp" && apt_private download "$pkg=$ver") >"$out/download.log" 2>&1 || {
			rm -rf "$tmp"
			tail -n 20 "$out/download.log" >&2
			die "could not download $pkg=$ver from the Debian archive (is that version still there? see ./bases)"
		}
		[ -s "$tmp/$(basename "$deb")" ] || { rm -rf "$tmp"; die "download of $pkg=$ver left no $(basename "$deb")"; }
		mv "$tmp/$(basename "$deb")" "$deb"
		rm -rf "$tmp"
	fi
	printf '%s\n' "$deb"
}

# lock_fetch: one fetch at a time per cache, on file descriptor 8: the
# private apt lists are shared (tests/run.sh fetches the stable bases in
# the background).
lock_fetch() {
	exec 8>"$CACHE/fetch.lock"
	flock 8 || die "cannot lock $CACHE/fetch.lock"
}
