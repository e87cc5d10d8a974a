"""The defined float-to-int conversion (python/tinygrad_mlir/c_semantics.py, written independently of the
lowering; docs/Design.md, "Values as tinygrad's C computes them") applied to a recorded case of python/tools/record_kernel.py's float32_to_ints /
float64_to_ints (the inputs cast to each integer dtype in INT_DTYPES' order, each widened to int64, concatenated).

C defines the conversion only where the truncated value fits the target; there the rule must give what tinygrad's
recorded outputs hold, which this script asserts. Elsewhere tinygrad's answer is whatever instruction clang picked
(AVX-512's unsigned converts saturate), so the outputs are replaced by the rule's and the case is written to argv[2]:
    signed 32/64-bit      x86's cvtt*: truncate; NaN and out of range give INT_MIN of the width
    8/16-bit              the 32-bit signed conversion, wrapped (C's conversion through int)
    unsigned 32/64-bit    x < 2^(w-1) or NaN: the signed conversion; else that of x - 2^(w-1), top bit flipped
usage: float_to_int_rule.py RECORDED.json OUT.json
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 4, "python"))
from tinygrad_mlir.c_semantics import c_defines, float_to_int, wrap  # noqa: E402

INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def main():
  case = json.load(open(sys.argv[1]))
  xs = [float(v) for v in case["inputs"]["1"]]
  f32 = case["params"][1]["dtype"] == "float32"
  want, got = [], case["outputs"]["0"]
  for k, name in enumerate(INT_DTYPES):
    for i, x in enumerate(xs):
      r = wrap(float_to_int(x, name, f32), 64, True)  # widened to int64 as the program stores it
      tg = got[k * len(xs) + i]
      if c_defines(x, name) and tg != r:
        sys.exit(f"{name}({x}): the rule gives {r}, tinygrad's C {tg} where C defines the value")
      want.append(r)
  assert len(want) == len(got), "the case is not float*_to_ints"
  case["outputs"]["0"] = want
  json.dump(case, open(sys.argv[2], "w"))


if __name__ == "__main__":
  main()
