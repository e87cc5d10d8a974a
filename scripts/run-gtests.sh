#!/usr/bin/env bash
# Runs the gtest suites of a build: every suite listed in SUITES must be
# there (a suite that did not build is a failure, not a suite fewer), and
# an executable in <build>/unittests that is not listed fails too, so the
# list stays the one unittests/ builds.
#   run-gtests.sh [BUILD]   one line per suite, then "gtest: P passed, F failed, S skipped"
#   run-gtests.sh --list    the expected suites
# A skipped test (GTEST_SKIP: e.g. the CUDA and AMD conformance
# instantiations without their hardware) is counted as skipped, never passed.
set -uo pipefail
SUITES=(
  TinygradSupportTests
  TinygradDialectTests
  TinygradSymbolicTests
  TinygradCodegenTests
  TinygradConversionTests
  TinygradRuntimeTests
  TinygradRuntimeTestsSanitized
  TinygradRuntimeTestsTSan
  TinygradCAPITests
  TinygradCAPITestsSanitized
  TinygradExecutionTests
  TinygradTargetTests
)
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${SUITES[@]}"; exit 0; fi
BUILD=${1:-build}
# A build configured with -DTG_RUNTIME_TSAN=OFF has no ThreadSanitizer suite.
if grep -qx 'TG_RUNTIME_TSAN:BOOL=OFF' "$BUILD/CMakeCache.txt" 2>/dev/null; then
  kept=()
  for s in "${SUITES[@]}"; do [ "$s" = TinygradRuntimeTestsTSan ] || kept+=("$s"); done
  SUITES=("${kept[@]}")
fi
passed=0; failed=0; skipped=0
log=$(mktemp)
for s in "${SUITES[@]}"; do
  t="$BUILD/unittests/$s"
  if ! [ -f "$t" ] || ! [ -x "$t" ]; then
    echo "$s: missing ($t was not built)"
    failed=$((failed + 1))
    continue
  fi
  "$t" --gtest_brief=1 >"$log" 2>&1
  rc=$?
  gp=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  gf=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  gs=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  gp=${gp:-0}; gf=${gf:-0}; gs=${gs:-0}
  if [ "$rc" -ne 0 ] && [ "$gf" -eq 0 ]; then gf=1; tail -n 20 "$log"; fi
  # a suite that ran no test at all is broken too
  if [ "$gp" -eq 0 ] && [ "$gf" -eq 0 ]; then gf=1; echo "$s ran no test:"; tail -n 20 "$log"; fi
  grep -E '^\[  FAILED  \]' "$log" || true
  echo "$s: $gp passed, $gf failed, $gs skipped"
  passed=$((passed + gp)); failed=$((failed + gf)); skipped=$((skipped + gs))
done
for t in "$BUILD"/unittests/*; do
  [ -f "$t" ] && [ -x "$t" ] || continue
  name=$(basename "$t")
  if ! printf '%s\n' "${SUITES[@]}" | grep -qxF "$name"; then
    echo "$name: not in scripts/run-gtests.sh's list of suites (add it there)"
    failed=$((failed + 1))
  fi
done
rm -f "$log"
echo "gtest: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
