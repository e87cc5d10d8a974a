#!/usr/bin/env bash
# Compile here, run on a lent GPU (issue 24: NVIDIA and AMD targets).
#
#   scripts/device-check.sh local [OUT] [--arch sm_90] [--cases DIR [--compiler CMD]] [--bench]
#       This machine (MLIR, no GPU): compiles every case to a cubin (and PTX)
#       for --arch with our NVVM route, writes its inputs and expected outputs,
#       and copies the MLIR-free runtime (libTinygradRuntime.so, tgrt-devices)
#       next to them, into OUT (default build/device-check; kept well under the
#       device tool's 64 MiB). The cases are the hand-written kernels of
#       test/Target/GPU/Inputs; --cases adds one per kernel case of DIR (the
#       shared corpus format, e.g. ../shared/corpus/kernels), compiled from its
#       AST by our whole route (scripts/device-check/compile_case.py:
#       tinygrad-compile --target cuda:ARCH) or by --compiler CMD. --bench
#       adds the realistic kernels of scripts/device-check/bench (matmul
#       4096^3 fp32/fp16, softmax and layernorm 4096x4096, ResNet conv2d 3x3
#       256; bench_cases.py), with our opts and tinygrad's (--bench-opts),
#       their inputs as generator specs (the device half generates them).
#       OUT/conformance carries the runtime's gtest binary and the kernels of
#       its conformance suite (build TinygradRuntimeTests first).
#   scripts/device-check.sh device [OUT]
#       The GPU machine (CUDA driver, Python with numpy, optionally torch; no
#       MLIR): runs every case of OUT through our CUDA driver, compares with
#       the expected outputs, times each kernel and, for cases marked as
#       benchmarks, torch on the same shapes; then the conformance suite's
#       CUDA instantiation (passed/failed/skipped). Writes OUT/results.json.
#       Exit 0: every case matched and the suite passed with nothing skipped;
#       1: a mismatch, error, failed or skipped test; 3: NOT RUN, no CUDA
#       device (the driver says why).
#
# With the device tool: run `scripts/device-check.sh local` here, then
#   run(command="scripts/device-check.sh device build/device-check",
#       carry=["build/device-check"])
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-/usr/bin/python3}
mode=${1:-}
shift || true
case "$mode" in
  local)
    out=build/device-check
    if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then out=$1; shift; fi
    exec "$PY" "$ROOT/scripts/device-check/make_cases.py" --root "$ROOT" --build "${BUILD:-$ROOT/build}" --out "$out" "$@"
    ;;
  device)
    out=${1:-build/device-check}
    exec "$PY" "$out/run_cases.py" "$out"
    ;;
  *)
    sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
