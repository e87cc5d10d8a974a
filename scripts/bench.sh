#!/usr/bin/env bash
# Runs every benchmark in bench/ side by side with its reference.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# tinygrad, the reference, is not a package here: point TINYGRAD_SRC at a
# checkout of a9069c17 (default: ../tinygrad beside this checkout).
if [ -z "${TINYGRAD_SRC:-}" ] && [ -d "$ROOT/../tinygrad/tinygrad" ]; then
  export TINYGRAD_SRC="$ROOT/../tinygrad"
fi
# Every benchmark runs; one that fails (a kernel whose outputs differ from
# tinygrad's fails bench-kernels) fails `make bench` at the end.
status=0
ninja -C "$BUILD" bench-symbolic >/dev/null
echo "== bench/symbolic"
bench/symbolic/run.sh "$BUILD" || { echo "bench/symbolic FAILED"; status=1; }

ninja -C "$BUILD" bench-kernels >/dev/null
echo "== bench/kernels"
bench/kernels/run.sh "$BUILD" || { echo "bench/kernels FAILED"; status=1; }

ninja -C "$BUILD" bench-schedule >/dev/null
echo "== bench/schedule"
bench/schedule/run.sh "$BUILD" || { echo "bench/schedule FAILED"; status=1; }

ninja -C "$BUILD" bench-runtime >/dev/null
echo "== bench/runtime"
bench/runtime/run.sh "$BUILD" || { echo "bench/runtime FAILED"; status=1; }
exit $status
