"""The defined answers our lowering gives where tinygrad's C is undefined (docs/Design.md, "Values as
tinygrad's C computes them"), as plain Python: the reference the tests and scripts/random-kernels.py compare
our kernels with, written independently of the lowering.

float -> int (C: undefined where the truncated value does not fit the target, and for NaN/inf):
    signed 32/64-bit      x86's cvtt*: truncate; NaN and out of range give INT_MIN of the width
    8/16-bit              the 32-bit signed conversion, wrapped (C's conversion through int)
    unsigned 32/64-bit    x < 2^(w-1) or NaN: the signed conversion; else that of x - 2^(w-1), top bit flipped
"""
import math
import struct

# name: (bits, signed)
INT_DTYPES = {"int8": (8, True), "uint8": (8, False), "int16": (16, True), "uint16": (16, False),
              "int32": (32, True), "uint32": (32, False), "int64": (64, True), "uint64": (64, False)}


def _cvtt(x, w):
  lim = 2 ** (w - 1)
  return int(x) if not math.isnan(x) and -lim <= x < lim else -lim


def wrap(v, w, signed):
  """v as a w-bit integer (two's complement)."""
  v &= (1 << w) - 1
  return v - (1 << w) if signed and v >= 1 << (w - 1) else v


def float_to_int(x, dtype, f32=False):
  """Our conversion of the float x (a Python float holding the source value) to integer dtype `dtype`
  (a name of INT_DTYPES). f32: the source computes in float32 (float16/bfloat16/float32), so x - 2^(w-1)
  rounds there."""
  w, signed = INT_DTYPES[dtype]
  if w < 32: return wrap(_cvtt(x, 32), w, signed)
  if signed: return _cvtt(x, w)
  half = 2.0 ** (w - 1)
  if not x >= half: return wrap(_cvtt(x, w), w, False)
  y = x - half
  if f32: y = struct.unpack("<f", struct.pack("<f", y))[0]
  return wrap(_cvtt(y, w) ^ -(1 << (w - 1)), w, False)


def c_defines(x, dtype):
  """Whether C defines the conversion of x to `dtype`: the truncated value is representable there."""
  if not math.isfinite(x): return False
  w, signed = INT_DTYPES[dtype]
  lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
  return lo <= math.trunc(x) <= hi
