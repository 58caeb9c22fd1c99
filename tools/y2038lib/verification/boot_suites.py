# SPDX-License-Identifier: GPL-2.0-only
"""Which kernel test suites a boot runs, and why.

The init's own 2038 checks run on every boot.  The KUnit suites and the
timer kselftests take most of a boot under TCG (on ARM, KUnit's
time_test_cases alone about 37 s), and they test particular code: a patched
kernel runs a suite when the verified series touches what the suite tests;
a pristine kernel, booted to tell a regression from a known failure, runs
every suite.
"""
import fnmatch

# kselftest timers that take seconds each under TCG; set-2038 (11 min),
# set-timer-lat and nsleep-lat (2 min each) are left out of every boot.
QUICK_SELFTESTS = ("posix_timers", "nanosleep", "inconsistency-check", "valid-adjtimex")

# suite -> the files whose change it tests (fnmatch patterns)
KUNIT_SUITES = {
    # time64_to_tm() over 160000 years of days
    "time_test_cases": ("kernel/time/timeconv.c", "kernel/time/time_test.c", "include/linux/time.h",
                        "include/linux/time64.h", "include/linux/math64.h"),
    # rtc_time64_to_tm() and the day/month tables
    "rtc_lib_test_cases": ("drivers/rtc/lib.c", "drivers/rtc/lib_test.c", "include/linux/rtc.h",
                           "include/linux/time64.h"),
}
# what kunit.filter_glob (one glob) takes for all of them
EVERY_SUITE_GLOB = "*_test_cases"
assert all(fnmatch.fnmatchcase(s, EVERY_SUITE_GLOB) for s in KUNIT_SUITES)
# the timer selftests exercise sleeping, timers, the clocks and their
# consistency: the timekeeping core and its interfaces (not the
# /proc/timer_list printer)
SELFTEST_CODE = ("kernel/time/*", "include/linux/time*.h", "include/linux/ktime.h", "include/linux/hrtimer*.h",
                 "include/linux/posix-timers*.h", "include/linux/clocksource*.h", "include/linux/clockchips.h",
                 "include/vdso/*", "lib/vdso/*", "arch/*/vdso/*", "arch/*/kernel/time.c", "kernel/sched/core.c")
SELFTEST_EXEMPT = ("kernel/time/timer_list.c", "kernel/time/time_test.c", "kernel/time/test_udelay.c")


def touched(files, patterns, exempt=()) -> list:
    return sorted(f for f in files if any(fnmatch.fnmatch(f, p) for p in patterns) and f not in exempt)


def plan(variant: str, files) -> dict:
    """{"kunit": [suites], "selftests": [names], "why": text} for a kernel
    (variant "pristine" or "patched"; files: what the verified series changes)."""
    if variant == "pristine":
        return {"kunit": sorted(KUNIT_SUITES), "selftests": list(QUICK_SELFTESTS),
                "why": "the pristine kernel runs every suite: it tells a regression from a known failure"}
    kunit = [s for s, patterns in sorted(KUNIT_SUITES.items()) if touched(files, patterns)]
    selftest_files = touched(files, SELFTEST_CODE, SELFTEST_EXEMPT)
    selftests = list(QUICK_SELFTESTS) if selftest_files else []
    why = [f"KUnit {s}: the series touches {', '.join(touched(files, KUNIT_SUITES[s]))}" for s in kunit]
    why.append(f"timer selftests: the series touches {', '.join(selftest_files[:3])}"
               + (" ..." if len(selftest_files) > 3 else "") if selftest_files else
               "no KUnit suite or timer selftest: the series touches none of the code they test "
               "(boot_suites.py); the init's 2038 checks ran")
    return {"kunit": kunit, "selftests": selftests, "why": "; ".join(why)}


def cmdline(suites: dict, selftests) -> list:
    """Kernel parameters that run just these suites: kunit.enable and
    kunit.filter_glob (6.1 has both; never a fix check's suite), and the init's y2038_selftests=
    (selftests: those the architecture's initramfs has)."""
    params = []
    if not suites["kunit"]:
        params.append("kunit.enable=0")
    elif len(suites["kunit"]) == 1:
        params.append(f"kunit.filter_glob={suites['kunit'][0]}")
    elif set(suites["kunit"]) == set(KUNIT_SUITES):
        # the fix checks' suites built into the kernel are the proofs' to run
        params.append(f"kunit.filter_glob={EVERY_SUITE_GLOB}")
    else:
        raise ValueError("kunit.filter_glob takes one suite glob")
    wanted = [t for t in selftests if t in suites["selftests"]]
    if wanted != list(selftests):
        params.append(f"y2038_selftests={','.join(wanted) or 'none'}")
    return params
