# SPDX-License-Identifier: GPL-2.0-only
"""The rule engine: the catalogue of rules and campaigns (rules), running them
on a tree with spatch or a text editor (apply, text_rules, kconfig) and putting
back the layout spatch loses (layout)."""
