"""A kernel case (the corpus `kernels/` format tinygrad-run --case reads) from a kernel the hook's
TINYGRAD_MLIR_CHECK found different from tinygrad's, saved by TINYGRAD_MLIR_SAVE_FAILED: the AST
(<kernel>.json), the inputs before the launch (<kernel>.inputs.npz) and tinygrad's outputs
(<kernel>.tinygrad.npz), so the mismatch reruns without tinygrad (and can become a recorded case).

usage: python3 case_from_mismatch.py DIR/wrong-<kernel>-<digest>.json OUT.json
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from tinygrad_mlir.c_semantics import INT_DTYPES  # noqa: E402

NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "bool": np.bool_,
      **{n: np.dtype(n) for n in INT_DTYPES}}


def values(raw, dtype):
  if dtype == "bfloat16":  # the float each holds
    arr = (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
  elif dtype in NP:
    arr = raw.view(NP[dtype])
  else:
    raise SystemExit(f"no values for dtype {dtype}")
  enc = lambda v: bool(v) if dtype == "bool" else int(v) if dtype in INT_DTYPES else \
      (float(v) if math.isfinite(v) else str(float(v)))  # noqa: E731
  return [enc(v) for v in arr.tolist()]


def main():
  ast_path, out = sys.argv[1], sys.argv[2]
  base = ast_path[:-5]
  ast = json.load(open(ast_path))
  ins, ref = np.load(base + ".inputs.npz"), np.load(base + ".tinygrad.npz")
  params = [n for n in ast["nodes"] if n["op"] == "PARAM" and n["arg"].get("addrspace") != "ALU"]
  var_vals = {k: int(v) for k, v in ref["vars"]} if "vars" in ref else {}
  case = {"id": os.path.basename(base), "description": f"a mismatch saved by TINYGRAD_MLIR_CHECK ({base})",
          "ast": ast, "vars": sorted(var_vals), "var_vals": var_vals, "inputs": {}, "outputs": {},
          "params": [{"slot": p["arg"]["slot"], "dtype": p["arg"]["dtype"],
                      "size": next(n for n in ast["nodes"] if n["id"] == p["src"][0])["arg"],
                      "addrspace": "GLOBAL"} for p in params]}
  for p in case["params"]:
    key = f"slot{p['slot']}"
    if key in ins:
      case["inputs"][str(p["slot"])] = values(ins[key], p["dtype"])
    if key in ref:
      case["outputs"][str(p["slot"])] = values(ref[key], p["dtype"])
  json.dump(case, open(out, "w"))


if __name__ == "__main__":
  main()
