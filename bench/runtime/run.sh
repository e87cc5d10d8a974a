#!/usr/bin/env bash
# The runtime's cost per kernel launch on the CPU driver (bench-runtime:
# graph replay, pipelined replay, queue record+submit, direct launch, the
# native call), and, when TINYGRAD_SRC points at a tinygrad checkout,
# tinygrad's TinyJit replay of the same chain on DEV=CPU. Writes
# build/bench/runtime.json.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
PY=${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3 )}
mkdir -p "$BUILD/bench"
ours=$("$BUILD/bench/bench-runtime" "${KERNELS:-1000}" "${REPS:-100}")
echo "$ours"
theirs=""
if [ -n "${TINYGRAD_SRC:-}" ] && [ -d "$TINYGRAD_SRC/tinygrad" ]; then
  theirs=$(cd "$TINYGRAD_SRC" && DEV=CPU PYTHONPATH=. "$PY" "$ROOT/bench/runtime/tinygrad_reference.py" \
    "${TG_KERNELS:-200}" "${TG_CALLS:-30}")
  echo "$theirs"
else
  echo "tinygrad reference skipped: set TINYGRAD_SRC to a tinygrad checkout to compare"
fi
"$PY" - "$BUILD/bench/runtime.json" <<PY
import json, sys
res = json.loads("""$ours""")
theirs = dict(l.split() for l in """$theirs""".splitlines() if l.startswith("TINYGRAD_"))
res["tinygrad_us_per_launch"] = float(theirs["TINYGRAD_US_PER_LAUNCH"]) if theirs else None
res["tinygrad_kernels_per_call"] = int(theirs["TINYGRAD_KERNELS_PER_CALL"]) if theirs else None
if theirs:
  res["replay_speedup_vs_tinygrad"] = res["tinygrad_us_per_launch"] / res["replay_us_per_launch"]
json.dump(res, open(sys.argv[1], "w"), indent=1)
print(f"runtime: replay {res['replay_us_per_launch']:.3f} us per kernel launch"
      + (f", tinygrad's TinyJit {res['tinygrad_us_per_launch']:.1f} us" if theirs else ""))
print(f"wrote {sys.argv[1]}")
PY
