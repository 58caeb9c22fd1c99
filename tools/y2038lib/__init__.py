# SPDX-License-Identifier: GPL-2.0-only
"""The y2038 toolkit: tree -> matches -> series (-> builds -> boots -> report)."""
