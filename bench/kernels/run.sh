#!/usr/bin/env bash
# Our kernels side by side with tinygrad's C, OpenBLAS sgemm and STREAM-style
# loops, in one run. With TINYGRAD_SRC (a checkout of a9069c17) the realistic
# programs are exported from tinygrad first; without it only the shared
# corpus kernels run, and the table and JSON say so.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
CORPUS=${TG_CORPUS_KERNELS:-${TG_CORPUS_DIR:-$ROOT/../shared/corpus}/kernels}
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
# OpenBLAS picks its kernel from the CPU it recognises; a release older than
# the CPU falls back to a generic kernel (Prescott), no reference at all. So
# its own choice and each kernel the CPU's flags allow are probed (checked,
# then timed: openblas-probe.c), and the bench measures the fastest; the
# JSON names both. OPENBLAS_L2_SIZE stays unset throughout.
BLAS_ENV=(-u OPENBLAS_CORETYPE)
if [ -x "$BUILD/bench/openblas-probe" ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  has() { for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
  cands=("")
  has avx2 fma && cands+=(Haswell Zen)
  has avx512f avx512cd avx512bw avx512dq avx512vl && cands+=(SkylakeX)
  has avx512f avx512bw avx512vl avx512_bf16 && cands+=(Cooperlake)
  best=""; bestg=0; auto=""
  for c in "${cands[@]}"; do
    if [ -z "$c" ]; then r=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$BUILD/bench/openblas-probe" 2>&1) || { echo "openblas-probe (its own choice): $r"; continue; }
    else r=$(env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE="$c" "$BUILD/bench/openblas-probe" 2>&1) || { echo "openblas-probe $c: $r"; continue; }
    fi
    name=${r% *}; g=${r##* }
    echo "openblas-probe: ${c:-(its own choice)} runs $name: sgemm 1024 1t $g GFLOP/s"
    [ -z "$c" ] && auto=$name
    if awk -v a="$g" -v b="$bestg" 'BEGIN{exit !(a > 1.03 * b)}'; then best=$c; bestg=$g; fi
  done
  if [ -n "$best" ]; then
    BLAS_ENV=(OPENBLAS_CORETYPE="$best")
    export TG_BENCH_OPENBLAS_AUTO_CORE="$auto"
  fi
fi
env -u OPENBLAS_L2_SIZE "${BLAS_ENV[@]}" \
  "$BUILD/bench/bench-kernels" --manifest "$OUT/manifest.json" --out "$BUILD/bench/kernels.json" \
  --failing-dir "$OUT/failing" "${@:2}"
