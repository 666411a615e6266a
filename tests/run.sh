#!/usr/bin/env bash
# Run the project's checks and end with "N passed, N failed, N skipped".
#
# Usage: tests/run.sh [--tier quick|full] [-k PATTERN] [--list]
#
#   (no option)      the quick tier: the test command of the README and CI
#   --tier full      the longer tier: every base in full and the checks too
#                    costly for the quick tier (with what they need)
#   -k PATTERN       only the checks, of any tier, whose id matches the extended regular
#                    expression PATTERN, and the checks they need
#   --list           print the checks (id, tier, what it needs, title) of
#                    the selection and stop
#
# Each check is one function of tests/checks/*.sh and prints what it
# checked; tests/checks/plan.sh lists them in order with their tier and the
# checks they need. A check whose prerequisite did not pass is a SKIP with
# that reason. A check's log is kept in $CACHE/test-logs/ and its tail is
# shown when it fails; cases a check reports (KUnit cases, ftracetest
# tests, debug scenarios) count one by one.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/result.sh
. "$TOP/scripts/result.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"

C_IDS=()
declare -A C_TIER=() C_NEEDS=() C_TITLE=() C_CMD=() C_BASE=() C_STATUS=() C_WANT=() C_EARLY=()

# def ID TIER NEEDS TITLE CMD...: declare a check (tests/checks/plan.sh).
# NEEDS is a space-separated list of check ids declared before it. CMD
# runs with TEST_BASE set to the base named by the id's "BASE:" prefix.
def() {
	local id=$1 tier=$2 needs=$3 title=$4 n
	shift 4
	[ -z "${C_TIER[$id]:-}" ] || die "plan: check $id declared twice"
	case $tier in quick | full) ;; *) die "plan: $id: unknown tier '$tier'" ;; esac
	for n in $needs; do
		[ -n "${C_TIER[$n]:-}" ] || die "plan: $id needs $n, which is not declared before it"
	done
	C_IDS+=("$id")
	C_TIER[$id]=$tier
	C_NEEDS[$id]=$needs
	C_TITLE[$id]=$title
	C_BASE[$id]=${id%%:*}
	C_CMD[$id]=$(printf '%q ' "$@")
}

# early ID AFTER: ID, a check declared before (a whole kernel build whose
# tree AFTER makes, and which nothing else changes), also starts in the
# background as soon as AFTER passes, at idle priority, so that it takes
# only the CPU time the checks in between leave idle (one-process steps:
# checkpatch, the per-patch builds, one-vCPU guests, links). When its turn
# comes it waits for that run and then runs as usual (a build then finds
# its work done): its result and log are those of that second run.
early() {
	if [ -z "${C_TIER[$1]:-}" ] || [ -z "${C_TIER[$2]:-}" ]; then
		die "plan: early $1 after $2: both must be declared first"
	fi
	C_EARLY[$2]+=" $1"
}

# want ID: select ID and, recursively, what it needs.
want() {
	local n
	[ -z "${C_WANT[$1]:-}" ] || return 0
	C_WANT[$1]=1
	for n in ${C_NEEDS[$1]}; do
		want "$n"
	done
}

select_checks() {
	local tier=$1 pattern=$2 id
	for id in "${C_IDS[@]}"; do
		if [ -n "$pattern" ]; then
			grep -qE -- "$pattern" <<<"$id" && want "$id"
		elif [ "$tier" = full ] || [ "${C_TIER[$id]}" = quick ]; then
			want "$id"
		fi
	done
	for id in "${C_IDS[@]}"; do
		[ -n "${C_WANT[$id]:-}" ] && return 0
	done
	die "no check matches '$pattern' (tests/run.sh --list)"
}

list_checks() {
	local id
	for id in "${C_IDS[@]}"; do
		[ -n "${C_WANT[$id]:-}" ] || continue
		printf '%-34s %-5s %s%s\n' "$id" "${C_TIER[$id]}" "${C_TITLE[$id]}" \
			"${C_NEEDS[$id]:+ (needs ${C_NEEDS[$id]// /, })}"
	done
}

# prefetch: the work trees of the selected bases other than the mainline
# one that are not made yet are made in the background, at low priority,
# once the mainline source is fetched, while the mainline checks build (fetch, import and git am are mostly one
# process each, the kernel builds use both CPUs). The first check of such
# a base waits for it (run_check).
declare -A PREFETCH=()
prefetch() {
	local b mainline
	mainline=$(mainline_base)
	for b in $(for id in "${C_IDS[@]}"; do [ -z "${C_WANT[$id]:-}" ] || echo "${C_BASE[$id]}"; done | sort -u); do
		case $b in any | "$mainline") continue ;; esac
		[ ! -e "$CACHE/trees/$b/src/.git" ] || continue
		# A process group of its own, as the early jobs: stop_background.
		set -m
		nice -n 10 "$TOP/scripts/make-tree.sh" "$b" >"$LOGS/prefetch-$b.log" 2>&1 &
		PREFETCH[$b]=$!
		set +m
	done
}

# check_env ID CASES: what a check's command gets: TEST_BASE, the base its
# id names, and CASES, the file for the cases it reports.
check_env() {
	export TEST_BASE=${C_BASE[$1]} CASES=$2
}

# start_early ID: ID's command in the background (early), under SCHED_IDLE
# (nice 19 where chrt cannot set it), its output in $LOGS/early-ID.log,
# in a process group of its own (set -m), so that stop_background can stop
# all of it. No tree is restored after it: the checks in the foreground
# own them.
declare -A EARLY=()
start_early() {
	local id=$1 logf
	logf=$LOGS/early-${id//[^A-Za-z0-9_.-]/_}.log
	set -m
	(
		set -e
		chrt -i -p 0 "$BASHPID" >/dev/null 2>&1 || renice -n 19 -p "$BASHPID" >/dev/null
		check_env "$id" /dev/null
		eval "${C_CMD[$id]}"
	) >"$logf" 2>&1 &
	EARLY[$id]=$!
	set +m
}

# stop_background: on exit, the background jobs still running (the early
# ones and the prefetches; a run cut short, by a failure or a signal) stop
# with it rather than hold the cache's lock.
stop_background() {
	local p
	for p in "${EARLY[@]}" "${PREFETCH[@]}"; do
		kill -- "-$p" 2>/dev/null || true
	done
}

# run_check ID: run one check in a subshell (set -e holds in it), its
# output in its log; report it, then the cases it wrote to $CASES.
run_check() {
	local id=$1 n logf rc=0 t0 title
	title="${C_BASE[$id]}: ${C_TITLE[$id]}"
	if [ -n "${PREFETCH[${C_BASE[$id]}]:-}" ]; then
		# Its failure is not reported here: the check that needs the tree
		# makes it again and says what went wrong.
		wait "${PREFETCH[${C_BASE[$id]}]}" || true
		unset "PREFETCH[${C_BASE[$id]}]"
	fi
	if [ -n "${EARLY[$id]:-}" ]; then
		# Its failure is not reported here either: the run below says.
		wait "${EARLY[$id]}" || true
		unset "EARLY[$id]"
	fi
	for n in ${C_NEEDS[$id]}; do
		if [ "${C_STATUS[$n]:-}" != PASS ]; then
			C_STATUS[$id]=SKIP
			result SKIP "$title" "needs $n, which did not pass (${C_STATUS[$n]:-not run})"
			return 0
		fi
	done
	logf=$LOGS/${id//[^A-Za-z0-9_.-]/_}.log
	check_env "$id" "${logf%.log}.cases"
	rm -f "$CASES"
	t0=$SECONDS
	set +e
	(
		set -e
		trap 'restore_trees "$TEST_BASE"' EXIT
		eval "${C_CMD[$id]}"
	) >"$logf" 2>&1
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		C_STATUS[$id]=PASS
		result PASS "$title" "$((SECONDS - t0)) s"
		grep '^  ' "$logf" || true
		for n in ${C_EARLY[$id]:-}; do
			[ -z "${C_WANT[$n]:-}" ] || start_early "$n"
		done
	else
		C_STATUS[$id]=FAIL
		result FAIL "$title" "exit $rc after $((SECONDS - t0)) s, log $logf"
		tail -n 30 "$logf" | sed 's/^/      /'
	fi
	result_cases "${C_BASE[$id]}: " "$CASES"
}

main() {
	local tier=quick pattern="" list=0 id first
	while [ $# -gt 0 ]; do
		case $1 in
		--tier) tier=${2:-}; shift 2 || die "--tier needs quick or full" ;;
		-k) pattern=${2:-}; shift 2 || die "-k needs a pattern" ;;
		--list) list=1; shift ;;
		*) die "unknown argument '$1' (see the head of $0)" ;;
		esac
	done
	case $tier in quick | full) ;; *) die "unknown tier '$tier' (quick or full)" ;; esac
	for f in "$TOP"/tests/checks/*.sh; do
		# shellcheck source=/dev/null
		. "$f"
	done
	plan
	select_checks "$tier" "$pattern"
	if [ $list -eq 1 ]; then
		list_checks
		return 0
	fi
	lock_cache
	trap stop_background EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	LOGS=$CACHE/test-logs
	mkdir -p "$LOGS"
	"$TOP/scripts/install-deps.sh"
	# The background fetches begin once the mainline source is in: until
	# then they would only slow its unpacking and import down.
	first=$(mainline_base):fetch:source
	[ -n "${C_WANT[$first]:-}" ] || prefetch
	for id in "${C_IDS[@]}"; do
		[ -n "${C_WANT[$id]:-}" ] || continue
		run_check "$id"
		[ "$id" != "$first" ] || prefetch
	done
	echo
	echo "tests took $((SECONDS / 60)) min $((SECONDS % 60)) s"
	result_summary
}

main "$@"
