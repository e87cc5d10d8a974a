"""Runs the tensor-dialect examples end to end and prints our results beside numpy's.

Each examples/tensor/*.mlir is a tinygrad tensor program in the tg/tgt dialects. For each, the
program's buffers get seeded random inputs, `tinygrad-translate --export-tinygrad-json` turns the
module into the graph tinygrad hands its scheduler, and `tinygrad-run --write-outputs` schedules it,
compiles every kernel through our CPU pipeline and runs the schedule on our runtime. The result is
compared with the same computation in numpy. Exit status 1 if any example differs.

usage: run.py BUILD_DIR"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def conv2d(x, w, b, pad):
  xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
  kh, kw = w.shape[2:]
  oh, ow = xp.shape[2] - kh + 1, xp.shape[3] - kw + 1
  out = np.zeros((x.shape[0], w.shape[0], oh, ow), np.float32)
  for dy in range(kh):
    for dx in range(kw):
      out += np.einsum("nchw,oc->nohw", xp[:, :, dy:dy + oh, dx:dx + ow], w[:, :, dy, dx])
  return out + b.reshape(1, -1, 1, 1)


def softmax(x):
  e = np.exp(x - x.max(-1, keepdims=True))
  return e / e.sum(-1, keepdims=True)


# example -> numpy reference over the program's buffers, in slot order
REFERENCE = {
  "matmul_bias_relu": lambda x, w, b: np.maximum(x.reshape(4, 8) @ w.reshape(8, 3) + b, 0),
  "softmax": lambda x: softmax(x.reshape(4, 6)),
  "layernorm": lambda x: (lambda a: (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5))(
    x.reshape(4, 16)),
  "conv2d_layer": lambda x, w, b: np.maximum(conv2d(x.reshape(1, 2, 6, 6), w.reshape(3, 2, 3, 3), b, 1), 0),
  "assign_inplace": lambda a, b: a.reshape(2, 3) * 2 + b.reshape(2, 3),
}


def run(build, name, tmp):
  tool = lambda t: os.path.join(build, "bin", t)
  graph = json.loads(subprocess.run([tool("tinygrad-translate"), "--export-tinygrad-json",
                                     os.path.join(HERE, name + ".mlir")], check=True, capture_output=True,
                                    text=True).stdout)
  bufs = sorted((n for n in graph["nodes"] if n["op"] == "BUFFER"), key=lambda n: n["arg"]["slot"])
  rng = np.random.default_rng(0)
  inputs = [rng.standard_normal(graph["nodes"][b["src"][0]]["arg"]).astype(np.float32) for b in bufs]
  want = REFERENCE[name](*inputs).astype(np.float32)
  record = {"id": name, "inputs": [{"name": f"buf{i}", "shape": list(a.shape), "dtype": "float32",
                                    "values": a.tolist()} for i, a in enumerate(inputs)],
            "tensor_graph": graph, "outputs": [{"shape": list(want.shape), "dtype": "float32", "values": None}],
            "var_vals": {}}
  rec, out = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".out.json")
  with open(rec, "w") as f: json.dump(record, f)
  p = subprocess.run([tool("tinygrad-run"), "--case", rec, "--write-outputs", out], capture_output=True, text=True)
  if p.returncode != 0:
    print(f"{name}: tinygrad-run failed\n{p.stderr or p.stdout}")
    return False
  with open(out) as f: got = np.asarray(json.load(f)[0]["values"], np.float32).reshape(want.shape)
  ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
  summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
  print(f"{name} ({summary.split(' values, ', 1)[-1].split(', run')[0]})")
  print(f"  ours : {np.array2string(got.reshape(-1)[:6], precision=4)}")
  print(f"  numpy: {np.array2string(want.reshape(-1)[:6], precision=4)}")
  print(f"  {'match' if ok else 'DIFFERS'}: max abs difference {np.abs(got - want).max():.2e} over {want.size} values")
  return ok


def main():
  build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build")
  with tempfile.TemporaryDirectory() as tmp:
    results = [run(build, name, tmp) for name in REFERENCE]
  print(f"tensor examples: {sum(results)}/{len(results)} match numpy")
  return 0 if all(results) else 1


if __name__ == "__main__":
  sys.exit(main())
