"""Tensor operations built from the primitive ones, the way tinygrad (commit a9069c17) builds them,
so the graphs are tinygrad's: arange is a cumulative sum of a broadcast constant, a cumulative sum
is a sum over windows (_pool), indexing by a tensor is a one-hot mask summed, argmax is a masked
max over a reversed arange. Tensor mixes this class in."""
import itertools
import math

from . import graph
from .graph import dtypes


def _ceildiv(a, b): return -(-a // b)


def _flat(xss): return [x for xs in xss for x in xs]


def _identity(op, dt):
  if op == "ADD": return 0
  if op == "MUL": return 1
  if dt.is_float: return -math.inf
  if dt is dtypes.bool: return False
  return 0 if dt.is_unsigned else -(1 << (8 * dt.itemsize - 1))


class CompositeOps:
  __slots__ = ()

  # *** creation ***
  @classmethod
  def full(cls, shape, fill_value, dtype=None):
    """A broadcast constant (tinygrad's full(..., buffer=False)): no storage."""
    shape = tuple(shape)
    dt = dtype or (dtypes.bool if isinstance(fill_value, bool) else dtypes.default_int if isinstance(fill_value, int)
                   else dtypes.default_float)
    return cls(graph.const(fill_value, dt)).reshape((1,) * len(shape)).expand(shape)

  @classmethod
  def arange(cls, start, stop=None, step=1, dtype=None):
    if stop is None: stop, start = start, 0
    if dtype is None:
      dtype = dtypes.default_float if any(isinstance(x, float) for x in (start, stop, step)) else dtypes.default_int
    n = _ceildiv(stop - start, step)
    if n <= 0: raise ValueError(f"arange({start}, {stop}, {step}) is empty")
    return (cls.full((n,), step, dtype)._cumalu(0, "ADD") + (start - step)).cast(dtype)

  # *** windows and cumulative ops ***
  def shrink_to(self, shape):
    return self.shrink(tuple(None if ns is None else (0, ns) for ns in shape))

  def pad_to(self, shape):
    return self.pad(tuple((0, ns - s) for s, ns in zip(self.shape, shape)))

  def _pad_constant(self, pads, value):
    base = self.pad(pads)
    if value == 0: return base
    return type(self).full(self.shape, True).pad(pads).where(base, value)

  def repeat(self, repeats, *args):
    repeats = tuple(repeats) if isinstance(repeats, (tuple, list)) else (repeats,) + args
    base = (1,) * (len(repeats) - self.ndim) + self.shape
    unsqueezed = _flat([s] if r == 1 else [1, s] for r, s in zip(repeats, base))
    expanded = _flat([s] if r == 1 else [r, s] for r, s in zip(repeats, base))
    return self.reshape(unsqueezed).expand(expanded).reshape(tuple(r * s for r, s in zip(repeats, base)))

  def _pool(self, k_):
    """Sliding windows of sizes k_ over the last len(k_) axes (stride and dilation 1): the window
    axes go last."""
    noop, i_ = [None] * (self.ndim - len(k_)), self.shape[-len(k_):]
    if any(k > i for k, i in zip(k_, i_)): raise graph.ShapeError(f"pool window {k_} larger than {self.shape}")
    o_ = [i - k + 1 for i, k in zip(i_, k_)]
    f_ = [max(1, _ceildiv(o - 1, i)) for o, i in zip(o_, i_)]
    x = self.repeat([1] * len(noop) + [_ceildiv(k * (i * f + 1), i) for k, i, f in zip(k_, i_, f_)])
    x = x.shrink_to(noop + [k * (i * f + 1) for k, i, f in zip(k_, i_, f_)])
    x = x.reshape(tuple(x.shape[:len(noop)]) + tuple(_flat((k, i * f + 1) for k, i, f in zip(k_, i_, f_))))
    x = x.shrink_to(noop + _flat((k, o) for k, o in zip(k_, o_)))
    x = x.reshape(tuple(x.shape[:len(noop)]) + tuple(_flat((k, o, 1) for k, o in zip(k_, o_))))
    x = x.shrink_to(noop + _flat((k, o, 1) for k, o in zip(k_, o_)))
    x = x.reshape(tuple(x.shape[:len(noop)]) + tuple(_flat((k, o) for k, o in zip(k_, o_))))
    n = len(noop)
    return x.permute(tuple(range(n)) + tuple(n + i * 2 + 1 for i in range(len(i_))) + tuple(n + i * 2 for i in range(len(i_))))

  def _cumalu(self, axis, op):
    if self.shape[axis] == 0: raise graph.ShapeError("cumulative op over an empty axis")
    pads = ((0, 0),) * (self.ndim - 1) + ((self.shape[axis] - 1, 0),)
    pooled = self.transpose(axis, -1)._pad_constant(pads, _identity(op, self.dtype))._pool((self.shape[axis],))
    return {"ADD": pooled.sum, "MAX": pooled.max}[op](-1).transpose(axis, -1)

  def cumsum(self, axis=0):
    # tinygrad splits axes over 512 into two stages; one stage computes the same sums
    return self._cumalu(axis % max(self.ndim, 1), "ADD")

  def cummax(self, axis=0): return self._cumalu(axis % max(self.ndim, 1), "MAX")

  # *** masks ***
  def _tri(self, r, c, diagonal):
    cls = type(self)
    return cls.arange(r).unsqueeze(-1) + diagonal <= cls.arange(c)

  def triu(self, diagonal=0): return self._tri(self.shape[-2], self.shape[-1], diagonal).where(self, self.const_like(0))
  def tril(self, diagonal=0): return self._tri(self.shape[-2], self.shape[-1], diagonal + 1).where(self.const_like(0), self)

  def cat(self, *args, dim=0):
    dim = dim + self.ndim if dim < 0 else dim
    ts = (self,) + args
    for t in args:
      if t.ndim != self.ndim or any(a != b for i, (a, b) in enumerate(zip(self.shape, t.shape)) if i != dim):
        raise graph.ShapeError(f"cannot cat {self.shape} and {t.shape} along {dim}")
    if all(t.shape[dim] == self.shape[dim] for t in args): return self.stack(*args, dim=dim).flatten(dim, dim + 1)
    acc = list(itertools.accumulate([t.shape[dim] for t in ts], initial=0))
    padded = [t.pad(tuple((acc[i], acc[-1] - acc[i + 1]) if j == dim else None for j in range(t.ndim))) for i, t in enumerate(ts)]
    out = padded[0]
    for p in padded[1:]: out = out | p if out.dtype is dtypes.bool else out + p
    return out

  def argmax(self, axis=None, keepdim=False):
    if axis is None: return self.flatten().argmax(0)
    axis = axis + self.ndim if axis < 0 else axis
    n = self.shape[axis]
    m = self.eq(self.max(axis=axis, keepdim=True))
    idx = m * type(self).arange(n, 0, -1).reshape((n,) + (1,) * (self.ndim - axis - 1))
    return (n - idx.max(axis=axis, keepdim=keepdim)).cast(dtypes.int32)

  def argmin(self, axis=None, keepdim=False):
    return (-self if self.dtype.is_float else ~self).argmax(axis, keepdim)

  # *** gather and indexing ***
  def _one_hot_along_dim(self, num_classes, dim=-1):
    if not self.dtype.is_int: raise TypeError(f"an index tensor must have an integer dtype, not {self.dtype}")
    offset = self.ndim - (dim + self.ndim if dim < 0 else dim) - 1
    return self.eq(type(self).arange(num_classes).reshape((num_classes,) + (1,) * offset))

  def gather(self, dim, index):
    if index.ndim != self.ndim: raise graph.ShapeError(f"gather: index has {index.ndim} dims, self {self.ndim}")
    dim = dim + self.ndim if dim < 0 else dim
    x = self.shrink_to(tuple(i if d != dim else None for d, i in enumerate(index.shape))).unsqueeze(-1).transpose(-1, dim)
    return index.unsqueeze(-1)._one_hot_along_dim(self.shape[dim]).where(x, 0).sum(-1, dtype=self.dtype)

  def __getitem__(self, indices):
    """int, slice (any step), None, Ellipsis and integer tensors; out-of-range tensor indices read 0."""
    cls = type(self)
    if not isinstance(indices, tuple): indices = (indices,)
    indices = list(indices)
    ell = [i for i, x in enumerate(indices) if x is Ellipsis]
    if len(ell) > 1: raise IndexError("indices can only have a single ellipsis")
    real = len(indices) - len(ell) - sum(1 for i in indices if i is None)
    if real > self.ndim: raise IndexError(f"too many indices ({real}) for shape {self.shape}")
    at = ell[0] if ell else len(indices)
    indices[at:at + 1] = [slice(None)] * (self.ndim - real)
    parsed, dim = [], 0
    for index in indices:
      size = 1 if index is None else self.shape[dim]
      p = {"size": size, "boundary": (0, size), "stride": 1, "collapse": False, "index": index}
      if isinstance(index, (list, tuple)):
        index = cls(graph_np_array(index, size))
        p["index"] = index
      if isinstance(index, cls):
        if not index.dtype.is_int: raise IndexError(f"index dtype {index.dtype} is not supported")
        p["index"] = (index < 0).where(index + size, index)
      elif index is None:
        p.update(size=1, boundary=(0, 1))
      elif isinstance(index, int):
        if not -size <= index < size: raise IndexError(f"index {index} is out of bounds with size {size}")
        b = index if index >= 0 else index + size
        p.update(boundary=(b, b + 1), collapse=True)
      elif isinstance(index, slice):
        if index.step == 0: raise ValueError(f"{index} cannot have 0 as step")
        *bound, stride = index.indices(size)
        bound = [0, 0] if stride * (bound[1] - bound[0]) < 0 else ([bound[1] + 1, bound[0] + 1] if stride < 0 else bound)
        p.update(size=_ceildiv(bound[1] - bound[0], abs(stride)), boundary=tuple(bound), stride=stride)
      else:
        raise IndexError(f"{type(index).__name__} indexing is not supported")
      parsed.append(p)
      if index is not None: dim += 1
    mops = [p for p in parsed if p["index"] is not None]
    x = self.shrink(tuple(m["boundary"] for m in mops)).flip(tuple(i for i, m in enumerate(mops) if m["stride"] < 0))
    strides = tuple(abs(m["stride"]) for m in mops)
    if any(st != 1 for st in strides):
      x = x.pad_to(tuple(_ceildiv(s, st) * st for s, st in zip(x.shape, strides)))
      x = x.reshape(tuple(_flat((s // st, st) for s, st in zip(x.shape, strides))))
      x = x.shrink_to(tuple(_flat((s, 1) for s in x.shape[::2]))).reshape(x.shape[::2])
    kept = [p for p in parsed if not p["collapse"]]
    x = x.reshape(tuple(p["size"] for p in kept))
    tops = [(d, p) for d, p in enumerate(kept) if isinstance(p["index"], cls)]
    if not tops: return x
    dims, tensors = [d for d, _ in tops], [p["index"] for _, p in tops]
    if len(dims) > 1: raise NotImplementedError("indexing by more than one tensor")
    big = graph._broadcast_shape([t.shape for t in tensors])
    pre_reduce = x.shape[:dims[0]] + big + x.shape[dims[0]:]
    masks = [t.reshape(t.shape + (1,) * (x.ndim - dims[0])).expand(pre_reduce)._one_hot_along_dim(x.shape[d], d - x.ndim)
             for d, t in zip(dims, tensors)]
    mask = masks[0]
    reshape_arg = x.shape[:dims[0]] + (1,) * len(big) + x.shape[dims[0]:]
    return mask.where(x.reshape(reshape_arg), 0).sum(tuple(d + len(big) for d in dims), dtype=x.dtype)


def graph_np_array(index, size):
  """A Python list index as an int32 array, negative entries counted from the end."""
  import numpy
  arr = numpy.asarray(index)
  if arr.dtype.kind not in "iu": raise IndexError(f"index {index!r} contains non-int elements")
  return numpy.where(arr < 0, arr + size, arr).astype(numpy.int32)
