# shellcheck shell=bash
# The one way this project reports test results (tests/run.sh,
# tests/debug.sh, tests/mutants.sh). Source it; do not run it.
#
# Each result is one line, "PASS  name", "FAIL  name" or "SKIP  name",
# with detail after it; the last line of a run is
# "N passed, N failed, N skipped" (result_summary).

R_PASSED=0
R_FAILED=0
R_SKIPPED=0

# result STATUS NAME [DETAIL]: count and print one result. STATUS is PASS,
# FAIL or SKIP (any other status counts as FAIL).
result() {
	local status=$1 name=$2 detail=${3:-}
	case $status in
	PASS) R_PASSED=$((R_PASSED + 1)) ;;
	SKIP) R_SKIPPED=$((R_SKIPPED + 1)) ;;
	*) status=FAIL R_FAILED=$((R_FAILED + 1)) ;;
	esac
	printf '%-5s %s%s\n' "$status" "$name" "${detail:+: $detail}"
}

# result_cases PREFIX FILE: one result per line of FILE, each
# "STATUS<TAB>name<TAB>detail" (scripts/kunit-cases.py,
# scripts/ftracetest-cases.sh, the debug verdicts).
result_cases() {
	local prefix=$1 file=$2 status name detail
	[ -s "$file" ] || return 0
	while IFS=$'\t' read -r status name detail; do
		result "$status" "$prefix$name" "$detail"
	done <"$file"
}

# case_result STATUS NAME [DETAIL]: a result of a script that also runs
# as a check of tests/run.sh: handed to the runner through $CASES there
# (it reports it), reported here otherwise.
case_result() {
	if [ -n "${CASES:-}" ]; then
		printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$CASES"
	else
		result "$@"
	fi
}

# result_summary: the closing line; false when anything failed.
result_summary() {
	echo "$R_PASSED passed, $R_FAILED failed, $R_SKIPPED skipped"
	[ "$R_FAILED" -eq 0 ]
}

# export_cases PREFIX FILE: hand the cases of FILE to the runner (tests/run.sh
# reports each one after the check): append them to $CASES, each name
# prefixed with PREFIX.
export_cases() {
	[ -n "${CASES:-}" ] || return 0
	[ -s "$2" ] || return 0
	awk -F '\t' -v p="$1" 'BEGIN { OFS = "\t" } { $2 = p $2; print }' "$2" >>"$CASES"
}
