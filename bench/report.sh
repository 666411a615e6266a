#!/usr/bin/env bash
# Turn the benchmark's raw times into a markdown table and a PNG plot.
#
# Usage: bench/report.sh RESULTS_DIR
#   RESULTS_DIR/times.tsv: kernel module functions run insmod_us enable_us
#   RESULTS_DIR/facts.md:  kernel, config, accel, runs (written by run.sh)
# Writes RESULTS_DIR/results.md and RESULTS_DIR/plot.png. Sourced (by
# tests/parsers.sh), it only defines its functions.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# summary TSV: kernel module functions n med_insmod min max med_enable min max
summarize() {
	sort -k1,1 -k3,3n -k5,5n "$1" | gawk -F'\t' '
		function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		function flush() {
			if (key == "") return
			asort(ins); asort(en)
			printf "%s\t%s\t%d\t%d\t%.0f\t%d\t%d\t%.0f\t%d\t%d\n", k, m, f, n,
				med(ins, n), ins[1], ins[n], med(en, n), en[1], en[n]
			delete ins; delete en; n = 0
		}
		{
			if ($1 "/" $2 != key) { flush(); key = $1 "/" $2; k = $1; m = $2; f = $3 }
			n++; ins[n] = $5; en[n] = $6
		}
		END { flush() }'
}

ms() { awk -v u="$1" 'BEGIN { v = u / 1000; printf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }'; }

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
