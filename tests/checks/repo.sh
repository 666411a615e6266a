# shellcheck shell=bash
# The repository itself: its scripts and its refusal of bad input.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# The parsers of guest output on fixture logs (tests/parsers.sh); each
# fixture is a case of the summary.
t_parsers() {
	"$TOP/tests/parsers.sh"
	echo "  $(wc -l <"$CASES") fixtures of tests/fixtures/ parsed as expected"
	! grep -q '^FAIL' "$CASES"
}

# The parsers can fail: each mutant of tests/mutants/harness/ breaks one,
# and the fixture cases it names must then fail (tests/mutants.sh --harness).
t_parser_mutants() {
	"$TOP/tests/mutants.sh" --harness
	echo "  $(grep -c '^PASS' "$CASES") of $(wc -l <"$CASES") mutants of the parsers caught by the fixtures"
	! grep -q '^FAIL' "$CASES"
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

# The private apt sources take their mirrors from the machine's own: with
# an apt configuration that has no source at all (APT_CONFIG), a fetch in
# an empty cache stops at once and says what to set.
t_mirror_from_apt() {
	local tmp err
	tmp=$(mktemp -d)
	printf 'Dir::Etc::SourceList "/dev/null";\nDir::Etc::SourceParts "%s/none";\n' "$tmp" >"$tmp/apt.conf"
	if err=$(APT_CONFIG=$tmp/apt.conf FTRACE_MODSYMS_CACHE=$tmp/cache "$TOP/scripts/fetch-base.sh" "$(mainline_base)" 2>&1); then
		rm -rf "$tmp"
		echo "a fetch with no apt source passed"
		return 1
	fi
	rm -rf "$tmp"
	grep -q 'no apt source of this machine names bookworm' <<<"$err" || { echo "unclear error: $err"; return 1; }
	echo "  with no apt source: $(grep 'error:' <<<"$err" | cut -c1-100)..."
	[ ! -r "$CACHE/apt/sources.list" ] || echo "  the cache's private sources: $(awk '{ print $3, $4 }' "$CACHE/apt/sources.list" | paste -sd';')"
}

# A user who is not root, with every package there, passes the package
# step (the scripts need root only to install).
t_deps_non_root() {
	local out as=() dir="$TOP"
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || { echo "no setpriv (util-linux)"; return 1; }
		as=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
		# The clone may sit where that user cannot read (/root): a copy
		# of the two scripts it runs, in a directory anyone can read.
		dir=$(mktemp -d)
		mkdir "$dir/scripts"
		cp "$TOP/scripts/install-deps.sh" "$TOP/scripts/lib.sh" "$dir/scripts/"
		chmod -R a+rX "$dir"
	fi
	out=$("${as[@]}" "$dir/scripts/install-deps.sh" 2>&1) || {
		[ "$dir" = "$TOP" ] || rm -rf "$dir"
		echo "install-deps.sh refused a non-root user with every package installed: $out"
		return 1
	}
	[ "$dir" = "$TOP" ] || rm -rf "$dir"
	echo "  as uid $([ ${#as[@]} -eq 0 ] && id -u || echo 65534): $out"
}
