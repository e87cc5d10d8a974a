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
ninja -C "$BUILD" bench-symbolic >/dev/null
echo "== bench/symbolic"
bench/symbolic/run.sh "$BUILD"

ninja -C "$BUILD" bench-kernels >/dev/null
echo "== bench/kernels"
bench/kernels/run.sh "$BUILD"

ninja -C "$BUILD" bench-schedule >/dev/null
echo "== bench/schedule"
bench/schedule/run.sh "$BUILD"
