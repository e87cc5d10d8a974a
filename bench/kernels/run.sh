#!/usr/bin/env bash
# Our kernels side by side with tinygrad's C, OpenBLAS sgemm and STREAM-style
# loops, in one run. With TINYGRAD_SRC (a checkout of a9069c17) the realistic
# programs are exported from tinygrad first; without it only the shared
# corpus kernels run, and the table and JSON say so.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
CORPUS=${TG_CORPUS_KERNELS:-$ROOT/../shared/corpus/kernels}
OUT="$BUILD/bench/kernels"
# tinygrad runs under Debian's python (numpy); pyenv shims may lack it.
PY=${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3 )}
rm -rf "$OUT"
mkdir -p "$OUT"
EXPORT=("$PY" "$ROOT/bench/kernels/export_kernels.py" "$OUT" --corpus "$CORPUS")
if [ -n "${TINYGRAD_SRC:-}" ] && [ -d "$TINYGRAD_SRC/tinygrad" ]; then
  if ! "${EXPORT[@]}"; then
    echo "exporting from tinygrad failed: benchmarking the corpus kernels only"
    "${EXPORT[@]}" --no-tinygrad --why "the export from tinygrad at $TINYGRAD_SRC failed"
  fi
else
  echo "TINYGRAD_SRC unset: realistic kernels skipped, benchmarking the corpus kernels only"
  "${EXPORT[@]}" --no-tinygrad --why "TINYGRAD_SRC is not set to a tinygrad checkout"
fi
# OpenBLAS picks its kernel from the CPU unless told otherwise: let it pick.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
  "$BUILD/bench/bench-kernels" --manifest "$OUT/manifest.json" --out "$BUILD/bench/kernels.json" \
  --failing-dir "$OUT/failing" "${@:2}"
