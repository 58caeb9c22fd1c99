# SPDX-License-Identifier: GPL-2.0-only
# y2038 toolkit: see README.md.  Every target installs what it needs first.

KVER ?= 6.1
JOBS ?=
DISTCC ?=
JOBS_ARG = $(if $(JOBS),--jobs $(JOBS))
DISTCC_ARG = $(if $(DISTCC),--distcc)
SIGNOFF ?=
IDENTITY = $(if $(SIGNOFF),--signoff "$(SIGNOFF)",--draft)
Y2038 := tools/y2038
export KVER SIGNOFF

.PHONY: help deps run tree apply hazards series build boot report compare coccicheck hazard-recall convert corpus legacy-patch test test-rules lint check-dkms bench

help:
	@echo "y2038 toolkit: Coccinelle conversions of kernel time code to the y2038-safe scalar form"
	@echo
	@echo "  make run     KVER=6.1   deps + tree + apply + hazards + series + build + boot + report"
	@echo "                         -> generated-patches/linux-<version>/ (review.html, REVIEW.md)"
	@echo "  make test               deps + lint + every test (rule triples, bad inputs, series drift, build, QEMU boots)"
	@echo "  make test-rules         only the Coccinelle test triples in cocci/ (seconds)"
	@echo "  make lint               pyflakes3, mypy (tools/, tests/) and no function in tools/ over 60 lines"
	@echo "  make deps               install missing Debian packages (apt-get, as root)"
	@echo "  make tree|apply|hazards|series|build|boot|report  one stage (see tools/y2038 --help)"
	@echo "  make compare OLD=6.1 NEW=6.12  sites gone upstream / kept / new, patches mapped across versions"
	@echo "  make coccicheck         the series' coccinelle-rule/ posting (its rules in scripts/coccinelle/api/"
	@echo "                         form) checked by make coccicheck MODE=report: every site the series"
	@echo "                         converts reported before it, none after"
	@echo "  make hazard-recall            what the 6.1 hazard report flags of the 32-bit seconds 6.12 widened -> docs/hazard-recall.md"
	@echo "  make convert DIR=d OUT=o  the whole catalogue on out-of-tree code: d is read, o gets the"
	@echo "                         converted copy, y2038-convert.patch and y2038-convert.txt (what is left)"
	@echo "                         MIN_KERNEL=X.Y: oldest kernel the result must build on (drops dead compat"
	@echo "                         branches); default: read from the code's version conditionals"
	@echo "                         VERIFY=1: build original and result against 6.1 and 6.12, x86_64 and arm"
	@echo "                         COMPAT_HEADER=0: no y2038-compat.h (fallbacks for the range's older"
	@echo "                         kernels); what they lack is then left as it was"
	@echo "  make check-dkms         convert the eight Debian 12 DKMS packages and build them against 6.1"
	@echo "                         and 6.12 (x86_64, arm); writes the table of docs/verification.md"
	@echo "                         to <work>/dkms-table.md; converts every other DKMS package with old"
	@echo "                         time code (never a traceback) into <work>/dkms-every.md"
	@echo "  make corpus             gather tests/corpus/manifest.tsv's real legacy modules into CORPUS_DIR"
	@echo "                         (/work/scratch/corpus), convert each (range read, then MIN_KERNEL=4.19)"
	@echo "                         and print old time-API uses before/left per half (HALF=working|held-out)"
	@echo "  make legacy-patch       regenerate boot-tests/legacy-modules/y2038-convert.{patch,txt}"
	@echo "  make bench              apply vs coccicheck and the floor, build cold vs ccache, boot per arch,"
	@echo "                         make run cold / unchanged / one rule changed (ONLY=apply|build|boot|run)"
	@echo "                         on a fresh 2-core machine (issue 29, docs/performance.md): make run cold"
	@echo "                         496 s and 537 s (two benches, empty caches; 1140 s on a slower machine"
	@echo "                         of the same kind), again unchanged 3 s, one rule changed 34-35 s;"
	@echo "                         boot to verdict 34-37 s x86_64, 34-35 s arm"
	@echo
	@echo "Variables: KVER=6.1|6.12|/path/to/linux.tar.xz|/path/to/tree  JOBS=n (default: the cores)"
	@echo "           DISTCC=1: build and boot compile through distcc (hosts: DISTCC_HOSTS or ~/.distcc/hosts)"
	@echo "           SIGNOFF='Name <email>': your identity on the series (you sign the DCO); without it"
	@echo "           the series is a DRAFT (DRAFT in every subject, no Signed-off-by)"
	@echo "           PRISTINE=always|never (make boot): the pristine kernel too, or never; default: only"
	@echo "           when the patched kernel fails something, to tell a regression from a known failure"
	@echo "           Y2038_WORK=dir (default ~/.cache/y2038)"
	@echo "           Y2038_CCACHE_DIR=dir (default <work>/ccache; one cache for several work dirs)"
	@echo
	@echo "Exit status: 0 ok, 1 a check failed (build, boot, convert --verify) or an error, 2 usage error,"
	@echo "             3 partial (convert: some files converted with problems)"
	@echo "Read on: README.md (the front page), docs/ (stages, rules, postings, verification, convert,"
	@echo "         performance, testing)"

deps:
	$(Y2038) deps --kver $(KVER)

run:
	$(Y2038) run --kver $(KVER) $(JOBS_ARG) $(DISTCC_ARG) $(IDENTITY)

tree: deps
	$(Y2038) tree --kver $(KVER)

apply:
	$(Y2038) apply --kver $(KVER) $(JOBS_ARG)

hazards:
	$(Y2038) hazards --kver $(KVER) $(JOBS_ARG)

series: tree apply hazards
	$(Y2038) series --kver $(KVER) $(IDENTITY)

build: deps
	$(Y2038) build --kver $(KVER) $(JOBS_ARG) $(DISTCC_ARG)

boot: deps
	$(Y2038) boot --kver $(KVER) $(JOBS_ARG) $(DISTCC_ARG) $(if $(PRISTINE),--pristine $(PRISTINE))

report:
	$(Y2038) report --kver $(KVER)

# the coccinelle-rule/ posting's rules run by the tree's own make coccicheck, before and after the series
coccicheck:
	$(Y2038) coccicheck --kver $(KVER) $(JOBS_ARG)

OLD ?= 6.1
NEW ?= 6.12
compare:
	$(Y2038) compare $(OLD) $(NEW)
	$(Y2038) report --kver $(NEW)

# docs/hazard-recall.md: what the hazards report flags of the 32-bit seconds 6.12 widened and 6.1 still holds
hazard-recall:
	$(Y2038) tree --kver 6.1
	$(Y2038) tree --kver 6.12
	tools/hazard_recall.py

convert:
	@test -n "$(DIR)" -a -n "$(OUT)" || { echo "usage: make convert DIR=legacy-driver OUT=converted"; exit 1; }
	$(Y2038) convert $(DIR) --out $(OUT) $(JOBS_ARG) $(if $(MIN_KERNEL),--min-kernel $(MIN_KERNEL)) $(if $(filter 0,$(COMPAT_HEADER)),--no-compat-header) $(if $(VERIFY),--verify)

corpus:
	tools/corpus score $(if $(HALF),--half $(HALF)) --min-kernel $(or $(MIN_KERNEL),4.19) $(JOBS_ARG)

LEGACY_OUT := $(or $(Y2038_WORK),$(HOME)/.cache/y2038)/legacy-converted
legacy-patch:
	$(Y2038) convert boot-tests/legacy-modules/src --out $(LEGACY_OUT) $(JOBS_ARG)
	cp $(LEGACY_OUT)/y2038-convert.patch $(LEGACY_OUT)/y2038-convert.txt boot-tests/legacy-modules/

test: lint
	$(Y2038) deps --kver $(KVER) --tests
	tests/run_tests.py

test-rules:
	tests/run_tests.py test_rules.py

lint:
	tools/lint

check-dkms:
	$(Y2038) deps --kver 6.1 --tests
	Y2038_DKMS=all Y2038_DKMS_KVERS=6.1,6.12 tests/run_tests.py test_dkms.py

ONLY ?= apply,build,boot
bench: deps
	tools/bench --kver $(KVER) $(JOBS_ARG) $(DISTCC_ARG) --only $(ONLY)
