# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config file for ppc64le pseries, for trees whose
# tools/testing/kunit/qemu_configs has no powerpcle.py (6.12 and older:
# their "powerpc" is big-endian). scripts/kunit-run.sh passes it when the
# tree lacks its own; the values are those of the newer trees' file.

from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(
	linux_arch='powerpc',
	kconfig='\n'.join([
		'CONFIG_PPC64=y',
		'CONFIG_CPU_LITTLE_ENDIAN=y',
		'CONFIG_HVC_CONSOLE=y',
	]),
	qemu_arch='ppc64',
	kernel_path='vmlinux',
	kernel_command_line='console=ttyS0',
	extra_qemu_params=['-M', 'pseries', '-cpu', 'power8'])
