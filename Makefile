# SPDX-License-Identifier: GPL-2.0-only
# y2038 toolkit: see README.md.  Every target installs what it needs first.

KVER ?= 6.1
JOBS ?= $(shell nproc)
SIGNOFF ?= y2038 toolkit <y2038-toolkit@example.org>
Y2038 := tools/y2038
export KVER SIGNOFF

.PHONY: help deps run tree apply hazards series build boot test test-rules bench-apply

help:
	@echo "y2038 toolkit: Coccinelle conversions of kernel time code to the y2038-safe scalar form"
	@echo
	@echo "  make run     KVER=6.1   deps + tree + apply + hazards + series + build + boot -> generated-patches/"
	@echo "  make test               deps + every test (rule triples, bad inputs, series drift, build, QEMU boots)"
	@echo "  make test-rules         only the Coccinelle test triples in cocci/ (seconds)"
	@echo "  make deps               install missing Debian packages (apt-get, as root)"
	@echo "  make tree|apply|hazards|series|build|boot  one stage (see tools/y2038 --help)"
	@echo "  make bench-apply        apply stage against make coccicheck, same rules and tree (minutes)"
	@echo
	@echo "Variables: KVER=6.1|6.12|/path/to/linux.tar.xz|/path/to/tree  JOBS=$(JOBS)"
	@echo "           SIGNOFF='Name <email>'  Y2038_WORK=dir (default ~/.cache/y2038)"

deps:
	$(Y2038) deps --kver $(KVER)

run:
	$(Y2038) run --kver $(KVER) --jobs $(JOBS) --signoff "$(SIGNOFF)"

tree: deps
	$(Y2038) tree --kver $(KVER)

apply:
	$(Y2038) apply --kver $(KVER) --jobs $(JOBS)

hazards:
	$(Y2038) hazards --kver $(KVER) --jobs $(JOBS)

series: tree apply hazards
	$(Y2038) series --kver $(KVER) --signoff "$(SIGNOFF)"

build: deps
	$(Y2038) build --kver $(KVER) --jobs $(JOBS)

boot: deps
	$(Y2038) boot --kver $(KVER) --jobs $(JOBS)

test: deps
	tests/run_tests.py

test-rules:
	tests/run_tests.py test_rules.py

bench-apply: tree
	tools/bench-apply $(KVER)
