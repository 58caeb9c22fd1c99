# SPDX-License-Identifier: GPL-2.0-only
"""The posting side: hazards and their triage, the patch series and who it goes
to (series, maintainers, posting_rules), the review page (report) and two
series side by side (compare)."""
