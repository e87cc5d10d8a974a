"""A small Tensor front end in tinygrad's style.

Operations build a tinygrad tensor graph lazily (the same UOp forms tinygrad's
mixins build at commit a9069c17: implicit broadcasting in ALU ops, EXPAND that
prepends, REDUCE over the leading axes after a PERMUTE, weak constants);
`realize()` / `.numpy()` hand the graph to our scheduler, which compiles every
kernel through our CPU pipeline and runs them through our runtime, all in this
process through the C API (capi.TensorProgram). Scheduling and compiling a
program shows a progress bar on stderr when it has many kernels and stderr is a
terminal (TINYGRAD_MLIR_PROGRESS=1: always, =0: never).

    from tinygrad_mlir import Tensor
    x = Tensor([[1.0, 2.0], [3.0, 4.0]])
    print((x @ x).relu().sum(axis=1).numpy())
"""
import itertools
import json
import math
import threading

from . import capi, graph
from .composite import CompositeOps
from .rand import RandOps
from .graph import UOp, dtypes, least_upper_dtype, least_upper_float, strong_dtype, sum_acc_dtype, weak_dtype
from .progress import ProgressBar

_slots = itertools.count(0)
_host = {}  # buffer UOp -> numpy array holding its contents


def _np():
  import numpy
  return numpy


def _resolve(dim, ndim):
  if not -max(ndim, 1) <= dim < max(ndim, 1): raise IndexError(f"dimension {dim} out of range for {ndim} dims")
  return dim + ndim if dim < 0 else dim


def _argfix(*x):
  if x and isinstance(x[0], (tuple, list)):
    if len(x) != 1: raise ValueError(f"bad arg {x}")
    return tuple(x[0])
  return tuple(x)


class Tensor(CompositeOps, RandOps):
  __slots__ = ("uop",)

  def __init__(self, data, dtype=None):
    if isinstance(data, UOp):
      self.uop = data
      return
    np = _np()
    if isinstance(data, (int, float, bool)) and dtype is None:
      self.uop = graph.const(data, dtypes.bool if isinstance(data, bool) else
                             dtypes.weakint if isinstance(data, int) else dtypes.weakfloat)
      return
    arr = np.asarray(data)
    if dtype is None:
      if arr.dtype.kind == "f" and not isinstance(data, np.ndarray): dtype = dtypes.default_float
      elif arr.dtype.kind in "iu" and not isinstance(data, np.ndarray): dtype = dtypes.default_int
      else: dtype = dtypes.from_numpy(arr.dtype)
    self.uop = _buffer_view(_to_storage(arr, dtype), dtype)

  # *** properties ***
  @property
  def shape(self): return self.uop.shape
  @property
  def dtype(self): return self.uop.dtype
  @property
  def ndim(self): return len(self.shape)
  def numel(self): return math.prod(self.shape)
  def __repr__(self): return f"<Tensor {self.shape} {self.dtype}>"

  # *** creation ***
  @staticmethod
  def zeros(*shape, dtype=dtypes.float32): return Tensor(_np().zeros(_argfix(*shape), dtype=dtype.storage), dtype)
  @staticmethod
  def ones(*shape, dtype=dtypes.float32): return Tensor(_np().ones(_argfix(*shape), dtype="float32"), dtype)

  # *** realize ***
  @staticmethod
  def realize_all(*ts):
    """Schedule, compile and run the graphs of `ts` in one program."""
    todo = [t for t in ts if t.uop not in _host and not _is_view_of_host(t.uop)]
    for t in todo:
      if t.dtype.is_weak: raise RuntimeError("cannot realize a weak dtype; cast to a concrete dtype first")
    if not todo: return ts
    sink = UOp("SINK", dtypes.void, tuple(t.uop for t in todo))
    bufs = {u.arg[0]: u for u in graph.toposort(sink) if u.op == "BUFFER" and not _is_variable(u)}
    for b in bufs.values():
      if b not in _host: raise RuntimeError("a buffer of the graph has no contents")
    results = _run(sink, bufs)
    for t, arr in zip(todo, results):
      view = t.uop.src[0] if t.uop.op == "AFTER" else None
      base = view.src[0] if view is not None and view.op == "RESHAPE" else view
      if base is not None and base in _host and _host[base].size == arr.size:
        # an assign: the buffer itself changes, for every tensor that views it
        _host[base][:] = arr.reshape(-1)
        t.uop = view
      else:
        t.uop = _buffer_view(arr, t.dtype)
    return ts

  def realize(self):
    Tensor.realize_all(self)
    return self

  def numpy(self):
    self.realize()
    u = self.uop
    base = u.src[0] if u.op == "RESHAPE" else u
    return _from_storage(_host[base].reshape(self.shape), self.dtype)

  def tolist(self): return self.numpy().tolist()
  def item(self): return self.numpy().reshape(-1)[0].item()

  # *** elementwise ***
  def _ufix(self, x):
    return x if isinstance(x, Tensor) else Tensor(x)

  def _broadcasted(self, y, reverse=False):
    x, y = (self, self._ufix(y)) if not reverse else (self._ufix(y), self)
    out = least_upper_dtype(x.dtype, y.dtype)

    def promote(t):
      if t.dtype.is_weak and t.uop.op == "CONST": return Tensor(graph.const(t.uop.arg, weak_dtype(out)))
      return t.cast(out)
    return promote(x), promote(y)

  def _alu(self, op, *src):
    srcs = (self,) + src
    if op in graph.COMPARISONS: dt = dtypes.bool
    elif op in ("EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL"): dt = least_upper_float(self.dtype)
    else:
      dts = [t.dtype for t in (srcs[1:] if op == "WHERE" else srcs)]
      dt = dts[0] if all(d is dts[0] for d in dts) else least_upper_dtype(*dts)
    return Tensor(UOp(op, dt, tuple(t.uop for t in srcs)))

  def _binop(self, op, x, reverse=False):
    lhs, rhs = self._broadcasted(x, reverse)
    return lhs._alu(op, rhs)

  def bitcast(self, dtype):
    """The same bits as `dtype`; if the item sizes differ, the last axis is rescaled (tinygrad's)."""
    if self.dtype.is_weak or dtype.is_weak: raise RuntimeError(f"bitcast requires concrete dtypes, got {self.dtype} -> {dtype}")
    return self if self.dtype is dtype else Tensor(UOp("BITCAST", dtype, (self.uop,), dtype))

  def cast(self, dtype):
    if self.dtype is dtype: return self
    if self.dtype.is_weak and self.uop.op == "CONST": return Tensor(graph.const(self.uop.arg, dtype))
    return Tensor(UOp("CAST", dtype, (self.uop,), dtype))

  def add(self, x, reverse=False): return self._binop("ADD", x, reverse)
  def mul(self, x, reverse=False): return self._binop("MUL", x, reverse)
  def neg(self): return self.logical_not() if self.dtype is dtypes.bool else self * -1
  # sub/div use the ALU directly: _broadcasted already promoted both sides,
  # and a second promotion would cast -b / 1/b (only a bare weak CONST stays weak).
  def sub(self, x, reverse=False):
    a, b = self._broadcasted(x, reverse)
    return a._alu("ADD", -b)
  def div(self, x, reverse=False, rounding_mode=None):
    a, b = self._broadcasted(x, reverse)
    if a.dtype.is_int and b.dtype.is_int and rounding_mode is not None:
      return a._alu({"trunc": "CDIV", "floor": "FLOORDIV"}[rounding_mode], b)
    if a.dtype.is_int or a.dtype is dtypes.bool: a = a.cast(dtypes.default_float)
    d = a._alu("MUL", b.reciprocal())
    if rounding_mode is None: return d
    if rounding_mode == "trunc": return d.trunc()
    if rounding_mode == "floor": return d.floor()
    raise RuntimeError(f"rounding_mode={rounding_mode!r} is not supported")
  def maximum(self, x): return self._binop("MAX", x)
  def minimum(self, x):
    a, b = self._broadcasted(x)
    dt = least_upper_dtype(a.dtype, b.dtype)
    if dt.is_float: return -((-a)._alu("MAX", -b))
    k = Tensor(graph.const(_int_min(dt) + _int_max(dt), dt))
    return ((a ^ k)._alu("MAX", b ^ k)) ^ k
  def __lt__(self, x): return self._binop("CMPLT", x)
  def __gt__(self, x): return self._binop("CMPLT", x, reverse=True)
  def __le__(self, x): return (self > x).logical_not()
  def __ge__(self, x): return (self < x).logical_not()
  # tinygrad spells == as not-!=, and the corpus graphs are that form
  def eq(self, x): return self.ne(x).logical_not()
  def ne(self, x): return self._binop("CMPNE", x)
  def logical_not(self): return self.cast(dtypes.bool).ne(True)
  def where(self, x, y):
    ref = x if isinstance(x, Tensor) else y if isinstance(y, Tensor) else self
    x, y = ref._ufix(x)._broadcasted(y)
    return self._alu("WHERE", x, y)
  def bitwise_and(self, x, reverse=False): return self._binop("AND", x, reverse)
  def bitwise_or(self, x, reverse=False): return self._binop("OR", x, reverse)
  def xor(self, x, reverse=False): return self._binop("XOR", x, reverse)
  bitwise_xor = xor
  def bitwise_not(self):
    if self.dtype is dtypes.bool: return self.logical_not()
    return self ^ (_int_max(self.dtype) if self.dtype.is_unsigned else -1)
  def lshift(self, x, reverse=False): return self._binop("SHL", x, reverse)
  def rshift(self, x, reverse=False): return self._binop("SHR", x, reverse)
  __and__ = bitwise_and
  __or__ = bitwise_or
  __xor__ = xor
  __lshift__ = lshift
  __rshift__ = rshift
  __invert__ = bitwise_not
  def __rand__(self, x): return self.bitwise_and(x, True)
  def __ror__(self, x): return self.bitwise_or(x, True)
  def __rxor__(self, x): return self.xor(x, True)

  def idiv(self, x, rounding_mode="floor"):
    """Division of integers rounding toward -inf ("floor", Python's //) or toward zero ("trunc")."""
    return self.div(x, rounding_mode=rounding_mode)
  def mod(self, x, reverse=False):
    a, b = self._broadcasted(x, reverse)
    if a.dtype.is_int and b.dtype.is_int: return a._alu("FLOORMOD", b)
    return a - a.div(b, rounding_mode="floor") * b
  def fmod(self, x):
    a, b = self._broadcasted(x)
    if a.dtype.is_int and b.dtype.is_int: return a._alu("CMOD", b)
    return a - a.div(b, rounding_mode="trunc") * b
  def __floordiv__(self, x): return self.div(x, rounding_mode="floor")
  __mod__ = mod

  def pow(self, x, reverse=False):
    base, exponent = self._broadcasted(x, reverse)
    if not least_upper_dtype(base.dtype, exponent.dtype).is_float and not (isinstance(x, int) and x >= 0):
      raise RuntimeError("base needs to be float")
    return base._alu("POW", exponent)
  __pow__ = pow
  def __rpow__(self, x): return self.pow(x, True)

  __add__ = add
  __mul__ = mul
  __sub__ = sub
  __truediv__ = div
  def __radd__(self, x): return self.add(x, True)
  def __rmul__(self, x): return self.mul(x, True)
  def __rsub__(self, x): return self.sub(x, True)
  def __rtruediv__(self, x): return self.div(x, True)
  def __neg__(self): return self.neg()
  __eq__ = eq
  __ne__ = ne
  __hash__ = object.__hash__
  def __matmul__(self, x): return self.matmul(x)

  def _float(self): return self.cast(least_upper_float(self.dtype))
  def exp2(self): return self._float()._alu("EXP2")
  def log2(self): return self._float()._alu("LOG2")
  def exp(self):
    x = self._float()
    return x.cast(least_upper_dtype(x.dtype, dtypes.float32)).mul(1 / math.log(2)).exp2().cast(x.dtype)
  def log(self): return self._float()._alu("LOG2") * math.log(2)
  def sqrt(self): return self._float()._alu("SQRT")
  def rsqrt(self): return self.sqrt().reciprocal()
  def sin(self): return self._float()._alu("SIN")
  def cos(self): return ((math.pi / 2) - self._float()).sin()
  def reciprocal(self): return self._float()._alu("RECIPROCAL")
  def relu(self): return (self > 0).where(self, 0)
  def sigmoid(self): return (1 + (self * (-1 / math.log(2)))._alu("EXP2")).reciprocal()
  def tanh(self): return 2.0 * ((2.0 * self).sigmoid()) - 1.0
  def const_like(self, v):
    """The constant v in self's dtype, broadcast to self's shape."""
    c = Tensor(graph.const(v, self.dtype))
    return c if not self.ndim else Tensor(UOp("EXPAND", self.dtype, (c.uop, graph.shape_arg(self.shape))))
  def sign(self): return self.ne(0).where((self < 0).where(self.const_like(-1), self.const_like(1)), self.const_like(0))
  def abs(self): return self * self.sign()
  def trunc(self): return self._alu("TRUNC")
  def ceil(self): return (self > (b := self.trunc())).where(b + 1, b)
  def floor(self): return (self < (b := self.trunc())).where(b - 1, b)
  def round(self):
    """Half to even."""
    return ((self > 0).eq((b := self.trunc() / 2.0).trunc().eq(b))).where((self - 0.5).ceil(), (self + 0.5).floor())
  def gelu(self): return 0.5 * self * (1 + (math.sqrt(2 / math.pi) * (self + 0.044715 * self ** 3)).tanh())
  def square(self): return self * self
  def clip(self, lo=None, hi=None):
    if lo is None and hi is None: raise RuntimeError("at least one of 'lo' or 'hi' must not be None")
    ret = (self < lo).where(lo, self) if lo is not None else self
    return (ret > hi).where(hi, ret) if hi is not None else ret

  # *** movement ***
  def _mop(self, op, *shapes, arg=None):
    return Tensor(UOp(op, self.dtype, (self.uop,) + tuple(graph.shape_arg(s) for s in shapes), arg))

  def reshape(self, shape, *args):
    new = tuple(s if s is not None else self.shape[i] for i, s in enumerate(_argfix(shape, *args)))
    if new.count(-1) > 1: raise ValueError(f"only one dimension can be inferred using -1, getting {new}")
    if -1 in new: new = tuple(-math.prod(self.shape) // math.prod(new) if s == -1 else s for s in new)
    if math.prod(self.shape) != math.prod(new):
      raise graph.ShapeError(f"size mismatch, can't reshape ({self.shape}) -> ({new})")
    if new == self.shape: return self
    if len(new) == 0: return Tensor(UOp("RESHAPE", self.dtype, (self.uop, UOp("STACK", dtypes.void, ()))))
    return self._mop("RESHAPE", new)

  def permute(self, order, *args):
    order = tuple(_resolve(x, self.ndim) for x in _argfix(order, *args))
    if sorted(order) != list(range(self.ndim)): raise graph.ShapeError(f"order {order} is not a valid permutation of {self.shape}")
    return self if order == tuple(range(self.ndim)) else Tensor(UOp("PERMUTE", self.dtype, (self.uop,), order))

  def transpose(self, d0=-2, d1=-1):
    order = list(range(self.ndim))
    a, b = _resolve(d0, self.ndim), _resolve(d1, self.ndim)
    order[a], order[b] = order[b], order[a]
    return self.permute(order)

  @property
  def T(self): return self.transpose()

  def flip(self, axis, *args):
    axes = tuple(_resolve(x, self.ndim) for x in _argfix(axis, *args))
    arg = tuple(i in axes for i in range(self.ndim))
    return Tensor(UOp("FLIP", self.dtype, (self.uop,), arg)) if any(arg) else self

  def pad(self, arg):
    if len(arg) != self.ndim: raise graph.ShapeError(f"pad {arg} has {len(arg)} entries for shape {self.shape}")
    arg = [(0, 0) if p is None else p for p in arg]
    if all(p == (0, 0) for p in arg): return self
    return self._mop("PAD", tuple(p[0] for p in arg), tuple(s + p[0] + p[1] for p, s in zip(arg, self.shape)))

  def shrink(self, arg):
    if len(arg) != self.ndim: raise graph.ShapeError(f"shrink {arg} has {len(arg)} entries for shape {self.shape}")
    arg = [(0, s) if p is None else p for p, s in zip(arg, self.shape)]
    if all(p == (0, s) for p, s in zip(arg, self.shape)): return self
    return self._mop("SHRINK", tuple(p[0] for p in arg), tuple(p[1] - p[0] for p in arg))

  def _broadcast_to(self, new_shape):
    if self.shape == new_shape: return self
    if self.ndim > len(new_shape): raise graph.ShapeError(f"cannot broadcast {self.shape} to fewer dimensions {new_shape}")
    n_left = len(new_shape) - self.ndim
    shape = (1,) * n_left + self.shape
    if not all(s == ns or s == 1 for s, ns in zip(shape, new_shape)):
      raise graph.ShapeError(f"cannot broadcast {self.shape} to {new_shape}")
    expand_at = tuple(i - n_left for i in range(n_left, len(new_shape)) if shape[i] != new_shape[i])
    kept = tuple(i for i in range(self.ndim) if i not in expand_at)
    squeezed = self.reshape(tuple(self.shape[i] for i in kept))
    ex_arg = tuple(new_shape[:n_left]) + tuple(new_shape[n_left + i] for i in expand_at)
    expanded = squeezed._mop("EXPAND", ex_arg) if ex_arg else squeezed
    perm = tuple(range(n_left)) + tuple(n_left + (expand_at.index(i) if i in expand_at else len(expand_at) + kept.index(i))
                                         for i in range(self.ndim))
    return expanded.permute(perm)

  def expand(self, shape, *args):
    new = _argfix(shape, *args)
    cur = (1,) * (len(new) - self.ndim) + self.shape
    return self._broadcast_to(tuple(c if n in (-1, None) else n for c, n in zip(cur, new)))

  def unsqueeze(self, dim):
    dim = _resolve(dim, self.ndim + 1)
    return self.reshape(self.shape[:dim] + (1,) + self.shape[dim:])

  def flatten(self, start_dim=0, end_dim=-1):
    start, end = _resolve(start_dim, self.ndim), _resolve(end_dim, self.ndim)
    return self.reshape(self.shape[:start] + (math.prod(self.shape[start:end + 1]),) + self.shape[end + 1:])

  def stack(self, *args, dim=0):
    ts = (self,) + args
    if any(t.shape != self.shape for t in ts): raise graph.ShapeError(f"stack needs equal shapes, got {[t.shape for t in ts]}")
    dim = _resolve(dim, self.ndim + 1)
    ret = Tensor(UOp("STACK", self.dtype, tuple(t.uop for t in ts)))
    return ret if dim == 0 else ret.permute(tuple(range(1, dim + 1)) + (0,) + tuple(range(dim + 1, ret.ndim)))

  def assign(self, x):
    """In-place update of a realized tensor: tinygrad's `buf.after(buf.store(x))`."""
    x = self._ufix(x)
    if not _is_view_of_host(self.uop) and self.uop not in _host:
      raise RuntimeError("assign needs a realized tensor (one with storage) on the left")
    if x.shape != self.shape: x = x._broadcast_to(self.shape)
    if x.dtype is not self.dtype: x = x.cast(self.dtype)
    view = self.uop
    self.uop = UOp("AFTER", self.dtype, (view, UOp("STORE", dtypes.void, (view, x.uop))))
    return self

  def clone(self):
    """A copy in a buffer of its own (tinygrad's clone: the value stored into a new buffer)."""
    if self.dtype.is_weak: raise RuntimeError("cannot clone a weak dtype; cast to a concrete dtype first")
    view = _buffer_view(_np().zeros(self.shape, dtype=self.dtype.storage), self.dtype)
    return Tensor(UOp("AFTER", self.dtype, (view, UOp("STORE", dtypes.void, (view, self.uop)))))

  def contiguous(self):
    if self.dtype.is_weak or self.uop.op == "CONTIGUOUS": return self
    return Tensor(UOp("CONTIGUOUS", self.dtype, (self.uop,)))

  # *** reductions ***
  def _rop(self, op, axis):
    axis = tuple(sorted(axis))
    red = tuple(a for a in axis if self.shape[a] != 1)
    if not red: return self.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axis))
    perm = red + tuple(i for i in range(self.ndim) if i not in red)
    ret = Tensor(UOp("REDUCE", self.dtype, (self.permute(perm).uop,), (op, len(red))))
    if len(red) != len(axis): ret = ret.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axis))
    return ret

  def _reduce(self, op, axis=None, keepdim=False):
    x = self.cast(strong_dtype(self.dtype))
    if axis is None: axis = tuple(range(x.ndim))
    elif isinstance(axis, int): axis = (axis,)
    axis = tuple(_resolve(a, x.ndim) for a in axis)
    ret = x._rop(op, axis) if x.ndim else x
    return ret.reshape(tuple(1 if i in axis else s for i, s in enumerate(x.shape))) if keepdim else ret

  def sum(self, axis=None, keepdim=False, dtype=None):
    ret = self.cast(sum_acc_dtype(self.dtype) if dtype is None else dtype)._reduce("ADD", axis, keepdim)
    return ret.cast(self.dtype) if dtype is None and self.dtype is dtypes.float16 else ret

  def max(self, axis=None, keepdim=False): return self._reduce("MAX", axis, keepdim)
  def min(self, axis=None, keepdim=False): return -((-self).max(axis, keepdim))

  def mean(self, axis=None, keepdim=False):
    out_dt = self.dtype if self.dtype.is_float else dtypes.float32
    num = self.cast(sum_acc_dtype(self.dtype)).sum(axis, keepdim)
    den = math.prod(si for si, so in zip(self.shape, self.sum(axis, keepdim=True).shape) if si != so)
    return num.div(den).cast(out_dt)

  def var(self, axis=None, keepdim=False):
    d = self - self.mean(axis, keepdim=True)
    return (d * d).mean(axis, keepdim)

  def detach(self): return self._alu("DETACH")

  def softmax(self, axis=-1):
    m = self - self.max(axis, keepdim=True).detach()
    e = m.exp()
    return e * e.sum(axis, keepdim=True).reciprocal()

  def log_softmax(self, axis=-1):
    m = self - self.max(axis, keepdim=True).detach()
    return m - m.exp().sum(axis, keepdim=True).log()

  def layernorm(self, axis=-1, eps=1e-5):
    y = self - self.mean(axis, keepdim=True)
    return y.mul((y * y).mean(axis, keepdim=True).add(eps).rsqrt())

  # *** linear algebra ***
  def dot(self, w):
    n1, n2 = self.ndim, w.ndim
    if n1 == 0 or n2 == 0: raise graph.ShapeError("both tensors of a dot need at least 1 dimension")
    if self.shape[-1] != w.shape[-min(n2, 2)]:
      raise graph.ShapeError(f"cannot dot {self.shape} and {w.shape}")
    x = self.reshape(self.shape[:-1] + (1,) * min(n1 - 1, n2 - 1, 1) + self.shape[-1:])
    w = w.reshape(w.shape[:-2] + (1,) * min(n1 - 1, n2 - 1, 1) + w.shape[-min(n2, 2):]).transpose(-1, -min(n2, 2))
    return (x * w).sum(-1)

  matmul = dot

  def conv2d(self, weight, bias=None, groups=1, padding=0):
    """Stride-1, dilation-1 convolution over the trailing axes (N, C, *spatial x O, C/groups, *kernel),
    as tinygrad computes it: sliding windows (_pool) times the weight, summed."""
    if self.ndim != weight.ndim or self.ndim < 3: raise graph.ShapeError(f"conv2d of {self.shape} with {weight.shape}")
    (bs, cin_), (cout, cin), hw = self.shape[:2], weight.shape[:2], weight.shape[2:]
    if groups * cin != cin_: raise graph.ShapeError(f"conv2d input has {cin_} channels, the weight {cin} x {groups} groups")
    pads = padding if isinstance(padding, (tuple, list)) else (padding,) * len(hw)
    x = self._pad_constant(((0, 0),) * (self.ndim - len(hw)) + tuple((p, p) for p in pads), 0.0)._pool(hw)
    rcout, oyx = cout // groups, x.shape[2:-len(hw)]
    x = x.reshape(bs, groups, cin, 1, *oyx, *hw).expand(bs, groups, cin, rcout, *oyx, *hw) \
      .permute(0, 1, 3, *[4 + i for i in range(len(oyx))], 2, *[4 + len(oyx) + i for i in range(len(hw))])
    ret = (x * weight.reshape(1, groups, rcout, *[1] * len(oyx), cin, *hw)) \
      .sum(tuple(-1 - i for i in range(1 + len(oyx))), keepdim=True).reshape(bs, cout, *oyx)
    return ret if bias is None else ret.add(bias.reshape(1, -1, *[1] * len(hw)))


_compiler = threading.local()  # a C API context per thread: contexts serialize their calls


def _context():
  ctx = getattr(_compiler, "ctx", None)
  if ctx is None: ctx = _compiler.ctx = capi.Context()
  return ctx


def _run(sink, bufs):
  """Schedule, compile and run the program `sink` over the host buffers `bufs` (slot -> BUFFER) in
  this process; the realized tensors as numpy arrays."""
  np = _np()
  mod = _context().import_json(json.dumps(graph.to_json(sink)), name="<tensor program>")
  try:
    bar = ProgressBar("tinygrad-mlir", min_total=16)  # on a terminal, only programs that take a while
    try:
      prog = mod.program(progress=bar.update)
    finally:
      bar.close()
  finally:
    mod.close()
  with prog:
    for i, b in enumerate(prog.buffers):
      prog.set_buffer(i, _host[bufs[b["slot"]]].tobytes())
    prog.run()
    return [np.frombuffer(prog.read_output(i), dtype=getattr(dtypes, o["dtype"]).storage).reshape(o["shape"]).copy()
            for i, o in enumerate(prog.outputs)]


class Variable(Tensor):
  """A symbolic integer in [lo, hi] (tinygrad's Variable): kernels take its value as an argument, so
  programs that differ only in it share their compiled code. Use it bound: Variable("k", 0, 10).bind(3)."""
  __slots__ = ()

  def __init__(self, name, lo, hi):
    if not lo <= hi: raise ValueError(f"variable {name} has an empty range [{lo}, {hi}]")
    super().__init__(UOp("BUFFER", dtypes.weakint, (UOp("STACK", dtypes.void, ()),), (-1, dtypes.weakint, ("var", name, lo, hi))))

  def bind(self, value):
    _, _, (_, name, lo, hi) = self.uop.arg
    if not lo <= value <= hi: raise ValueError(f"{name}={value} is outside [{lo}, {hi}]")
    return Tensor(UOp("AFTER", dtypes.weakint, (self.uop, UOp("STORE", dtypes.void, (self.uop, graph.const(value, dtypes.weakint))))))


def _is_variable(u): return u.op == "BUFFER" and len(u.arg) == 3 and u.arg[2][0] == "var"


def _to_storage(arr, dtype):
  """A contiguous host array of dtype's storage: values converted as a cast does (bfloat16: rounded to
  nearest even, its bits kept as uint16)."""
  np = _np()
  if dtype is not dtypes.bfloat16:
    return np.array(arr, dtype=dtype.np, order="C")  # not ascontiguousarray: it makes a 0-d array 1-d
  bits = np.array(arr, dtype=np.float32, order="C").view(np.uint32)
  rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
  return np.where(np.isnan(arr.astype(np.float32)), ((bits >> 16) | 0x40).astype(np.uint16), rounded)


def _from_storage(arr, dtype):
  """A copy as numpy values (bfloat16 widened to float32)."""
  np = _np()
  if dtype is not dtypes.bfloat16: return arr.copy()
  return (arr.astype(np.uint32) << 16).view(np.float32)


def _int_min(dt): return 0 if dt.is_unsigned else -(1 << (8 * dt.itemsize - 1))
def _int_max(dt): return (1 << (8 * dt.itemsize)) - 1 if dt.is_unsigned else (1 << (8 * dt.itemsize - 1)) - 1


def _buffer_view(arr, dtype, device="CPU"):
  arg = (next(_slots), dtype) if device == "CPU" else (next(_slots), dtype, ("device", device))
  buf = UOp("BUFFER", dtype, (graph.const(max(1, arr.size), dtypes.weakint),), arg)
  _host[buf] = arr.reshape(-1) if arr.size else arr.reshape(-1)[:0]
  shape = arr.shape
  if shape == (arr.size,): return buf
  if shape == (): return UOp("RESHAPE", dtype, (buf, UOp("STACK", dtypes.void, ())))
  return UOp("RESHAPE", dtype, (buf, graph.shape_arg(shape)))


def _is_view_of_host(u):
  return u.op == "RESHAPE" and u.src[0] in _host
