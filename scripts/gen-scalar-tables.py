#!/usr/bin/env python3
"""Generate the expected-value tables for unittests/Support from real tinygrad.

Run from a tinygrad checkout:
  cd /work/tinygrad-src && python3 /work/main/scripts/gen-scalar-tables.py

Writes unittests/Support/DTypeTable.inc and unittests/Support/ScalarALUTable.inc
next to this repository's unittests, so the C++ tests never need tinygrad.
Every expected value is whatever tinygrad returns (or "raises"); the script
only chooses inputs.
"""
import math, os, random, struct, sys

sys.path.insert(0, os.getcwd())
from tinygrad.dtype import (dtypes, DTypes, DType, Invalid, InvalidType, ConstFloat, truncate, least_upper_dtype, least_upper_float,
                            sum_acc_dtype, can_lossless_cast, strong_dtype, weak_dtype, to_dtype, bitcast)
from tinygrad.uop.ops import Ops, exec_alu

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unittests", "Support")

# C++ enum spelling for every tinygrad dtype, in enum order.
CXX_DTYPES = [("void", "Void"), ("weakint", "WeakInt"), ("bool", "Bool"), ("int8", "Int8"), ("uint8", "UInt8"),
              ("int16", "Int16"), ("uint16", "UInt16"), ("int32", "Int32"), ("uint32", "UInt32"), ("int64", "Int64"),
              ("uint64", "UInt64"), ("_uint128", "UInt128"), ("_uint256", "UInt256"), ("weakfloat", "WeakFloat"),
              ("fp8e4m3", "FP8E4M3"), ("fp8e5m2", "FP8E5M2"), ("fp8e4m3fnuz", "FP8E4M3FNUZ"), ("fp8e5m2fnuz", "FP8E5M2FNUZ"),
              ("float16", "Float16"), ("bfloat16", "BFloat16"), ("float32", "Float32"), ("float64", "Float64")]
DT = {name: getattr(dtypes, name) for name, _ in CXX_DTYPES}
CXX = {getattr(dtypes, name): cxx for name, cxx in CXX_DTYPES}
ALL = [DT[n] for n, _ in CXX_DTYPES]

def dt(d): return "DType::" + CXX[d]

CXX_OPS = {Ops.EXP2: "Exp2", Ops.LOG2: "Log2", Ops.SIN: "Sin", Ops.SQRT: "Sqrt", Ops.RECIPROCAL: "Reciprocal", Ops.NEG: "Neg",
           Ops.TRUNC: "Trunc", Ops.ADD: "Add", Ops.MUL: "Mul", Ops.SHL: "Shl", Ops.SHR: "Shr", Ops.CDIV: "CDiv", Ops.MAX: "Max",
           Ops.CMOD: "CMod", Ops.CMPLT: "CmpLt", Ops.CMPNE: "CmpNe", Ops.CMPEQ: "CmpEq", Ops.XOR: "Xor", Ops.OR: "Or",
           Ops.AND: "And", Ops.THREEFRY: "Threefry", Ops.SUB: "Sub", Ops.FDIV: "FDiv", Ops.POW: "Pow",
           Ops.FLOORDIV: "FloorDiv", Ops.FLOORMOD: "FloorMod", Ops.WHERE: "Where", Ops.MULACC: "MulAcc"}

RAISE = object()  # tinygrad raised

def enc(v) -> str:
  """A Python value as a C++ TV initializer."""
  if v is RAISE: return "TX"
  if isinstance(v, InvalidType): return "TINV"
  if isinstance(v, bool): return f"TB({int(v)})"
  if isinstance(v, int):
    if not -2**127 <= v < 2**127: return "TO"  # past __int128: C++ must give nullopt
    if -2**63 <= v < 2**63: return f"TI({v}ll)" if v != -2**63 else "TI(-0x7fffffffffffffffll - 1)"
    hi = v >> 64
    hi_s = f"{hi}ll" if hi != -2**63 else "-0x7fffffffffffffffll - 1"
    return f"TI2({hi_s}, 0x{v & (2**64-1):x}ull)"
  if isinstance(v, float): return f"TF(0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016x}ull)"
  raise TypeError(f"cannot encode {v!r}")

def call(f, *args):
  try: return f(*args)
  except Exception: return RAISE

# ---------------------------------------------------------------- input values

def in_range(d:DType, v:int) -> bool:
  if d is dtypes.weakint: return -2**127 <= v < 2**127
  if d in (dtypes._uint128, dtypes._uint256): return 0 <= v < 2**127
  return d.min <= v <= d.max

INT_EDGES = [0, 1, -1, 2, -2, 3, 5, -5, 7, -7, 31, 32, 63, 64, 100, -100, 127, 128, 255, 1000]
WEAK_INT_EXTRA = [2**31, -2**31, 2**63, -2**63, 2**64-1, 2**100, -2**100, 2**126, 2**127-1, -2**127]
FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, 7.0, -7.0, 0.1, 100.0, 1e10, -1e10,
               65504.0, 65520.0, 3.4e38, 1e300, 1e-300, 5e-324, 1e-40, math.pi, math.inf, -math.inf, math.nan]

def values(d:DType) -> list:
  """Distinct consts of dtype d, as tinygrad's const folder would hold them."""
  if d is dtypes.bool: return [False, True]
  if dtypes.is_float(d): raw = FLOAT_EDGES
  else:
    raw = INT_EDGES + ([d.min, d.max, d.min + 1, d.max - 1] if dtypes.is_int(d) and d is not dtypes.weakint else [])
    if d is dtypes.weakint or d in (dtypes._uint128, dtypes._uint256): raw = raw + WEAK_INT_EXTRA
    raw = [v for v in raw if in_range(d, v)]
  out, seen = [], set()
  for v in raw:
    c = d.const(v)
    key = (type(c), struct.pack('<d', c) if isinstance(c, float) else c)
    if key not in seen: seen.add(key); out.append(c)
  return out

def dedup(ps:list) -> list:
  out, seen = [], set()
  for p in ps:
    key = tuple((type(x), struct.pack('<d', x) if isinstance(x, float) else x) for x in p)
    if key not in seen: seen.add(key); out.append(p)
  return out

def pairs(d:DType, rng:random.Random, n_random:int, must=()) -> list:
  """The op's must-have pairs that fit d, pairs at d's extremes, and a few random ones."""
  vs = values(d)
  if d is dtypes.bool: return [(a, b) for a in vs for b in vs]
  fl = dtypes.is_float(d)
  ps = [(d.const(a), d.const(b)) for a, b in must if fl or all(isinstance(x, int) and in_range(d, x) for x in (a, b))]
  if not fl:
    lo, hi = min(vs), max(vs)
    ps += [(hi, d.const(1)), (lo, d.const(-1) if lo < 0 else d.const(1)), (hi, hi), (lo, hi)]
  ps += [(rng.choice(vs), rng.choice(vs)) for _ in range(n_random)]
  return dedup(ps)

# ---------------------------------------------------------------- ALU rows

ARITH_DTYPES = [d for d in ALL if d is not dtypes.void and d is not dtypes._uint256]
INT_LIKE = [dtypes.bool, dtypes.weakint, *dtypes.sints, *dtypes.uints, dtypes._uint128]

def alu_rows() -> list[str]:
  rng = random.Random(1234)
  rows = []
  def add(op, d, args, trunc=True, note=""):
    if op is Ops.THREEFRY: exp = threefry_expected(args)
    else: exp = call(exec_alu, op, d, list(args), trunc)
    padded = [enc(a) for a in args] + ["TN"] * (3 - len(args))
    rows.append(f"{{ALUOp::{CXX_OPS[op]}, {dt(d)}, {int(trunc)}, {{{', '.join(padded)}}}, {enc(exp)}}},{note}")

  # unary: math ops only over floats (+ a couple of int dtypes), NEG/TRUNC everywhere
  for op in (Ops.EXP2, Ops.LOG2, Ops.SIN, Ops.SQRT, Ops.RECIPROCAL, Ops.NEG, Ops.TRUNC):
    dts = ARITH_DTYPES if op in (Ops.NEG, Ops.TRUNC, Ops.RECIPROCAL, Ops.EXP2) else \
      [d for d in ARITH_DTYPES if dtypes.is_float(d)] + [dtypes.int32, dtypes.weakint]
    for d in dts:
      vs = values(d)
      if op is Ops.EXP2 and not dtypes.is_float(d): vs = [v for v in vs if v < 300]  # 2**huge never finishes
      if len(vs) > 9: vs = vs[:5] + rng.sample(vs[5:], 4)
      for v in vs: add(op, d, (v,))

  must = {
    "arith": ([(7, 2), (-7, -2), (0, 0), (-1, 1), (100, 100), (-100, 3)],
              [(7.0, 2.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (math.inf, -math.inf), (math.nan, 1.0), (1.0, math.nan),
               (3.4e38, 3.4e38), (1e-300, 1e-300), (65504.0, 65504.0), (-1.5, math.inf)]),
    "div": ([(7, 2), (-7, 2), (7, -2), (-7, -2), (5, 0), (-5, 0), (0, 0), (0, 7), (-1, 100)],
            [(7.0, 2.0), (-7.0, 2.0), (7.5, -2.0), (-7.5, -2.0), (1.0, 0.0), (-1.0, -0.0), (0.0, -0.0), (-0.0, 7.0), (1e-300, -1e-300),
             (math.inf, 2.0), (2.0, math.inf), (-2.0, math.inf), (math.nan, 0.0), (1.0, math.nan), (1e300, 1e-300)]),
    "pow": ([(2, 10), (3, 40), (-2, 3), (2, -1), (0, -1), (0, 0), (-3, -2), (2, 127), (-2, 127), (2, 200), (3, 200), (-1, 7), (7, 0)],
            [(2.0, 10.0), (-8.0, 1/3), (10.0, 400.0), (0.0, -1.0), (-0.0, -3.0), (-0.0, 3.0), (-2.0, 3.0), (-1e300, 1.5), (-2.0, 0.5),
             (1.0, math.nan), (math.nan, 0.0), (-1.0, math.inf), (0.5, -math.inf), (math.inf, -3.0), (-math.inf, 3.0), (2.0, -1100.0)]),
  }
  kind = {Ops.ADD: "arith", Ops.SUB: "arith", Ops.MUL: "arith", Ops.MAX: "arith", Ops.CDIV: "div", Ops.CMOD: "div",
          Ops.FLOORDIV: "div", Ops.FLOORMOD: "div", Ops.POW: "pow"}
  for op in kind:
    for d in ARITH_DTYPES:
      mi, mf = must[kind[op]]
      m = mf if dtypes.is_float(d) else mi
      if d in dtypes.fp8s or d in (dtypes.bfloat16, dtypes._uint128): m = m[:6]
      ps = pairs(d, rng, 2, m)
      if op is Ops.POW and not dtypes.is_float(d): ps = [(a, b) for a, b in ps if b < 300]
      for a, b in ps: add(op, d, (a, b))

  shift_must = [(7, 2), (1, 7), (-1, 8), (255, 1), (-8, 1), (5, -1), (1, 31), (1, 63), (1, 127), (1, 128), (-1, 200), (-5, 70), (3, 64)]
  for op in (Ops.XOR, Ops.OR, Ops.AND, Ops.SHL, Ops.SHR):
    for d in INT_LIKE + [dtypes.float32]:
      ps = pairs(d, rng, 2, shift_must if op in (Ops.SHL, Ops.SHR) else [(12, 10), (-1, 5), (-8, -3), (0, 255), (6, -1)])
      if op in (Ops.SHL, Ops.SHR): ps = [(a, b) for a, b in ps if isinstance(b, float) or b < 300]
      for a, b in ps: add(op, d, (a, b))

  for op in (Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ):
    for d in ARITH_DTYPES:
      cm = [(1.0, 2.0), (-0.0, 0.0), (math.nan, math.nan), (math.nan, 1.0), (math.inf, math.inf)] if dtypes.is_float(d) else \
        [(1, 2), (2, 1), (-1, 0), (5, 5)]
      for a, b in pairs(d, rng, 2, cm): add(op, dtypes.bool, (a, b))
    # mixed python types: int vs float, exactness past 2**53
    for a, b in [(2**53 + 1, float(2**53)), (float(2**53), 2**53 + 1), (1, 1.0), (True, 1.0), (0, -0.0), (3, math.nan), (-2**100, -math.inf),
                 (2**126, 1e38), (2**126, 8.507059173023462e37)]:
      add(op, dtypes.bool, (a, b))

  for d in [dtypes.uint64]:  # THREEFRY only exists at uint64
    for _ in range(14): add(Ops.THREEFRY, d, (rng.getrandbits(64), rng.getrandbits(64)))
    add(Ops.THREEFRY, d, (0, 0)); add(Ops.THREEFRY, d, (2**64 - 1, 2**64 - 1))

  # FDIV has no python_alu entry: tinygrad raises unless an operand is Invalid
  for d in (dtypes.float32, dtypes.float16, dtypes.int32):
    for a, b in [(d.const(1), d.const(2)), (d.const(1), d.const(0))]: add(Ops.FDIV, d, (a, b))

  # Invalid: binary ops short-circuit, everything else sees a plain object
  for op in [o for o in CXX_OPS if o not in (Ops.WHERE, Ops.MULACC)]:
    nargs = 1 if op in (Ops.EXP2, Ops.LOG2, Ops.SIN, Ops.SQRT, Ops.RECIPROCAL, Ops.NEG, Ops.TRUNC) else 2
    d = dtypes.uint64 if op is Ops.THREEFRY else dtypes.int32
    if nargs == 1: add(op, d, (Invalid,))
    else: add(op, d, (Invalid, d.const(3))); add(op, dtypes.float32, (dtypes.float32.const(1.5), Invalid))

  for d in [dtypes.bool, dtypes.weakint, dtypes.int8, dtypes.uint8, dtypes.int32, dtypes.uint64, dtypes.weakfloat, dtypes.float16,
            dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.fp8e4m3, dtypes.fp8e5m2fnuz]:
    vs = values(d)
    y, z = vs[min(3, len(vs) - 1)], vs[-1]
    for c in [True, False, 0, 2, 0.0, -0.0, math.nan, Invalid]:
      add(Ops.WHERE, d, (c, y, z))
    for inv in [(True, Invalid, z), (False, y, Invalid)]: add(Ops.WHERE, d, inv)
    for trip in [rng.sample(vs, 3) if len(vs) >= 3 else (vs[0], vs[-1], vs[0]) for _ in range(4)]:
      add(Ops.MULACC, d, tuple(trip))
    add(Ops.MULACC, d, (vs[-1], vs[-1], vs[0]))
    add(Ops.MULACC, d, (Invalid, vs[0], vs[0]))

  # truncate_output=False keeps Python's unbounded ints and unrounded floats
  for op, d, args in [(Ops.ADD, dtypes.uint8, (250, 250)), (Ops.MUL, dtypes.int32, (2**31 - 1, 2**31 - 1)),
                      (Ops.SUB, dtypes.uint32, (0, 1)), (Ops.NEG, dtypes.int8, (-128,)), (Ops.SHL, dtypes.int64, (1, 100)),
                      (Ops.SHL, dtypes.int64, (3, 130)), (Ops.MUL, dtypes.uint64, (2**64 - 1, 2**64 - 1)),
                      (Ops.ADD, dtypes.float16, (65504.0, 65504.0)), (Ops.MUL, dtypes.float32, (0.1, 0.1)),
                      (Ops.TRUNC, dtypes.float32, (-0.5,)), (Ops.TRUNC, dtypes.float32, (2.5,)), (Ops.TRUNC, dtypes.float64, (1e300,)),
                      (Ops.TRUNC, dtypes.weakfloat, (-7.9,)), (Ops.RECIPROCAL, dtypes.int32, (4,)), (Ops.EXP2, dtypes.int32, (40,)),
                      (Ops.EXP2, dtypes.int32, (-2,)), (Ops.POW, dtypes.int64, (3, 50)), (Ops.POW, dtypes.int64, (3, 100)),
                      (Ops.CMPLT, dtypes.bool, (1, 2)), (Ops.ADD, dtypes.bool, (True, True)), (Ops.WHERE, dtypes.int32, (True, Invalid, 1)),
                      (Ops.FLOORDIV, dtypes.int8, (-128, -1)), (Ops.TRUNC, dtypes.bool, (True,)), (Ops.NEG, dtypes.bool, (True,)),
                      (Ops.MAX, dtypes.weakint, (True, 1)), (Ops.XOR, dtypes.weakint, (True, 3)), (Ops.SHL, dtypes.int64, (0, 2**63)),
                      (Ops.SHR, dtypes.weakint, (-5, 2**70)), (Ops.SHR, dtypes.weakint, (5, 2**70)), (Ops.SHL, dtypes.int64, (1, 2**64)), (Ops.CDIV, dtypes.int8, (-128, -1)), (Ops.MULACC, dtypes.uint8, (16, 16, 1))]:
    add(op, d, args, trunc=False)
    add(op, d, args, trunc=True)
  # huge floats truncated past __int128
  for d in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint64, dtypes.bool, dtypes.float16):
    add(Ops.TRUNC, d, (1e300,)); add(Ops.TRUNC, d, (-3e38,))
  return rows

THREEFRY_CACHE: dict = {}
def threefry_expected(args):
  """exec_alu has no THREEFRY; the value tinygrad computes is its decomposition run on the PYTHON device."""
  if any(isinstance(a, InvalidType) for a in args): return call(exec_alu, Ops.THREEFRY, dtypes.uint64, list(args))
  return THREEFRY_CACHE[tuple(args)]

# ---------------------------------------------------------------- truncate / cast / bitcast rows

CAST_VALUES = [0, -1, 300, -129, 2**31, 2**64 + 5, -2**100, True,
               0.0, -0.0, 1.5, -2.5, -2.7, 0.1, 65519.0, 65520.0, 1e10, 3.4028235677973366e38, 3.5e38, 1e300, 5e-324,
               1e-8, 464.0, 61440.0, 0.00048828125, 1.0009765625, math.inf, -math.inf, math.nan, Invalid]

def truncate_rows() -> list[str]:
  rows = []
  for d in ALL:
    f = truncate.get(d)
    for v in CAST_VALUES:
      exp = v if f is None else call(f, v)
      rows.append(f"{{{dt(d)}, {enc(v)}, {enc(exp)}}},")
  return rows

def cast_rows() -> list[str]:
  return [f"{{{dt(d)}, {enc(v)}, {enc(call(d.const, v))}}}," for d in ALL for v in CAST_VALUES]

def bitcast_rows() -> list[str]:
  rows, rng = [], random.Random(99)
  for a in ALL:
    for b in ALL:
      if a.itemsize != b.itemsize: continue
      vs = values(a) if a is not dtypes.void else [0]
      picks = (vs if len(vs) <= 6 else vs[:3] + rng.sample(vs[3:], 3))
      extra = [300, 1.5, -1] if not dtypes.is_float(a) else [7]
      for v in picks + extra: rows.append(f"{{{dt(a)}, {dt(b)}, {enc(v)}, {enc(call(bitcast, v, a, b))}}},")
  return rows

# ---------------------------------------------------------------- dtype tables

def dtype_table() -> str:
  L = ["// Generated by scripts/gen-scalar-tables.py from tinygrad; do not edit.", ""]
  def opt(d): return "-1" if d is RAISE or not isinstance(d, DType) else f"int({dt(d)})"
  L.append("// {dtype, priority, bitsize, itemsize, name, cname, fmt, isFloat, isInt, isUnsigned, isBool, min, max, finfoExp,"
           " finfoMant, strong, weak}")
  L.append("static const DTypeInfoRow kDTypeInfoRows[] = {")
  for name, _ in CXX_DTYPES:
    d = DT[name]
    fi = call(dtypes.finfo, d)
    fe, fm = (-1, -1) if fi is RAISE else fi
    fmt = f"'{d.fmt}'" if d.fmt else "0"
    L.append(f"  {{{dt(d)}, {d.priority}, {d.bitsize}, {d.itemsize}, \"{name}\", \"{d.name}\", {fmt}, {int(dtypes.is_float(d))}, "
             f"{int(dtypes.is_int(d))}, {int(dtypes.is_unsigned(d))}, {int(dtypes.is_bool(d))}, {enc(d.min)}, {enc(d.max)}, "
             f"{enc(float(d.min))}, {enc(float(d.max))}, {fe}, {fm}, {dt(strong_dtype(d))}, {dt(weak_dtype(d))}}},")
  L.append("};\n")
  L.append("// {a, b, least_upper_dtype(a, b) or -1 where tinygrad raises}")
  L.append("static const LubRow kLubPairs[] = {")
  for a in ALL:
    for b in ALL: L.append(f"  {{{{{dt(a)}, {dt(b)}}}, 2, {opt(call(least_upper_dtype, a, b))}}},")
  rng = random.Random(7)
  lattice = [d for d in ALL if d not in (dtypes.void, dtypes._uint128, dtypes._uint256)]
  for _ in range(60):
    ds = rng.sample(lattice, 3)
    L.append(f"  {{{{{', '.join(dt(x) for x in ds)}}}, 3, {opt(call(least_upper_dtype, *ds))}}},")
  for d in ALL: L.append(f"  {{{{{dt(d)}}}, 1, {opt(call(least_upper_dtype, d))}}},")
  L.append("};\n")
  L.append("// {dtype, least_upper_float, sum_acc_dtype}")
  L.append("static const UnaryDTypeRow kUnaryDTypeRows[] = {")
  for d in ALL: L.append(f"  {{{dt(d)}, {opt(call(least_upper_float, d))}, {opt(call(sum_acc_dtype, d))}}},")
  L.append("};\n")
  L.append("// {from, to, can_lossless_cast(from, to)}")
  L.append("static const LosslessRow kLosslessRows[] = {")
  for a in ALL:
    for b in ALL: L.append(f"  {{{dt(a)}, {dt(b)}, {int(can_lossless_cast(a, b))}}},")
  L.append("};\n")
  L.append("// {string, to_dtype(string) or -1}")
  L.append("static const ParseRow kParseRows[] = {")
  names = [k for k, v in DTypes.__dict__.items() if isinstance(v, DType)]
  names += [n.upper() for n in names] + ["Float32", "floats", "fp8s", "bogus", "", "float8", "uint128"]
  for n in names:
    r = call(to_dtype, n)
    L.append(f"  {{\"{n}\", {opt(r) if isinstance(r, DType) else '-1'}}},")
  L.append("};")
  return "\n".join(L) + "\n"

def main():
  # THREEFRY expectations come from the runtime, computed in one batch
  global THREEFRY_CACHE
  pending = []
  real = threefry_expected
  def collect(args):
    if any(isinstance(a, InvalidType) for a in args): return real(args)
    pending.append(tuple(args)); return 0
  globals()["threefry_expected"] = collect
  alu_rows()
  from tinygrad import Tensor
  xs = Tensor([p[0] for p in pending], dtype=dtypes.uint64, device="PYTHON")
  ks = Tensor([p[1] for p in pending], dtype=dtypes.uint64, device="PYTHON")
  THREEFRY_CACHE = dict(zip(pending, xs.threefry(ks).tolist()))
  globals()["threefry_expected"] = real

  rows = alu_rows()
  tr, cr, br = truncate_rows(), cast_rows(), bitcast_rows()
  hdr = "// Generated by scripts/gen-scalar-tables.py from tinygrad; do not edit.\n"
  with open(os.path.join(OUT_DIR, "ScalarALUTable.inc"), "w") as f:
    f.write(hdr + "\n// {op, dtype, truncate_output, {operands}, exec_alu result}\n")
    f.write("static const ALURow kALURows[] = {\n" + "\n".join("  " + r for r in rows) + "\n};\n\n")
    f.write("// {dtype, x, truncate[dtype](x)}\nstatic const TruncRow kTruncRows[] = {\n" + "\n".join("  " + r for r in tr) + "\n};\n\n")
    f.write("// {dtype, x, dtype.const(x)} (CAST const folding)\nstatic const TruncRow kCastRows[] = {\n" +
            "\n".join("  " + r for r in cr) + "\n};\n\n")
    f.write("// {from, to, x, bitcast(x, from, to)}\nstatic const BitcastRow kBitcastRows[] = {\n" +
            "\n".join("  " + r for r in br) + "\n};\n")
  with open(os.path.join(OUT_DIR, "DTypeTable.inc"), "w") as f: f.write(dtype_table())
  print(f"alu={len(rows)} truncate={len(tr)} cast={len(cr)} bitcast={len(br)}", file=sys.stderr)

if __name__ == "__main__": main()
