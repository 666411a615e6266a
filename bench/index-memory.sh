#!/usr/bin/env bash
# The permanent memory the second series' by-address index would take in
# a distribution's modules: every module of Debian's linux-modules package
# of a base, counted from its symtab and laid out by bench/index-memory.py
# with the loader's rules, under the config of Debian's kernel.
#
# Usage: bench/index-memory.sh [--base BASE] [--flavour FLAVOUR] [--out DIR]
#   --base     a base of ./bases (default: the mainline one); the binary
#              packages of its version are used
#   --flavour  Debian's kernel flavour (default: amd64)
#   --out      results directory (default: results/lookup/index-memory/
#              for the mainline base, results/BASE/lookup/index-memory/
#              for another)
#
# Downloads linux-modules-ABI-FLAVOUR and linux-base-ABI-FLAVOUR (its
# config) into the cache (about 120 MB), through the project's private apt
# configuration. Writes DIR/README.md: the facts, the real modules of
# bench/real.sh one per line, and the totals over every module.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=scripts/apt.sh
. "$TOP/scripts/apt.sh"
# shellcheck source=scripts/splat.sh
. "$TOP/scripts/splat.sh"
# shellcheck source=bench/lib.sh
. "$TOP/bench/lib.sh"

# unpack DEB DIR: DEB's files in DIR, unpacked once (DIR appears whole or
# not at all).
unpack() {
	local deb=$1 dir=$2 tmp
	[ -d "$dir" ] && return 0
	tmp=$(mktemp -d "$dir.XXXXXX")
	dpkg-deb -x "$deb" "$tmp" || { rm -rf "$tmp"; die "cannot unpack $deb"; }
	mv "$tmp" "$dir"
}

# config_flags CONFIG: bench/index-memory.py's options for a kernel config.
config_flags() {
	grep -qx 'CONFIG_KALLSYMS_ALL=y' "$1" || echo --no-kallsyms-all
	grep -qx 'CONFIG_MODULE_UNLOAD=y' "$1" || echo --no-module-unload
}

# real_modules MODDIR: the files of the modules of REAL_MODULES under
# MODDIR (a module's file name may have - where its name has _).
real_modules() {
	local m f
	for m in $REAL_MODULES; do
		f=$(find "$1" -name "${m//_/[-_]}.ko" -o -name "${m//_/[-_]}.ko.*")
		[ -n "$f" ] || die "no $m.ko in $1"
		[ "$(wc -l <<<"$f")" -eq 1 ] || die "more than one $m.ko in $1"
		echo "$f"
	done
}

# report BASE PKGS CONFIG MODDIR: DIR/README.md's text.
report() {
	local base=$1 pkgs=$2 config=$3 moddir=$4 flags=() real
	[ -r "$config" ] || die "no kernel config at $config"
	mapfile -t flags < <(config_flags "$config")
	real=$(real_modules "$moddir")
	echo "# The second series' index: its memory in Debian's modules"
	echo
	echo "- packages: $pkgs (base $base)"
	echo "- config: Debian's ($(grep -E '^CONFIG_(KALLSYMS_ALL|MODULE_UNLOAD|LIVEPATCH)=' "$config" | paste -sd' '))"
	echo "- method: bench/index-memory.py, from each module file: the core symtab entries add_kallsyms() copies and, of those, the ones the index reserves a slot for (may_index(); per-cpu symbols get one but are never indexed); 4 bytes each where there are at least 32, kept while the module is loaded (index bytes). The module laid out as the loader does (four core regions, each rounded to pages): core bytes are what /sys/module/NAME/coresize would show, index pages the growth of the data region the index causes. A model of the kernel's rules, not a load: on the benchmark's kvm.ko and modsyms_2000.ko it gives the coresize and its growth that the guests measured"
	echo "- date: $(date -u +%F); commit: $(git -C "$TOP" rev-parse --short HEAD)$(git -C "$TOP" diff --quiet HEAD || echo -dirty)"
	echo
	echo "The modules of bench/real.sh:"
	echo
	"$TOP/bench/index-memory.py" "${flags[@]}" - <<<"$real" |
		awk -F'\t' 'BEGIN { OFS = " | " } { $1 = $1; print "| " $0 " |" } NR == 1 { s = "|"; for (i = 1; i <= NF; i++) s = s (i == 1 ? "---|" : "---:|"); print s }'
	echo
	echo "Every module of the package, as if all were loaded:"
	echo
	find "$moddir" -name '*.ko' -o -name '*.ko.*' | sort |
		"$TOP/bench/index-memory.py" "${flags[@]}" --summary - |
		awk -F'\t' '{ print "- " $1 ": " $2 }'
}

main() {
	local base flavour=amd64 out="" abi ver dir pkg deb pkgs=""
	base=$(mainline_base)
	while [ $# -gt 0 ]; do
		case $1 in
		--base) base=${2:?--base needs a value}; shift 2 ;;
		--flavour) flavour=${2:?--flavour needs a value}; shift 2 ;;
		--out) out=${2:?--out needs a value}; shift 2 ;;
		*) die "unknown argument '$1' (see the head of $0)" ;;
		esac
	done
	need_cmd apt-get dpkg-deb flock python3
	ver=$(base_info "$base" version)
	abi=$(base_info "$base" pkg)
	abi=${abi#linux-source-}
	[ -n "$out" ] || if [ "$base" = "$(mainline_base)" ]; then
		out=$TOP/results/lookup/index-memory
	else
		out=$TOP/results/$base/lookup/index-memory
	fi
	dir=$CACHE/debian-modules/$base/${ver//[:~]/_}
	mkdir -p "$dir" "$out"
	lock_fetch
	for pkg in "linux-base-$abi-$flavour" "linux-modules-$abi-$flavour"; do
		deb=$(fetch_deb "$pkg" "$ver" amd64 "$dir")
		unpack "$deb" "$dir/$pkg"
		pkgs+="${pkgs:+, }$pkg $ver"
	done
	exec 8>&-
	report "$base" "$pkgs" "$dir/linux-base-$abi-$flavour/usr/lib/modules/$abi-$flavour/config" \
		"$dir/linux-modules-$abi-$flavour/usr/lib/modules/$abi-$flavour" >"$out/README.md.tmp" ||
		{ rm -f "$out/README.md.tmp"; die "no report written"; }
	mv "$out/README.md.tmp" "$out/README.md"
	cat "$out/README.md"
}

main "$@"
