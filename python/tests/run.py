"""Run the python unittest suite and end with exactly one summary line: `N passed, N failed`.

The summary is derived from unittest's TestResult so callers (run_tests.sh, CI) can parse it.
Skipped tests (e.g. the real-tinygrad tests without TINYGRAD_SRC) are neither passed nor failed:
each is listed with its reason and counted on a "N skipped" line just before the summary.
"""
import os
import sys
import unittest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=1).run(suite)
    for test, reason in result.skipped:
        print(f"SKIPPED {test.id()}: {reason}")
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    print(f"{skipped} skipped")
    print(f"{result.testsRun - failed - skipped} passed, {failed} failed")
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
