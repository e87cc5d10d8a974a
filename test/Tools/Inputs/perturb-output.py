"""perturb-output.py CASE OUT FRACTION: CASE with its smallest nonzero expected output moved by FRACTION of
the output's largest magnitude (its relative change then far above tinygrad-run's 1e-5), written to OUT."""
import json
import sys

case, out, fraction = sys.argv[1], sys.argv[2], float(sys.argv[3])
with open(case) as f:
    d = json.load(f)
vals = d["outputs"]["0"]
largest = max(abs(v) for v in vals)
i = min((j for j, v in enumerate(vals) if v != 0), key=lambda j: abs(vals[j]))
vals[i] += fraction * largest
with open(out, "w") as f:
    json.dump(d, f)
