"""The tensor-level UOp graph the Tensor front end builds: hash-consed nodes with
tinygrad's shape rules, dtype lattice, and the corpus JSON encoding
(../shared/corpus/README.md §1) that our scheduler imports.

Only what the front end emits is modelled; the semantics follow tinygrad at
commit a9069c17 (uop/ops.py `_shape`, dtype.py `least_upper_dtype`)."""
import functools
import math


class DType:
  __slots__ = ("name", "priority", "itemsize", "kind", "np")

  def __init__(self, name, priority, itemsize, kind, np):
    self.name, self.priority, self.itemsize, self.kind, self.np = name, priority, itemsize, kind, np

  def __repr__(self): return f"dtypes.{self.name}"
  def __lt__(self, o): return (self.priority, self.itemsize, self.name) < (o.priority, o.itemsize, o.name)

  @property
  def storage(self):
    """The numpy dtype of a host array holding this dtype's values (bfloat16: its uint16 bits)."""
    return "uint16" if self.name == "bfloat16" else self.np
  @property
  def is_float(self): return self.kind in ("f", "wf")
  @property
  def is_int(self): return self.kind in ("i", "u", "wi")
  @property
  def is_unsigned(self): return self.kind == "u"
  @property
  def is_weak(self): return self.kind in ("wi", "wf")


class dtypes:
  void = DType("void", -1, 0, "v", None)
  bool = DType("bool", 0, 1, "b", "bool")
  weakint = DType("weakint", 0, 100, "wi", None)
  int8 = DType("int8", 1, 1, "i", "int8")
  uint8 = DType("uint8", 2, 1, "u", "uint8")
  int16 = DType("int16", 3, 2, "i", "int16")
  uint16 = DType("uint16", 4, 2, "u", "uint16")
  int32 = DType("int32", 5, 4, "i", "int32")
  uint32 = DType("uint32", 6, 4, "u", "uint32")
  int64 = DType("int64", 7, 8, "i", "int64")
  uint64 = DType("uint64", 8, 8, "u", "uint64")
  weakfloat = DType("weakfloat", 9, 100, "wf", None)
  float16 = DType("float16", 12, 2, "f", "float16")
  bfloat16 = DType("bfloat16", 13, 2, "f", None)  # numpy has none: host arrays hold its bits (storage)
  float32 = DType("float32", 14, 4, "f", "float32")
  float64 = DType("float64", 15, 8, "f", "float64")
  half, float, int, double, long, bf16 = float16, float32, int32, float64, int64, bfloat16
  default_float, default_int = float32, int32

  @staticmethod
  def from_numpy(npdt):
    name = str(npdt)
    for d in ALL_DTYPES:
      if d.np is not None and d.np == name: return d
    raise TypeError(f"unsupported numpy dtype {name}")


ALL_DTYPES = [dtypes.bool, dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.uint32,
              dtypes.int64, dtypes.uint64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]

_LATTICE = {
  dtypes.bool: [dtypes.weakint], dtypes.weakint: [dtypes.int8, dtypes.uint8], dtypes.int8: [dtypes.int16],
  dtypes.int16: [dtypes.int32], dtypes.int32: [dtypes.int64], dtypes.int64: [dtypes.weakfloat],
  dtypes.uint8: [dtypes.int16, dtypes.uint16], dtypes.uint16: [dtypes.int32, dtypes.uint32],
  dtypes.uint32: [dtypes.int64, dtypes.uint64], dtypes.uint64: [dtypes.weakfloat],
  dtypes.weakfloat: [dtypes.float16, dtypes.bfloat16], dtypes.float16: [dtypes.float32],
  dtypes.bfloat16: [dtypes.float32], dtypes.float32: [dtypes.float64],
}


@functools.lru_cache(None)
def _parents(d):
  if d is dtypes.float64: return frozenset({d})
  return frozenset({d}).union(*[_parents(p) for p in _LATTICE[d]])


def least_upper_dtype(*ds):
  return min(frozenset.intersection(*[_parents(d) for d in ds]))


def least_upper_float(d):
  return dtypes.weakfloat if d is dtypes.weakint else d if d.is_float else least_upper_dtype(d, dtypes.default_float)


def strong_dtype(d):
  return {dtypes.weakint: dtypes.default_int, dtypes.weakfloat: dtypes.default_float}.get(d, d)


def weak_dtype(d):
  return dtypes.weakfloat if d.is_float else dtypes.weakint if d.is_int else d


def sum_acc_dtype(d):
  if d.is_unsigned: return least_upper_dtype(d, dtypes.uint32)
  if d.is_int or d is dtypes.bool: return least_upper_dtype(d, dtypes.int32)
  return least_upper_dtype(d, dtypes.float32)


MOVEMENT = {"RESHAPE", "EXPAND", "PERMUTE", "PAD", "SHRINK", "FLIP"}
UNARY = {"EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL", "NEG", "TRUNC", "CAST", "BITCAST", "CONTIGUOUS", "DETACH"}
COMPARISONS = {"CMPLT", "CMPNE", "CMPEQ"}


class ShapeError(ValueError):
  pass


def _broadcast_shape(shapes):
  if all(s == shapes[0] for s in shapes): return shapes[0]
  n = max(len(s) for s in shapes)
  out = []
  for sizes in zip(*[(1,) * (n - len(s)) + tuple(s) for s in shapes]):
    rest = sorted({s for s in sizes if s != 1})
    if len(rest) > 1: raise ShapeError(f"shapes {' and '.join(map(str, shapes))} cannot be broadcast together")
    out.append(rest[0] if rest else 1)
  return tuple(out)


class UOp:
  """An interned node: structurally equal nodes are the same object."""
  __slots__ = ("op", "dtype", "src", "arg", "shape", "__weakref__")
  _cache = {}

  def __new__(cls, op, dtype, src=(), arg=None):
    key = (op, dtype.name, tuple(id(s) for s in src), _freeze(arg))
    if (hit := cls._cache.get(key)) is not None: return hit
    u = object.__new__(cls)
    u.op, u.dtype, u.src, u.arg = op, dtype, tuple(src), arg
    u.shape = u._infer_shape()
    cls._cache[key] = u
    return u

  def _infer_shape(self):
    op, src = self.op, self.src
    if op == "CONST": return ()
    # a weakint/void STACK is a shape argument; any other stacks tensors along a new first axis
    if op == "STACK": return () if self.dtype in (dtypes.weakint, dtypes.void) else (len(src),) + src[0].shape
    if op == "BUFFER": return () if src[0].op == "STACK" else (src[0].arg,)  # a bound variable's is 0-d
    if op == "SINK": return None
    ps = src[0].shape
    if op == "RESHAPE":
      new = as_shape(src[1])
      if math.prod(ps) != math.prod(new): raise ShapeError(f"reshape of {ps} to {new}: sizes differ")
      return new
    if op == "EXPAND": return as_shape(src[1]) + ps
    if op == "PERMUTE":
      if sorted(self.arg) != list(range(len(ps))): raise ShapeError(f"permute {self.arg} of shape {ps} is not a permutation")
      return tuple(ps[i] for i in self.arg)
    if op in ("PAD", "SHRINK"):
      offs, sizes = as_shape(src[1]), as_shape(src[2])
      for s, o, n in zip(ps, offs, sizes):
        if (op == "PAD" and not (0 <= o and o + s <= n)) or (op == "SHRINK" and not (0 <= o and n >= 0 and o + n <= s)):
          raise ShapeError(f"{op.lower()} {list(zip(offs, sizes))} out of range for shape {ps}")
      return sizes
    if op in ("FLIP", "AFTER", "STORE"): return ps
    if op == "REDUCE": return ps[self.arg[1]:]
    if op == "BITCAST" and ps and (isz := src[0].dtype.itemsize) != (osz := self.dtype.itemsize):
      # the last axis rescales by the ratio of the item sizes
      if (ps[-1] * isz) % osz: raise ShapeError(f"bitcast of shape {ps} from {src[0].dtype.name} to {self.dtype.name}")
      return ps[:-1] + (ps[-1] * isz // osz,)
    if op in UNARY: return ps
    return _broadcast_shape([s.shape for s in src])


def _freeze(a):
  if isinstance(a, (list, tuple)): return tuple(_freeze(x) for x in a)
  if isinstance(a, float): return ("f", a if not math.isnan(a) else "nan", math.copysign(1, a))
  if isinstance(a, DType): return ("dt", a.name)
  return a


def const(v, dtype):
  if dtype is dtypes.bool: v = bool(v)
  elif dtype.is_int: v = int(v)
  else: v = float(v)
  return UOp("CONST", dtype, (), v)


def shape_arg(shape):
  """tinygrad's shape_to_shape_arg: one weakint CONST, or a STACK of them."""
  srcs = tuple(const(s, dtypes.weakint) for s in shape)
  return srcs[0] if len(srcs) == 1 else UOp("STACK", dtypes.weakint, srcs)


def as_shape(u):
  if u.op == "CONST": return (u.arg,)
  return tuple(s.arg for s in u.src)


def toposort(root):
  order, seen = [], set()
  stack = [(root, False)]
  while stack:
    u, done = stack.pop()
    if done:
      order.append(u)
      continue
    if id(u) in seen: continue
    seen.add(id(u))
    stack.append((u, True))
    for s in reversed(u.src):
      if id(s) not in seen: stack.append((s, False))
  return order


def _enc_arg(op, a):
  if op == "BUFFER":
    # (slot, dtype), (slot, dtype, ("device", name)) off the CPU, or a symbolic variable
    # (slot, dtype, ("var", name, lo, hi)), which lives in an ALU slot on no device
    slot, dt, extra = a if len(a) == 3 else (a[0], a[1], ("device", "CPU"))
    if extra[0] == "var":
      return {"kind": "ParamArg", "slot": slot, "dtype": dt.name, "vmin_vmax": [extra[2], extra[3]], "multiple_of": 1,
              "name": extra[1], "addrspace": "ALU", "axis": None, "device": None, "volatile": False}
    return {"kind": "ParamArg", "slot": slot, "dtype": dt.name, "vmin_vmax": None, "multiple_of": None,
            "name": None, "addrspace": "GLOBAL", "axis": None, "device": extra[1], "volatile": False}
  if op == "COPY": return a  # the destination device
  if op == "REDUCE": return [{"kind": "Ops", "name": a[0]}, a[1]]
  if op in ("CAST", "BITCAST"): return {"kind": "DType", "name": a.name}
  if isinstance(a, bool) or a is None or isinstance(a, int): return a
  if isinstance(a, float):
    if math.isnan(a): return {"kind": "float", "value": "-nan" if math.copysign(1, a) < 0 else "nan"}
    if math.isinf(a): return {"kind": "float", "value": "inf" if a > 0 else "-inf"}
    if a == 0 and math.copysign(1, a) < 0: return {"kind": "float", "value": "-0.0"}
    return {"kind": "float", "value": a}
  if isinstance(a, tuple): return [_enc_arg(None, x) for x in a]
  raise TypeError(f"cannot encode arg {a!r}")


def to_json(root):
  """The corpus graph format: nodes in tinygrad's toposort order."""
  nodes, ids = [], {}
  for u in toposort(root):
    ids[id(u)] = len(nodes)
    nodes.append({"id": len(nodes), "op": u.op, "dtype": u.dtype.name, "src": [ids[id(s)] for s in u.src],
                  "arg": _enc_arg(u.op, u.arg), "tag": None})
  return {"nodes": nodes, "root": ids[id(root)]}
