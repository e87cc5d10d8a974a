#!/usr/bin/env bash
# The runtime's cost per kernel launch on the CPU driver (bench-runtime:
# graph replay, pipelined replay, queue record+submit, direct launch, the
# native call), and, when TINYGRAD_SRC points at a tinygrad checkout,
# tinygrad's TinyJit replay of the same chain on DEV=CPU, and a many-kernel
# program end to end: an MLP training step under TinyJit, ours with and
# without our graph against tinygrad's (mlp_train_step.py). Writes
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
  mlp=$("$PY" "$ROOT/bench/runtime/mlp_train_step.py" "$BUILD" "${MLP_REPS:-50}")
  echo "$mlp"
  theirs="$theirs
$mlp"
else
  echo "tinygrad reference skipped: set TINYGRAD_SRC to a tinygrad checkout to compare"
fi
"$PY" - "$BUILD/bench/runtime.json" <<PY
import json, sys
res = json.loads("""$ours""")
lines = dict(l.split() for l in """$theirs""".splitlines() if l.startswith(("TINYGRAD_", "MLP_")))
theirs = {k: v for k, v in lines.items() if k.startswith("TINYGRAD_")}
res["tinygrad_us_per_launch"] = float(theirs["TINYGRAD_US_PER_LAUNCH"]) if theirs else None
res["tinygrad_kernels_per_call"] = int(theirs["TINYGRAD_KERNELS_PER_CALL"]) if theirs else None
if theirs:
  res["replay_speedup_vs_tinygrad"] = res["tinygrad_us_per_launch"] / res["replay_us_per_launch"]
# The MLP training step (median ms per replayed step, each side the same way).
for side in ("ours_graph", "ours_nograph", "tinygrad_jit"):
  v = lines.get(f"MLP_{side.upper()}_MS")
  res[f"mlp_train_step_ms_{side}"] = float(v) if v else None
res["mlp_train_step_kernels"] = int(lines["MLP_KERNELS"]) if "MLP_KERNELS" in lines else None
res["mlp_train_step_graphs_ours"] = int(lines["MLP_OURS_GRAPHS"]) if "MLP_OURS_GRAPHS" in lines else None
json.dump(res, open(sys.argv[1], "w"), indent=1)
print(f"runtime: replay {res['replay_us_per_launch']:.3f} us per kernel launch"
      + (f", tinygrad's TinyJit {res['tinygrad_us_per_launch']:.1f} us" if theirs else ""))
if res["mlp_train_step_ms_ours_graph"] is not None:
  print(f"runtime: MLP training step ({res['mlp_train_step_kernels']} kernels) "
        f"{res['mlp_train_step_ms_ours_graph']:.3f} ms with our graph, "
        f"{res['mlp_train_step_ms_ours_nograph']:.3f} ms without, "
        f"tinygrad's TinyJit {res['mlp_train_step_ms_tinygrad_jit']:.3f} ms")
print(f"wrote {sys.argv[1]}")
PY
