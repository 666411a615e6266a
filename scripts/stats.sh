# shellcheck shell=bash
# The summary of load times, for the benchmark's report (bench/report.sh)
# and the checks that print times (tests/checks/kvm.sh). Source it; do
# not run it.

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

# ms US: microseconds US in milliseconds, to three significant digits or so.
ms() { awk -v u="$1" 'BEGIN { v = u / 1000; printf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }'; }
