"""The defined float-to-int conversion (docs/Design.md, "Values as tinygrad's C computes them"), written
independently of the lowering, applied to a recorded case of python/tools/record_kernel.py's float32_to_ints /
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
import math
import struct
import sys

INT_DTYPES = [("int8", 8, True), ("uint8", 8, False), ("int16", 16, True), ("uint16", 16, False),
              ("int32", 32, True), ("uint32", 32, False), ("int64", 64, True), ("uint64", 64, False)]


def cvtt(x, w):
  lim = 2 ** (w - 1)
  return int(x) if not math.isnan(x) and -lim <= x < lim else -lim


def wrap(v, w, signed):
  v &= (1 << w) - 1
  return v - (1 << w) if signed and v >= 1 << (w - 1) else v


def rule(x, w, signed, f32):
  if w < 32: return wrap(cvtt(x, 32), w, signed)
  if signed: return cvtt(x, w)
  half = 2.0 ** (w - 1)
  if not x >= half: return wrap(cvtt(x, w), w, False)
  y = x - half
  if f32: y = struct.unpack("<f", struct.pack("<f", y))[0]  # the subtraction rounds at float32
  return wrap(cvtt(y, w) ^ -(1 << (w - 1)), w, False)


def defined(x, w, signed):
  """C defines the conversion where the truncated value is representable in the target type."""
  if not math.isfinite(x): return False
  lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
  return lo <= math.trunc(x) <= hi


def main():
  case = json.load(open(sys.argv[1]))
  xs = [float(v) for v in case["inputs"]["1"]]
  f32 = case["params"][1]["dtype"] == "float32"
  want, got = [], case["outputs"]["0"]
  for k, (name, w, signed) in enumerate(INT_DTYPES):
    for i, x in enumerate(xs):
      r = wrap(rule(x, w, signed, f32), 64, True)  # widened to int64 as the program stores it
      tg = got[k * len(xs) + i]
      if defined(x, w, signed) and tg != r:
        sys.exit(f"{name}({x}): the rule gives {r}, tinygrad's C {tg} where C defines the value")
      want.append(r)
  assert len(want) == len(got), "the case is not float*_to_ints"
  case["outputs"]["0"] = want
  json.dump(case, open(sys.argv[2], "w"))


if __name__ == "__main__":
  main()
