#!/usr/bin/env bash
# Scheduling time (tensor graph -> LINEAR): ours (cold: a fresh interning
# context per repetition; and warm, labelled) and, when TINYGRAD_SRC points
# at a tinygrad checkout, tinygrad's (schedule cache cleared) on the same
# programs in one run, as ratios. Writes build/bench/schedule.json.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${TG_CORPUS:-${TG_CORPUS_DIR:-$ROOT/../shared/corpus}/schedules.jsonl}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
mkdir -p "$BUILD/bench"
ours=$("$BUILD/bench/bench-schedule" "$CORPUS" "${REPS:-20}")
echo "$ours" | grep -E "^(SKIP|OURS|PEAK)"
echo "$ours" | awk '/^PROGRAM/ {print $2}' > "$BUILD/bench/schedule-programs.txt"
theirs=""
if [ -n "${TINYGRAD_SRC:-}" ] && [ -d "$TINYGRAD_SRC/tinygrad" ]; then
  theirs=$(cd "$TINYGRAD_SRC" && PYTHONPATH="$ROOT/python:$ROOT/python/tools:." \
    python3 "$ROOT/bench/schedule/tinygrad_reference.py" "$CORPUS" "${TG_REPS:-5}" "$BUILD/bench/schedule-programs.txt")
  echo "$theirs" | grep TINYGRAD_MEDIAN_US
else
  echo "tinygrad reference skipped: set TINYGRAD_SRC to a tinygrad checkout to compare"
fi
python3 - "$BUILD/bench/schedule.json" <<PY
import json, sys
ours = """$ours""".splitlines()
theirs = """$theirs""".splitlines()
rows = [l.split() for l in ours if l.startswith("PROGRAM")]
o = {r[1]: float(r[2]) for r in rows}       # cold: a fresh interning context per repetition
ow = {r[1]: float(r[3]) for r in rows}      # warm: the first run's nodes kept interned
t = {l.split()[1]: float(l.split()[2]) for l in theirs if l.startswith("PROGRAM")}
peak = next(l.split()[1:] for l in ours if l.startswith("PEAK_BYTES"))
med = lambda xs: sorted(xs)[len(xs) // 2] if xs else None
ratios = [t[k] / o[k] for k in o if k in t and o[k] > 0]
warm_ratios = [t[k] / ow[k] for k in ow if k in t and ow[k] > 0]
# The headline is ours cold against tinygrad as timed (its weak node cache rebuilds its nodes every
# repetition); ours warm reuses every node of an untimed first run, which tinygrad's side does not.
res = {"programs": len(o), "skipped": [l.split()[1].rstrip(":") for l in ours if l.startswith("SKIP")],
       "schedule_ms_median": med(list(o.values())) / 1e3,
       "tinygrad_schedule_ms_median": med(list(t.values())) / 1e3 if t else None,
       "speedup_median": med(ratios),
       "schedule_warm_ms_median": med(list(ow.values())) / 1e3,
       "speedup_warm_median": med(warm_ratios),
       "note": "schedule_ms/speedup_median: ours cold (a fresh interning context per repetition) against "
               "tinygrad as timed; the _warm figures keep the first run's nodes interned, which tinygrad's "
               "weak node cache does not",
       "peak_bytes_planned": int(peak[0]), "peak_bytes_unplanned": int(peak[1]),
       "peak_bytes_planned_vs_unplanned": int(peak[0]) / int(peak[1]) if int(peak[1]) else 1.0}
json.dump(res, open(sys.argv[1], "w"), indent=1)
print(f"schedule: ours cold median {res['schedule_ms_median']:.3f} ms"
      + (f", tinygrad {res['tinygrad_schedule_ms_median']:.3f} ms, speedup median (per program) {res['speedup_median']:.1f}x"
         f"; ours warm (first run's nodes kept interned, not like for like) {res['schedule_warm_ms_median']:.3f} ms, "
         f"{res['speedup_warm_median']:.1f}x" if t else ""))
print(f"peak bytes planned/unplanned: {res['peak_bytes_planned']}/{res['peak_bytes_unplanned']}")
print(f"wrote {sys.argv[1]}")
PY
