#!/usr/bin/env bash
# Side-by-side: our engine and (when a tinygrad checkout is given in
# TINYGRAD_SRC) tinygrad itself on the same corpus cases, as a ratio.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${TG_CORPUS:-${TG_CORPUS_DIR:-$ROOT/../shared/corpus}/symbolic.jsonl}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
ours=$("$BUILD/bench/bench-symbolic" "$CORPUS" "${REPS:-50}")
echo "$ours" | grep -v _MEDIAN_US
c=$(echo "$ours" | awk '/OURS_COLD_MEDIAN_US/ {print $2}')
w=$(echo "$ours" | awk '/OURS_WARM_MEDIAN_US/ {print $2}')
t=null
if [ -n "${TINYGRAD_SRC:-}" ] && [ -d "$TINYGRAD_SRC/tinygrad" ]; then
  theirs=$(cd "$TINYGRAD_SRC" && python3 "$ROOT/bench/symbolic/tinygrad_reference.py" "$CORPUS" "${TG_REPS:-20}")
  echo "$theirs" | grep -v _MEDIAN_US
  t=$(echo "$theirs" | awk '/TINYGRAD_MEDIAN_US/ {print $2}')
else
  echo "tinygrad reference skipped: set TINYGRAD_SRC to a tinygrad checkout to compare"
fi
mkdir -p "$BUILD/bench"
python3 - "$BUILD/bench/symbolic.json" "$c" "$w" "$t" <<'PY'
import json, sys
out, cold, warm, theirs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
theirs = None if theirs == "null" else float(theirs)
# The headline compares like with like: ours cold (a fresh interning context per repetition, every node
# made again) against tinygrad as its reference times it (the same graph rewritten again in a live
# process; its weak-referenced node cache rebuilds the rewritten nodes each time). Ours warm keeps every
# node of an untimed first run in the intern table, a reuse tinygrad's side does not get: labelled.
res = {"ours_cold_median_us": cold, "tinygrad_median_us": theirs,
       "speedup_median": theirs / cold if theirs else None,
       "ours_warm_median_us": warm,
       "speedup_warm_median": theirs / warm if theirs else None,
       "note": "speedup_median: tinygrad's median / ours cold (a fresh interning context per repetition); "
               "the _warm figures keep the first run's nodes interned, which tinygrad's weak node cache does not"}
json.dump(res, open(out, "w"), indent=1)
if theirs:
    print(f"speedup (tinygrad median / ours cold): {res['speedup_median']:.1f}x; "
          f"ours warm (first run's nodes kept interned, not like for like): {res['speedup_warm_median']:.1f}x")
print(f"wrote {out}")
PY
