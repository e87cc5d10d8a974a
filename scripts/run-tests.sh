#!/usr/bin/env bash
# Runs every suite (lit, gtest, python) and prints one closing line
# "N passed, N failed". Exits non-zero if anything failed or nothing ran.
set -uo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
passed=0; failed=0
log=$(mktemp -d)

echo "== lit =="
/usr/lib/llvm-22/bin/lit -sv "$BUILD/test" >"$log/lit.txt" 2>&1
lit_rc=$?
grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$log/lit.txt" || true
tail -n 12 "$log/lit.txt" | grep -E '^ +(Passed|Failed|Unresolved|Expectedly Failed|Unexpectedly Passed|Unsupported|Timed Out)' || true
lp=$(grep -E '^ +(Passed|Expectedly Failed) *:' "$log/lit.txt" | awk -F: '{s+=$2} END {print s+0}')
lf=$(grep -E '^ +(Failed|Unresolved|Unexpectedly Passed|Timed Out) *:' "$log/lit.txt" | awk -F: '{s+=$2} END {print s+0}')
if [ "$lit_rc" -ne 0 ] && [ "$lf" -eq 0 ]; then lf=1; echo "lit exited $lit_rc"; tail -n 20 "$log/lit.txt"; fi
passed=$((passed + lp)); failed=$((failed + lf))
echo "lit: $lp passed, $lf failed"

echo "== gtest =="
# The expected suites are listed there: a missing one fails.
scripts/run-gtests.sh "$BUILD" >"$log/gtest.txt" 2>&1
grep -vE '^gtest: ' "$log/gtest.txt"
gp=$(grep -E '^gtest: [0-9]+ passed, [0-9]+ failed' "$log/gtest.txt" | awk '{print $2+0}')
gf=$(grep -E '^gtest: [0-9]+ passed, [0-9]+ failed' "$log/gtest.txt" | awk '{print $4+0}')
gs=$(grep -E '^gtest: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log/gtest.txt" | awk '{print $6+0}')
if [ -z "$gp" ]; then gp=0; gf=1; echo "scripts/run-gtests.sh gave no summary"; fi
# Skipped tests (hardware this machine lacks; each suite's line above counts them) are not passes.
echo "gtest: $gp passed, $gf failed, ${gs:-0} skipped"
passed=$((passed + gp)); failed=$((failed + gf))

echo "== python =="
python/run_tests.sh >"$log/py.txt" 2>&1
rc=$?
# The failing tests by name (the log itself goes with $log).
grep -E '^(FAIL|ERROR): ' "$log/py.txt" || true
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log/py.txt" | tail -1)
pp=$(echo "$line" | awk '{print $1+0}'); pf=$(echo "$line" | awk '{print $3+0}')
if [ "$rc" -ne 0 ] && [ "${pf:-0}" -eq 0 ]; then pf=1; tail -n 20 "$log/py.txt"; fi
ps=$(grep -E '^[0-9]+ skipped' "$log/py.txt" | tail -1 | awk '{print $1+0}')
# Skips are shown, not hidden: the tests that need a tinygrad checkout (TINYGRAD_SRC) and the
# CPU-only cases of test_runtime_graph on the Vulkan device; python/run_tests.sh prints each reason.
echo "python: ${pp:-0} passed, ${pf:-0} failed${ps:+, $ps skipped (reasons in the python log)}"
passed=$((passed + ${pp:-0})); failed=$((failed + ${pf:-0}))

echo "== python under LeakSanitizer =="
# The binding's C API tests again, with the ASan runtime preloaded: one
# result, failed on any leak report in our libraries (or MLIR/LLVM).
if scripts/python-lsan.sh >"$log/lsan.txt" 2>&1; then
  passed=$((passed + 1)); tail -n 1 "$log/lsan.txt"
else
  failed=$((failed + 1)); tail -n 20 "$log/lsan.txt"
fi

rm -rf "$log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
