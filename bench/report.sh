#!/usr/bin/env bash
# Turn the benchmark's raw times into a markdown table and a PNG plot.
#
# Usage: bench/report.sh RESULTS_DIR [UNIT [SIZE LOAD]]
#   RESULTS_DIR/times.tsv: kernel module functions run insmod_us enable_us
#                          init_us index_bytes (one line per load)
#   RESULTS_DIR/facts.md:  kernel, config, accel, runs (written by run.sh)
#   SIZE, LOAD: what the third column counts and what loaded the module,
#   for the headings (default "functions" and "insmod"; bench/real.sh:
#   "records" and "modprobe").
#   RESULTS_DIR/lookups.tsv (optional): kernel module functions run op us,
#                          and kernel module functions 1 mem coresize
#                          initsize kallsyms-lines (bench/run.sh's lookups)
# Writes RESULTS_DIR/results.md and RESULTS_DIR/plot.png (and, with
# lookups.tsv, a second table and RESULTS_DIR/lookups.png). The summary
# itself (median and range) is scripts/stats.sh. UNIT names what a
# thousandth of the times is (default "ms"; "M instructions" for a run
# under qemu's -icount, where one microsecond is a thousand instructions).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# shellcheck source=scripts/stats.sh
. "$TOP/scripts/stats.sh"

# kernels SUMMARY: the kernels of SUMMARY, stock and patched first.
kernels() {
	cut -f1 "$1" | sort -u | awk '{ print ($1 == "stock" ? 0 : $1 == "patched" ? 1 : 2) "\t" $1 }' |
		sort -k1,1n -k2,2 | cut -f2
}

# cell MED MIN MAX: "median (min-max)" in UNIT, or "-" if not measured.
cell() {
	[ -n "$1" ] || { echo -; return; }
	echo "$(ms "$1") ($(ms "$2")-$(ms "$3"))"
}

# ratio R: R thousandths as a ratio, to three significant digits or so.
ratio() { awk -v r="$1" 'BEGIN { v = r / 1000; printf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v) }'; }

table() {
	local sum=$1 k m f n mi a b me c d ii e g by y z r rl rh si se
	echo "| module | $SIZE | kernel | runs | $LOAD $UNIT, median (min-max) | ftrace_module_enable() $UNIT | ftrace_module_init() $UNIT | index bytes | enable / init | $LOAD speed-up | enable speed-up |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	# shellcheck disable=SC2034 # y, z: the index's min and max
	while IFS=$'\t' read -r k m f n mi a b me c d ii e g by y z r rl rh; do
		si=$(awk -F'\t' -v m="$m" '$1 == "stock" && $2 == m { print $5 }' "$sum")
		se=$(awk -F'\t' -v m="$m" '$1 == "stock" && $2 == m { print $8 }' "$sum")
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
			"$m" "$f" "$k" "$n" "$(cell "$mi" "$a" "$b")" "$(cell "$me" "$c" "$d")" \
			"$(cell "$ii" "$e" "$g")" "${by:--}" "$(ratio "$r") ($(ratio "$rl")-$(ratio "$rh"))" \
			"$(awk -v s="$si" -v x="$mi" 'BEGIN { printf(s ? "%.0fx" : "-", s / (x ? x : 1)) }')" \
			"$(awk -v s="$se" -v x="$me" 'BEGIN { printf(s ? "%.0fx" : "-", s / (x ? x : 1)) }')"
	done < <(kernels "$sum" | awk -F'\t' -v OFS='\t' 'NR == FNR { r[$1] = FNR; next } { print r[$1], $0 }' - "$sum" |
		sort -t$'\t' -k4,4n -k1,1n | cut -f2-)
}

# plot_pair PNG TITLE YLABEL1 YLABEL2 DAT...: two log-log panels against
# the module's SIZE, one line per DAT file (DIR/PREFIX-KERNEL.dat: SIZE,
# then the two medians), titled by its KERNEL; the DAT files are removed.
plot_pair() {
	local png=$1 title=$2 y1=$3 y2=$4 d k s1="" s2=""
	shift 4
	for d in "$@"; do
		k=${d##*/}
		k=${k#*-}
		k=${k%.dat}
		s1="$s1${s1:+, }\"$d\" using 1:2 with linespoints title \"$k\""
		s2="$s2${s2:+, }\"$d\" using 1:3 with linespoints title \"$k\""
	done
	gnuplot <<EOG || die "gnuplot failed"
set terminal pngcairo size 1100,480 font ",10"
set output "$png"
set multiplot layout 1,2 title "$title (qemu, see results.md)"
set logscale xy
set key top left
set xlabel "$SIZE in the module"
set grid
set ylabel "$y1, $UNIT (median)"
plot $s1
set ylabel "$y2, $UNIT (median)"
plot $s2
unset multiplot
EOG
	rm -f "$@"
}

# plot SUMMARY PNG: load (LOAD) and ftrace_module_enable() medians
# against the module's SIZE, one line per kernel, log-log (a slope of 1 is
# O(N), of 2 O(N x S)).
plot() {
	local sum=$1 png=$2 dir k dats=()
	dir=$(dirname "$png")
	while read -r k; do
		awk -F'\t' -v k="$k" '$1 == k { print $3, $5 / 1000, $8 / 1000 }' "$sum" | sort -n >"$dir/plot-$k.dat"
		dats+=("$dir/plot-$k.dat")
	done < <(kernels "$sum")
	plot_pair "$png" "Loading a module with N $SIZE" "$LOAD" "ftrace\\\\_module\\\\_enable()" "${dats[@]}"
}

# build: index_kallsyms() in a load (guest/bench.sh, index_builds), on the
# second series only.
LOOKUP_OPS="read glob mod mod-tiny kprobe build"

# lookup_summary TSV: summarize of the timed operations of lookups.tsv,
# one line per kernel, module and operation (module "NAME:OP").
lookup_summary() {
	summarize <(awk -F'\t' -v OFS='\t' '$5 != "mem" { print $1, $2 ":" $5, $3, $4, $6 }' "$1")
}

# lookup_table LSUM SUM TSV: the lookups' table: per module and kernel,
# the median of each operation (LSUM), the insmod median (SUM, the first
# table's summary), the index build's median as a share of patched's
# insmod median, the module's core size and lines in /proc/kallsyms, and
# what the index adds to the core size: lookup's core size less patched's
# (TSV, lookups.tsv).
lookup_table() {
	local lsum=$1 sum=$2 tsv=$3 o
	printf '| module | %s | kernel' "$SIZE"
	for o in $LOOKUP_OPS; do printf ' | %s %s' "$o" "$UNIT"; done
	echo " | read speed-up | mod speed-up | $LOAD $UNIT | build / patched's $LOAD | core bytes | index bytes (share of core) | /proc/kallsyms lines |"
	printf '|---|---:|---|'
	for o in $LOOKUP_OPS; do printf -- '---:|'; done
	echo "---:|---:|---:|---:|---:|---:|---:|"
	gawk -F'\t' -v ops="$LOOKUP_OPS" '
		function ms(u,   v) { v = u / 1000; return sprintf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }
		function speedup(s, x) { return s && x ? sprintf(s / x >= 10 ? "%.0fx" : "%.2fx", s / x) : "-" }
		FILENAME == ARGV[1] { split($2, a, ":"); med[$1, a[1], a[2]] = $5; lo[$1, a[1], a[2]] = $6; hi[$1, a[1], a[2]] = $7
			if (!((a[1]) in fn)) { fn[a[1]] = $3; order[++nm] = a[1] }; seen[$1] = 1; next }
		FILENAME == ARGV[2] { ins[$1, $2] = $5; next }
		$5 == "mem" { core[$1, $2] = $6; lines[$1, $2] = $8; next }
		END {
			nk = split("stock patched lookup", ks, " "); no = split(ops, os, " ")
			# modules by size
			for (i = 1; i <= nm; i++) for (j = i + 1; j <= nm; j++) if (fn[order[j]] < fn[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
			for (i = 1; i <= nm; i++) {
				m = order[i]
				for (j = 1; j <= nk; j++) {
					k = ks[j]; if (!(k in seen)) continue
					printf "| %s | %s | %s", m, fn[m], k
					for (o = 1; o <= no; o++) {
						x = med[k, m, os[o]]
						printf " | %s", x == "" ? "-" : ms(x) (lo[k, m, os[o]] != hi[k, m, os[o]] ? " (" ms(lo[k, m, os[o]]) "-" ms(hi[k, m, os[o]]) ")" : "")
					}
					r = med["stock", m, "read"]; d = med["stock", m, "mod"]
					printf " | %s | %s", speedup(r, med[k, m, "read"]), speedup(d, med[k, m, "mod"])
					b = med[k, m, "build"]
					printf " | %s | %s | %s", (k, m) in ins ? ms(ins[k, m]) : "-",
						b != "" && ins["patched", m] ? sprintf("%.1f%%", 100 * b / ins["patched", m]) : "-", core[k, m]
					if (k == "lookup" && core["patched", m] != "")
						printf " | %d (%.1f%%)", core[k, m] - core["patched", m], 100 * (core[k, m] - core["patched", m]) / core["patched", m]
					else
						printf " | -"
					printf " | %s |\n", lines[k, m]
				}
			}
		}' "$lsum" "$sum" "$tsv"
}

# lookup_plot LSUM PNG: reading available_filter_functions and writing
# "*:mod:NAME" against the module's SIZE, one line per kernel, log-log.
lookup_plot() {
	local lsum=$1 png=$2 dir k dats=()
	dir=$(dirname "$png")
	while read -r k; do
		awk -F'\t' -v k="$k" '$1 == k { split($2, a, ":"); if (a[2] == "read") r[$3] = $5 / 1000; if (a[2] == "mod") m[$3] = $5 / 1000 }
			END { for (f in r) print f, r[f], m[f] }' "$lsum" | sort -n >"$dir/lplot-$k.dat"
		dats+=("$dir/lplot-$k.dat")
	done < <(kernels "$lsum")
	plot_pair "$png" "Naming a module's records after its load: N $SIZE" \
		"reading available\\\\_filter\\\\_functions" "writing *:mod:NAME to set\\\\_ftrace\\\\_filter" "${dats[@]}"
}

main() {
	[[ $# -ge 1 && $# -le 4 && $# -ne 3 ]] || die "usage: $0 RESULTS_DIR [UNIT [SIZE LOAD]]"
	local dir=$1
	UNIT=${2:-ms}
	SIZE=${3:-functions}
	LOAD=${4:-insmod}
	[ -s "$dir/times.tsv" ] || die "no $dir/times.tsv"
	need_cmd gnuplot gawk
	# Each load's ftrace_module_enable() time over its ftrace_module_init()
	# time, in thousandths: the same code on every kernel, so the ratio
	# cancels most of the host's drift between and within boots.
	summarize <(awk -F'\t' -v OFS='\t' '{ print $0, ($7 > 0 ? 1000 * $6 / $7 : 0) }' "$dir/times.tsv") >"$dir/summary.tsv"
	[ ! -s "$dir/lookups.tsv" ] || lookup_summary "$dir/lookups.tsv" >"$dir/lookup-summary.tsv"
	{
		cat "$dir/facts.md"
		echo
		table "$dir/summary.tsv"
		if [ -s "$dir/lookups.tsv" ]; then
			echo
			echo "Naming the module's records after its load (lookups; index bytes: lookup's core size less patched's):"
			echo
			lookup_table "$dir/lookup-summary.tsv" "$dir/summary.tsv" "$dir/lookups.tsv"
		fi
	} >"$dir/results.md"
	plot "$dir/summary.tsv" "$dir/plot.png"
	[ ! -s "$dir/lookups.tsv" ] || lookup_plot "$dir/lookup-summary.tsv" "$dir/lookups.png"
}

[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
