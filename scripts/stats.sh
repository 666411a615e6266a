# shellcheck shell=bash
# The summary of load times, for the benchmark's report (bench/report.sh)
# and the checks that print times (tests/checks/kvm.sh). Source it; do
# not run it.

# summarize TSV: one line per kernel and module of TSV (kernel module
# functions run value...: insmod, ftrace_module_enable() and, where the
# benchmark measures them, ftrace_module_init() microseconds and index
# bytes): kernel module functions n, then for each value column its median,
# min and max.
summarize() {
	sort -k1,1 -k3,3n -k2,2 -k5,5n "$1" | gawk -F'\t' '
		function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		function flush(   c) {
			if (key == "") return
			printf "%s\t%s\t%d\t%d", k, m, f, n
			for (c = 5; c <= nc; c++) {
				asort(v[c])
				printf "\t%.0f\t%d\t%d", med(v[c], n), v[c][1], v[c][n]
			}
			printf "\n"
			delete v; n = 0
		}
		{
			if ($1 "/" $2 != key) { flush(); key = $1 "/" $2; k = $1; m = $2; f = $3; nc = NF }
			n++
			for (c = 5; c <= nc; c++) v[c][n] = $c
		}
		END { flush() }'
}

# ms US: microseconds US in milliseconds, to three significant digits or so.
ms() { awk -v u="$1" 'BEGIN { v = u / 1000; printf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }'; }
