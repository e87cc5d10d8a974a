"""tinygrad's own time for the cases bench-symbolic runs: graph_rewrite with
sym + pm_cast_weak on graphs rebuilt from the corpus, each case run once
before timing (imports, functools caches). Only the input graph stays alive
between repetitions: tinygrad's node cache holds nodes weakly, so the nodes
each rewrite makes are made again every time, which bench-symbolic's cold
figure (a fresh interning context per repetition) matches.
Run from a tinygrad checkout: cd <tinygrad> && python3 <this> <symbolic.jsonl> [reps]"""
import json, os, statistics, sys, time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "tools"))
from check_against_tinygrad import build  # noqa: E402  (rebuilds live UOps from corpus JSON)
from tinygrad.uop.ops import graph_rewrite  # noqa: E402
from tinygrad.uop.symbolic import sym  # noqa: E402
from tinygrad.uop.weak import pm_cast_weak  # noqa: E402

def main():
  path, reps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
  pm = sym + pm_cast_weak
  medians = []
  for line in open(path):
    d = json.loads(line)
    if d["kind"] not in ("simplify", "numeric_const") or d.get("tinygrad") is None: continue
    u = build(d["input"])
    try: graph_rewrite(u, pm)
    except Exception: continue
    ts = []
    for _ in range(reps):
      t0 = time.perf_counter(); graph_rewrite(u, pm); ts.append(time.perf_counter() - t0)
    medians.append(statistics.median(ts))
  medians.sort()
  print(f"tinygrad: median {statistics.median(medians)*1e6:.2f} us per case over {len(medians)} cases, total {sum(medians)*1e3:.3f} ms per corpus pass")
  print(f"TINYGRAD_MEDIAN_US {statistics.median(medians)*1e6:.3f}")

if __name__ == "__main__": main()
