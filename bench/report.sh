#!/usr/bin/env bash
# Turn the benchmark's raw times into a markdown table and a PNG plot.
#
# Usage: bench/report.sh RESULTS_DIR
#   RESULTS_DIR/times.tsv: kernel module functions run insmod_us enable_us
#   RESULTS_DIR/facts.md:  kernel, config, accel, runs (written by run.sh)
# Writes RESULTS_DIR/results.md and RESULTS_DIR/plot.png. The summary
# itself (median and range) is scripts/stats.sh.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# shellcheck source=scripts/stats.sh
. "$TOP/scripts/stats.sh"

table() {
	local sum=$1 k m f n mi a b me c d si se
	echo "| module | functions | kernel | runs | insmod ms, median (min-max) | ftrace_module_enable() ms, median (min-max) | insmod speed-up | enable speed-up |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|"
	while IFS=$'\t' read -r k m f n mi a b me c d; do
		si=$(awk -F'\t' -v m="$m" '$1 == "stock" && $2 == m { print $5 }' "$sum")
		se=$(awk -F'\t' -v m="$m" '$1 == "stock" && $2 == m { print $8 }' "$sum")
		printf '| %s | %s | %s | %s | %s (%s-%s) | %s (%s-%s) | %s | %s |\n' \
			"$m" "$f" "$k" "$n" "$(ms "$mi")" "$(ms "$a")" "$(ms "$b")" \
			"$(ms "$me")" "$(ms "$c")" "$(ms "$d")" \
			"$(awk -v s="$si" -v x="$mi" 'BEGIN { printf(s ? "%.0fx" : "-", s / (x ? x : 1)) }')" \
			"$(awk -v s="$se" -v x="$me" 'BEGIN { printf(s ? "%.0fx" : "-", s / (x ? x : 1)) }')"
	done < <(awk -F'\t' -v OFS='\t' '{ r = $1 == "stock" ? 0 : $1 == "patched" ? 1 : 2; print r, $0 }' "$sum" |
		sort -t$'\t' -k4,4n -k1,1n | cut -f2-)
}

plot() {
	local sum=$1 png=$2 dir k
	dir=$(dirname "$png")
	for k in stock patched variant; do
		awk -F'\t' -v k="$k" '$1 == k { print $3, $5 / 1000, $8 / 1000 }' "$sum" | sort -n >"$dir/plot-$k.dat"
	done
	gnuplot <<EOG || die "gnuplot failed"
set terminal pngcairo size 1100,480 font ",10"
set output "$png"
set multiplot layout 1,2 title "Loading a module with N functions (qemu, see results.md)"
set logscale y
set key top left
set xlabel "functions in the module"
set grid
set ylabel "insmod, ms (median)"
plot "$dir/plot-stock.dat" using 1:2 with linespoints title "stock", \
     "$dir/plot-patched.dat" using 1:2 with linespoints title "patched", \
     "$dir/plot-variant.dat" using 1:2 with linespoints title "sort-all variant"
set ylabel "ftrace\\\\_module\\\\_enable(), ms (median)"
plot "$dir/plot-stock.dat" using 1:3 with linespoints title "stock", \
     "$dir/plot-patched.dat" using 1:3 with linespoints title "patched", \
     "$dir/plot-variant.dat" using 1:3 with linespoints title "sort-all variant"
unset multiplot
EOG
	rm -f "$dir"/plot-*.dat
}

main() {
	[ $# -eq 1 ] || die "usage: $0 RESULTS_DIR"
	local dir=$1
	[ -s "$dir/times.tsv" ] || die "no $dir/times.tsv"
	need_cmd gnuplot gawk
	summarize "$dir/times.tsv" >"$dir/summary.tsv"
	{
		cat "$dir/facts.md"
		echo
		table "$dir/summary.tsv"
	} >"$dir/results.md"
	plot "$dir/summary.tsv" "$dir/plot.png"
}

[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
