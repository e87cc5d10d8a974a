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
# Real models (ResNet-18, the small llama, a training step) through tinygrad
# with our backend, its own compiler and PyTorch; then BEAM=2 side by side.
# Both need TINYGRAD_SRC (they say so and skip without it).
ninja -C "$BUILD" TinygradCAPI >/dev/null
PY=$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3 )
echo "== bench/models"
"$PY" bench/models/run.py "$BUILD" || { echo "bench/models FAILED"; status=1; }
echo "== bench/models: BEAM search"
"$PY" bench/models/search.py "$BUILD" || { echo "bench/models search FAILED"; status=1; }

# GPU compile time: every corpus kernel for Vulkan, NVIDIA and AMD through
# the C API, beside tinygrad's own CUDA renderer + NVRTC (gpu.json).
echo "== bench/gpu"
"$PY" bench/gpu/run.py "$BUILD" || { echo "bench/gpu FAILED"; status=1; }

ninja -C "$BUILD" bench-runtime TinygradCAPI >/dev/null
echo "== bench/runtime"
bench/runtime/run.sh "$BUILD" || { echo "bench/runtime FAILED"; status=1; }
exit $status
