# shellcheck shell=bash
# The documentation patch.
# Sourced by tests/run.sh; each t_* function is one check (tests/checks/plan.sh).

# The documentation patch: make htmldocs of Documentation/trace (Sphinx)
# at the base and with the series; no warning may name a file the series
# touches there.
t_htmldocs() {
	local tree ref obj n files
	tree=$("$TOP/scripts/make-tree.sh" "$TEST_BASE" walk)
	files=$(git -C "$tree" diff --name-only base series -- Documentation/trace)
	[ -n "$files" ] || { echo "the series touches nothing in Documentation/trace"; return 1; }
	for ref in base series; do
		obj=$CACHE/build/$TEST_BASE/htmldocs-$ref
		git -C "$tree" checkout -q --detach "$ref"
		rm -rf "$obj"
		mkdir -p "$obj"
		PATH=/usr/bin:$PATH make -C "$tree" O="$obj" SPHINXDIRS=trace htmldocs >"$obj/build.log" 2>&1 ||
			{ tail -n 20 "$obj/build.log"; return 1; }
		[ -s "$obj/Documentation/output/trace/ftrace.html" ] || { echo "$ref: no ftrace.html"; return 1; }
		n=$(grep -c -F "$files" "$obj/build.log" || true)
		echo "  $ref: make SPHINXDIRS=trace htmldocs, $(grep -c 'WARNING' "$obj/build.log" || true) warnings in all, $n naming $(tr '\n' ' ' <<<"$files")"
		[ "$n" -eq 0 ] || { grep -F "$files" "$obj/build.log"; return 1; }
	done
}
