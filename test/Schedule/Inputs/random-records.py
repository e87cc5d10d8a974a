"""Random tensor programs as records for the textual-pipeline tests: their tensor graphs and kernel ASTs.

  cd <tinygrad> && PYTHONPATH=<repo>/python:. python3 random-records.py REPO SEED COUNT PROGRAMS.jsonl KERNELS.jsonl

The programs are scripts/random-kernels.py's (program i of seed s is the same program there:
`random.Random(f"{s}/{i}")`), drawn in its three modes in turn (plain, bound-Variable slices,
contractions). For each one tinygrad schedules (DEV=CPU, nothing runs): the graph it hands its
scheduler (transform_to_call's argument) is one line of PROGRAMS.jsonl, and the ASTs of the kernels
its LINEAR calls are lines of KERNELS.jsonl (corpus kernel format without values). A program tinygrad
itself refuses to build or schedule is left out, and counted on stderr.
"""
import importlib.util
import json
import os
import random
import sys

os.environ["DEV"] = "CPU"
os.environ["TINYGRAD_MLIR_CHECK"] = "0"

import tinygrad.tensor as tt  # noqa: E402
from tinygrad.uop.ops import Ops  # noqa: E402
from tinygrad_mlir.uop_json import uop_to_json, validate_graph  # noqa: E402


def load_generator(repo):
  spec = importlib.util.spec_from_file_location("random_kernels", os.path.join(repo, "scripts", "random-kernels.py"))
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def main():
  repo, seed, count, prog_out, kern_out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
  rk = load_generator(repo)
  modes = [("plain", rk.program), ("variables", rk.variable_program), ("contractions", rk.contraction_program)]
  captured = []
  orig = tt.transform_to_call

  def capture(big_sink):
    captured.append(big_sink)
    return orig(big_sink)

  tt.transform_to_call = capture
  refused = 0
  with open(prog_out, "w") as pf, open(kern_out, "w") as kf:
    for i in range(count):
      mode, gen = modes[i % len(modes)]
      rng = random.Random(f"{seed}/{i}")
      captured.clear()
      try:
        t, steps = gen(rng)
        linear, var_vals = t.linear_with_vars()
      except Exception as e:  # tinygrad's own refusal (a cast it cannot build, ...): not a program
        refused += 1
        print(f"program {i} ({mode}): tinygrad refused: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
              file=sys.stderr)
        continue
      pid = f"random_{mode}_s{seed}_{i}"
      graph = uop_to_json(captured[-1])
      validate_graph(graph)
      pf.write(json.dumps({"id": pid, "description": " ".join(steps), "tensor_graph": graph,
                           "var_vals": dict(var_vals)}, separators=(",", ":")) + "\n")
      asts = [c.src[0] for c in linear.src if c.op is Ops.CALL and c.src[0].op is Ops.SINK]
      for k, ast in enumerate(asts):
        kf.write(json.dumps({"id": f"{pid}__k{k}", "ast": uop_to_json(ast), "var_vals": dict(var_vals)},
                            separators=(",", ":")) + "\n")
  print(f"random-records: {count - refused} programs written, {refused} refused by tinygrad", file=sys.stderr)


if __name__ == "__main__":
  main()
