#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs the test suite (unittest) and ends with 'N passed, N failed, N skipped'.

Usage: tests/run_tests.py [pattern]   (pattern: test_*.py by default)
No test run is a failure, as is any failed or erroring test.
"""
import sys
import unittest
from pathlib import Path


class CountingResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


def main() -> int:
    pattern = sys.argv[1] if len(sys.argv) > 1 else "test_*.py"
    here = Path(__file__).resolve().parent
    suite = unittest.defaultTestLoader.discover(str(here), pattern=pattern, top_level_dir=str(here))
    runner = unittest.TextTestRunner(resultclass=CountingResult, verbosity=2, stream=sys.stdout)
    result = runner.run(suite)
    assert isinstance(result, CountingResult)  # the resultclass given above
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    print(f"{result.passed} passed, {failed} failed, {len(result.skipped)} skipped")
    if result.passed == 0:
        print("no test passed: treating the run as a failure")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
