# SPDX-License-Identifier: GPL-2.0-only
"""Command line: one subcommand per stage, `run` for all of them."""
import argparse
import os
import signal
import sys
from pathlib import Path

from .engine import apply, rules
from .verification import fix_proofs, boot, boot_prebuild, build, module_verify
from .posting import coccicheck_rule, compare, hazards, report, series
from .outoftree import convert, kernel_versions
from . import deps, tree
from .common import Y2038Error
from .records import Matches


# Exit status: what a script or CI job running a stage needs to tell apart.
OK = 0
FAILED = 1  # a check failed (a boot verdict FAIL, convert --verify), or an error stopped the stage
USAGE = 2  # the command line is wrong (argparse's own status)
PARTIAL = 3  # convert: every file written, some rule could not finish on some file
EXIT_STATUS = f"""exit status:
  {OK}  done: every check passed
  {FAILED}  failed: a check failed (boot verdict FAIL, convert --verify breaking a build), or an error
     stopped the stage ("y2038: error: ..." on stderr says what to do)
  {USAGE}  usage: the command line is wrong
  {PARTIAL}  partial: convert wrote every file, but some rule could not finish on some file (listed)"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="y2038", description=(
        "Convert kernel time code to its y2038-safe scalar form with Coccinelle and produce "
        "a reviewable patch series. Stages: tree -> apply -> hazards -> series -> build -> boot."),
        epilog=EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    add_series_commands(sub)
    add_verification_commands(sub)
    add_review_commands(sub)
    add_convert_command(sub)
    return p


def with_tree(sp):
    sp.add_argument("--kver", default=os.environ.get("KVER", "6.1"),
                    help="kernel: a Debian linux-source version (6.1, 6.12), a tarball or a directory")
    return sp


def with_campaigns(sp):
    sp.add_argument("--campaign", action="append", dest="campaigns",
                    help="run only this campaign (repeatable); default: all")
    sp.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel spatch runs")
    sp.add_argument("--timeout", type=int, default=apply.SPATCH_TIMEOUT, help="spatch seconds per file")
    return sp


def with_series(sp):
    sp.add_argument("--out", help="output directory (default generated-patches/linux-<version>)")
    sp.add_argument("--signoff", default=os.environ.get("SIGNOFF") or None,
                    help="author and Signed-off-by identity, 'Name <email>': yours, since you sign "
                         "the DCO (default: $SIGNOFF)")
    sp.add_argument("--draft", action="store_true",
                    help="no identity: every subject says DRAFT and no patch carries a Signed-off-by")
    return sp


def with_compiles(sp):
    sp.add_argument("--distcc", action="store_true",
                    help="compile through distcc (hosts: DISTCC_HOSTS, ~/.distcc/hosts or /etc/distcc/hosts)")
    return sp


def with_series_dir(sp, make_jobs_too: bool = False):
    sp.add_argument("--out", help="series directory (default generated-patches/linux-<version>)")
    if make_jobs_too:
        sp.add_argument("--jobs", type=int, help="make -j (default: the cores, or distcc's -j)")
    return sp


def add_series_commands(sub) -> None:
    sp = sub.add_parser("deps", help="install missing Debian packages")
    with_tree(sp)
    sp.add_argument("--no-build", action="store_true", help="only what tree/apply/series need")
    sp.add_argument("--tests", action="store_true", help="also what `make test` needs (chromium)")
    with_tree(sub.add_parser("tree", help="unpack the tree and record its baseline commit"))
    with_campaigns(with_tree(sub.add_parser("apply", help="run the rules with spatch -> matches.json")))
    with_campaigns(with_tree(sub.add_parser("hazards", help="report-only rules -> hazards.json")))
    with_series(with_tree(sub.add_parser("series", help="matches.json (+ hazards.json) -> git format-patch series")))


def add_verification_commands(sub) -> None:
    with_series_dir(with_compiles(with_tree(sub.add_parser("build", help="build every patch of the series in order "
                                                                         "(x86_64, arm)"))), True)
    sp = with_series_dir(with_compiles(with_tree(sub.add_parser(
        "boot", help="boot the patched (and if needed the pristine) kernels in QEMU (x86_64, arm)"))), True)
    sp.add_argument("--arch", action="append", dest="arches", choices=sorted(boot.MACHINES),
                    help="boot only this architecture (repeatable); default: all")
    sp.add_argument("--pristine", choices=("auto", "always", "never"), default="auto",
                    help="boot the pristine kernel too: only when the patched one fails something (auto, the "
                         "default: it tells a regression from a known failure), always, or never")
    sp.add_argument("--fix-proofs-only", action="store_true",
                    help="boot only the fix proofs (each fix without and with it, on its check's architecture), "
                         "not the series' kernels")
    with_compiles(with_series(with_campaigns(with_tree(sub.add_parser("run", help="every stage in order")))))
    sp = with_series_dir(with_tree(sub.add_parser(
        "coccicheck", help="make coccicheck MODE=report with each rule of the series' coccinelle-rule/ posting, "
                           "before and after the series, on copies of the directories it touches")))
    sp.add_argument("--jobs", type=int, default=os.cpu_count(), help="coccicheck's J=")


def add_review_commands(sub) -> None:
    with_series_dir(with_tree(sub.add_parser("report", help="results.json + patches -> review.html and REVIEW.md "
                                                            "beside the series")))
    sp = sub.add_parser("compare", help="two series side by side: sites gone upstream, kept, new; "
                                        "patches mapped as git range-diff does")
    sp.add_argument("old", help="older series: a version (6.1) or a series directory")
    sp.add_argument("new", help="newer series: a version (6.12) or a series directory")
    sp.add_argument("--no-write", action="store_true",
                    help="only print; by default the newer series' cover letters and results.json get the summary")


def add_convert_command(sub) -> None:
    sp = with_campaigns(sub.add_parser("convert", help="run the catalogue on out-of-tree code: DIR -> OUT "
                                                       "(converted copy, y2038-convert.patch and .txt)"))
    sp.add_argument("dir", help="directory of .c/.h files (never written)")
    sp.add_argument("--out", required=True, help="where the converted copy goes")
    sp.add_argument("--min-kernel", metavar="X.Y",
                    help="oldest kernel the result must still build on; conditionals decided for every "
                         "kernel from it on are resolved (dead compat code removed). Default: read from "
                         "the code's version conditionals")
    sp.add_argument("--max-kernel", metavar="X.Y", help="newest kernel (default: the newest packaged, "
                                                        f"{kernel_versions.NEWEST_PACKAGED})")
    sp.add_argument("--no-compat-header", dest="compat_header", action="store_false",
                    help="leave what an older kernel of the range lacks as it was, instead of writing it "
                         "with fallbacks in y2038-compat.h for those kernels")
    sp.add_argument("--verify", action="store_true",
                    help="build the original and the converted module against the packaged kernels "
                         "(allmodconfig, x86_64 and arm): the conversion must build wherever the original does")
    sp.add_argument("--verify-kver", action="append", dest="verify_kvers", metavar="X.Y",
                    help="verify against this packaged kernel only (repeatable; default: 6.1 and 6.12)")


def make_jobs(jobs, distcc: bool) -> int:
    """make -j: jobs if given, else distcc's own -j with distcc, else the cores."""
    if distcc:
        deps.ensure_packages(["distcc"])
        slots = build.distcc_jobs()
        return jobs or slots
    return jobs or os.cpu_count() or 1  # cpu_count(): None when it cannot tell


def cmd_deps(args) -> int:
    deps.ensure([args.kver], with_build=not args.no_build, with_tests=args.tests)
    return OK


def cmd_tree(args) -> int:
    t = tree.prepare(args.kver)
    print(f"Linux {t.version}: {t.src} (baseline {t.baseline[:12]})")
    return OK


def cmd_apply(args) -> int:
    summarize(apply.apply_stage(tree.load(args.kver), rules.campaigns(args.campaigns), args.jobs, args.timeout))
    return OK


def cmd_hazards(args) -> int:
    t = tree.load(args.kver)
    print(hazards.hazards_text(hazards.hazards_stage(t, rules.campaigns(args.campaigns), args.jobs, args.timeout)))
    return OK


def cmd_series(args) -> int:
    out = series.series_stage(tree.load(args.kver), args.out, args.signoff, args.draft)
    print(f"series written to {out}")
    return OK


def cmd_build(args) -> int:
    t = tree.load(args.kver)
    jobs = make_jobs(args.jobs, args.distcc)
    print(build.build_text(build.build_stage(t, series.series_dir(t, args.out), jobs, series.withdraw_unverified,
                                             distcc=args.distcc)))
    return OK


def cmd_boot(args) -> int:
    t = tree.load(args.kver)
    out, jobs = series.series_dir(t, args.out), make_jobs(args.jobs, args.distcc)
    if args.fix_proofs_only:
        return OK if prove_fixes(t, out, jobs, args.distcc) else FAILED
    results = boot.boot_stage(t, out, jobs, tuple(args.arches or boot.MACHINES), args.pristine, args.distcc)
    print(boot.boot_text(results))
    return OK if boot.booted_ok(results) and prove_fixes(t, out, jobs, args.distcc) else FAILED


def prove_fixes(t, out: Path, jobs: int, distcc: bool) -> bool:
    """Each fix booted without and with it across 2038; False if a check did not prove its fix."""
    proven = fix_proofs.proofs_stage(t, out, jobs, distcc)
    if proven.fix_proofs:
        print(fix_proofs.proofs_text(proven))
    return fix_proofs.all_proven(proven)


def cmd_coccicheck(args) -> int:
    t = tree.load(args.kver)
    record = coccicheck_rule.check_stage(t, series.series_dir(t, args.out), args.jobs)
    print(coccicheck_rule.check_section(record))
    return OK if all(c["verdict"] == "exact" for c in record["check"]["rules"].values()) else FAILED


def cmd_report(args) -> int:
    out = Path(args.out) if args.out else series.series_dir(tree.load(args.kver))
    html_path, md_path = report.report_stage(out)
    print(f"review: {html_path} (summary: {md_path})")
    return OK


def cmd_compare(args) -> int:
    old, new = compare.series_of(args.old), compare.series_of(args.new)
    comparison = compare.compare(old, new)
    print(compare.text(comparison), end="")
    if not args.no_write:
        compare.write_to_newer(new, comparison)
    return OK


def cmd_convert(args) -> int:
    deps.ensure_packages(deps.BASE_PACKAGES)
    converted = convert.convert(Path(args.dir), Path(args.out), rules.campaigns(args.campaigns),
                                args.jobs, args.timeout, args.min_kernel, args.max_kernel,
                                args.compat_header)
    print(f"{args.dir} -> {args.out}: {convert.summary(converted)}")
    print(f"review: {Path(args.out) / convert.OUTPUTS[0]}, report: {Path(args.out) / convert.OUTPUTS[1]}")
    for problem in converted["problems"]:
        print(f"  problem: {problem}")
    if args.verify:
        checked = module_verify.verify(Path(args.dir), Path(args.out),
                                       tuple(args.verify_kvers or module_verify.DEFAULT_KVERS))
        convert.add_verification(Path(args.out), checked, module_verify.text(checked))
        print(module_verify.text(checked), end="")
        if checked["verdict"] != "pass":  # the conversion fails where the original builds, or warns anew
            return FAILED
    return PARTIAL if converted["problems"] else OK


def cmd_run(args) -> int:
    deps.ensure([args.kver], with_build=True)
    t = tree.prepare(args.kver)
    # --jobs is spatch's here; with --distcc make takes distcc's -j
    jobs = make_jobs(None if args.distcc else args.jobs, args.distcc)
    early = boot_prebuild.Prebuild(t, jobs, args.distcc,
                                   checks=boot_prebuild.expected_checks(t, series.series_dir(t, args.out)))
    try:
        summarize(apply.apply_stage(t, rules.campaigns(args.campaigns), args.jobs, args.timeout))
        hazards.hazards_stage(t, rules.campaigns(args.campaigns), args.jobs, args.timeout)
        out = series.series_stage(t, args.out, args.signoff, args.draft)
        print(f"series written to {out}")
        print(build.build_text(build.build_stage(t, out, jobs, series.withdraw_unverified, distcc=args.distcc)))
    finally:
        early.stop()  # the boot stage's make goes on from where it stopped, at the run's priority
    ahead = fix_proofs.AheadBuilds(t, out, jobs, args.distcc)
    try:
        results = boot.boot_stage(t, out, jobs, distcc=args.distcc, while_booting=ahead.start)
        ahead.finish()
    finally:
        ahead.stop()  # ended with the run when the boot stage failed or was stopped
    print(boot.boot_text(results))
    fixes_proven = prove_fixes(t, out, jobs, args.distcc)
    html_path, _ = report.report_stage(out)
    print(f"review: {html_path}")
    return OK if boot.booted_ok(results) and fixes_proven else FAILED


COMMANDS = {"deps": cmd_deps, "tree": cmd_tree, "apply": cmd_apply, "hazards": cmd_hazards, "series": cmd_series,
            "build": cmd_build, "boot": cmd_boot, "report": cmd_report, "compare": cmd_compare,
            "convert": cmd_convert, "run": cmd_run, "coccicheck": cmd_coccicheck}


def exit_on_sigterm(signum, frame):
    """SIGTERM (a CI timeout, kill) ends the run as an exception does, so
    what it started beside itself is stopped too (run's early kernel builds)."""
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    signal.signal(signal.SIGTERM, exit_on_sigterm)
    try:
        return COMMANDS[args.command](args)
    except Y2038Error as err:
        print(f"y2038: error: {err}", file=sys.stderr)
        return FAILED


def summarize(report: Matches) -> None:
    print(f"Linux {report.version}: apply stage {report.seconds} s "
          f"({report.spatch_runs} files through spatch, {report.cache_hits} results from the cache)")
    for campaign in report.campaigns:
        for rule in campaign.rules:
            extra = ""
            if rule.timeouts or rule.failed:
                extra = f", {len(rule.timeouts)} timed out, {len(rule.failed)} failed"
            if rule.unparsed:
                extra += f", {len(rule.unparsed)} files partly unparsed"
            left = [line for lines in rule.left.values() for line in lines]
            if left:
                extra += f", {len(left)} left to convert by hand"
            print(f"  {rule.path}: {rule.sites} sites in {len(rule.files)} files "
                  f"({rule.candidates} candidates{extra})")
            for relpath, detail in sorted({**rule.timeouts, **rule.failed}.items()):
                print(f"    {relpath}: not converted: {detail}")  # a file spatch did not finish may hold sites
            for line in left:
                print(f"    {line}")
        if not campaign.sites:
            print(f"  campaign {campaign.name}: 0 sites: already converted upstream")
