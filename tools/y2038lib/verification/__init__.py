# SPDX-License-Identifier: GPL-2.0-only
"""The verification side: every patch built in order (build),
the kernels booted in QEMU across 2038 (boot, boot_suites, legacy), and
out-of-tree modules built against the packaged kernels (module_verify, dkms)."""
