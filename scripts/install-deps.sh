#!/usr/bin/env bash
# Install, with apt-get, the Debian packages the pipeline needs.
# Packages that are already installed are left alone. A user who is not
# root passes when every package is there, and otherwise is told which
# are missing (to be installed by root with this script). (busybox-static
# replaces Debian's dynamic busybox, as apt decides.)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

PKGS=(
	# fetch and import the base
	ca-certificates debian-archive-keyring xz-utils git
	# build the kernel
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio
	kmod ccache python3 perl rsync file
	# build matrix and hygiene checks
	gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu clang-19 lld-19 llvm-19
	sparse
	# guest
	qemu-system-x86 qemu-system-ppc qemu-system-data busybox-static
	# checks and plots
	codespell gnuplot-nox gawk shellcheck
	# checkpatch.pl runs scripts/spdxcheck.py on new files
	python3-ply python3-git
	# make htmldocs of the documentation patch
	python3-sphinx python3-yaml
)

main() {
	local missing=() p
	for p in "${PKGS[@]}"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		log "all ${#PKGS[@]} packages already installed"
		return 0
	fi
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${missing[*]}; as root, run scripts/install-deps.sh (or apt-get install them)"
	log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -q update >/tmp/ftrace-modsyms-apt-update.log 2>&1 || {
		tail -n 20 /tmp/ftrace-modsyms-apt-update.log >&2
		die "apt-get update failed"
	}
	apt-get -q install -y --no-install-recommends "${missing[@]}" \
		>/tmp/ftrace-modsyms-apt-install.log 2>&1 || {
		tail -n 30 /tmp/ftrace-modsyms-apt-install.log >&2
		die "apt-get install of ${missing[*]} failed"
	}
}

main "$@"
