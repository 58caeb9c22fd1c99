# SPDX-License-Identifier: GPL-2.0-only
"""Out-of-tree conversion: the catalogue on a driver directory (convert), the
driver's own time types (driver_types), the kernels it supports
(kernel_versions), which changes every one of them can take
(api_availability) and the fallbacks for the older ones (compat_fallbacks)."""
