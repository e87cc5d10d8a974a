"""Records tinygrad's own spec verdicts on every corpus graph, as test data for
test/Transforms/corpus-spec.test. Run from a tinygrad checkout (a9069c17):
  cd <tinygrad> && python3 <repo>/scripts/gen-spec-verdicts.py <corpus dir> > <repo>/test/Transforms/Inputs/spec-verdicts.json
For each (file, record id, graph path, phase) it stores "ok" or the index of the
node type_verify rejects (its position in tinygrad's toposort, which is the
node id in the corpus JSON)."""
import glob, json, os, re, sys

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tools"))
from check_against_tinygrad import build  # noqa: E402
from tinygrad.uop.spec import type_verify, spec_tensor, spec_full  # noqa: E402

PHASES = {"tensor": spec_tensor, "full": spec_full}

def verdict(graph, spec):
  try:
    type_verify(build(graph), spec)
    return "ok"
  except RuntimeError as e:
    m = re.search(r"failed at (\d+)", str(e))
    return int(m.group(1)) if m else "error"

def main():
  corpus = sys.argv[1]
  out = []
  for path in sorted(glob.glob(os.path.join(corpus, "kernels", "*.json"))):
    d = json.load(open(path))
    for ph, spec in PHASES.items():
      out.append({"file": "kernels/" + os.path.basename(path), "id": d["id"], "graph": "ast", "phase": ph, "verdict": verdict(d["ast"], spec)})
  for line in open(os.path.join(corpus, "schedules.jsonl")):
    d = json.loads(line)
    for g in ("tensor_graph", "call"):
      for ph, spec in PHASES.items():
        out.append({"file": "schedules.jsonl", "id": d["id"], "graph": g, "phase": ph, "verdict": verdict(d[g], spec)})
  json.dump(out, sys.stdout, indent=0)
  print()

if __name__ == "__main__": main()
