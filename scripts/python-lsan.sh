#!/usr/bin/env bash
# The Python binding's tests (python/tests/test_capi.py, test_capi_program.py:
# kernels and whole tensor programs) under LeakSanitizer:
# Debian's python3 with the ASan runtime preloaded (PYTHONMALLOC=malloc, so
# every allocation is seen). Fails if any leak report has a frame in our
# libraries or MLIR/LLVM. About a minute; part of `make test` (scripts/run-tests.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ASAN_RT=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)
logs=$(mktemp -d)
run() {
  # Leak reports are judged below (ours only: CPython leaks its own objects at
  # exit); they must not turn the tests' exit status into a failure.
  LD_PRELOAD=$ASAN_RT ASAN_OPTIONS=detect_leaks=1:log_path=$logs/$1 LSAN_OPTIONS=exitcode=0 PYTHONMALLOC=malloc "${@:2}"
}
# Canary: a deliberate leak must be reported, or the check proves nothing.
run canary /usr/bin/python3 -c "import ctypes; m = ctypes.CDLL(None).malloc; m.restype = ctypes.c_size_t; m(4321)"
if ! grep -qs "4321 byte(s) leaked" "$logs"/canary*; then
  echo "python-lsan: LeakSanitizer is not active (canary leak not reported)"; exit 1
fi
(cd "$ROOT/python" && run lsan /usr/bin/python3 -m unittest tests.test_capi tests.test_capi_program)
rc=$?
ours=$(cat "$logs"/lsan* 2>/dev/null | awk '/^(Direct|Indirect) leak/{if (b ~ /libTinygrad|libMLIR|libLLVM/) n++; b=""} {b=b $0 "\n"} END{if (b ~ /libTinygrad|libMLIR|libLLVM/) n++; print n+0}')
echo "python-lsan: tests rc=$rc, $ours leak reports in tinygrad-mlir/MLIR/LLVM code"
rm -rf "$logs"
[ "$rc" -eq 0 ] && [ "$ours" -eq 0 ]
