#!/usr/bin/env bash
# Runs every benchmark in bench/ side by side with its reference.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ninja -C "$BUILD" bench-symbolic >/dev/null
echo "== bench/symbolic"
bench/symbolic/run.sh "$BUILD"
