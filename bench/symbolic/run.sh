#!/usr/bin/env bash
# Side-by-side: our engine and (when a tinygrad checkout is given in
# TINYGRAD_SRC) tinygrad itself on the same corpus cases, as a ratio.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${TG_CORPUS:-$ROOT/../shared/corpus/symbolic.jsonl}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
ours=$("$BUILD/bench/bench-symbolic" "$CORPUS" "${REPS:-50}")
echo "$ours" | grep -v _MEDIAN_US
if [ -n "${TINYGRAD_SRC:-}" ] && [ -d "$TINYGRAD_SRC/tinygrad" ]; then
  theirs=$(cd "$TINYGRAD_SRC" && python3 "$ROOT/bench/symbolic/tinygrad_reference.py" "$CORPUS" "${TG_REPS:-20}")
  echo "$theirs" | grep -v _MEDIAN_US
  o=$(echo "$ours" | awk '/OURS_MEDIAN_US/ {print $2}')
  t=$(echo "$theirs" | awk '/TINYGRAD_MEDIAN_US/ {print $2}')
  c=$(echo "$ours" | awk '/OURS_COLD_MEDIAN_US/ {print $2}')
  python3 -c "print(f'speedup (tinygrad warm median / ours warm): {float($t)/float($o):.1f}x; vs ours cold: {float($t)/float($c):.1f}x')"
else
  echo "tinygrad reference skipped: set TINYGRAD_SRC to a tinygrad checkout to compare"
  t=null
fi
mkdir -p "$BUILD/bench"
o=$(echo "$ours" | awk '/OURS_MEDIAN_US/ {print $2}')
c=$(echo "$ours" | awk '/OURS_COLD_MEDIAN_US/ {print $2}')
python3 - "$BUILD/bench/symbolic.json" "$o" "$t" "$c" <<'PY'
import json, sys
out, ours, theirs, cold = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
theirs = None if theirs == "null" else float(theirs)
# Both sides warm (the like-for-like ratio), and ours cold (no reuse at all)
# against tinygrad warm, the conservative one.
json.dump({"ours_median_us": ours, "ours_cold_median_us": cold, "tinygrad_median_us": theirs,
           "speedup_median": theirs / ours if theirs else None,
           "speedup_cold_median": theirs / cold if theirs else None}, open(out, "w"), indent=1)
print(f"wrote {out}")
PY
