"""Random numbers as tinygrad (commit a9069c17) makes them, so a seed gives tinygrad's values: a
threefry-2x32 counter RNG whose key and counter live in two uint32[2] tensors per device, created on
tinygrad's PYTHON device (host lists) and copied to the CPU by the first random op after
manual_seed. Each op draws its count from the counter and hashes (counter + arange) under a key
derived from the device key; bits become floats in [0, 1) through the mantissa of 1.0."""
import hashlib

from .graph import UOp, dtypes


def _ceildiv(a, b): return -(-a // b)


class _State:
  seed = 0
  key = None      # the device key tensor: [sha256(device index) mod 2^32, seed]
  counter = 0     # uint64 count of 32-bit words drawn so far
  counter_t = None


class RandOps:
  __slots__ = ()

  @staticmethod
  def manual_seed(seed=0):
    _State.seed, _State.key, _State.counter, _State.counter_t = seed, None, 0, None

  @classmethod
  def _host_list(cls, values):
    """A uint32 tensor created from a Python list: on the PYTHON device, copied to the CPU."""
    import numpy
    from .tensor import _buffer_view
    return cls(UOp("COPY", dtypes.uint32, (_buffer_view(numpy.array(values, numpy.uint32), dtypes.uint32, "PYTHON"),), "CPU"))

  @classmethod
  def _next_counter(cls, num):
    if _State.key is None:
      first = int.from_bytes(hashlib.sha256((0).to_bytes(4, "big")).digest(), "big") & 0xFFFFFFFF
      _State.key = cls._host_list([first, _State.seed & 0xFFFFFFFF])
      _State.counter_t = cls._host_list([0, 0])
    counter = _State.counter_t
    new_low = counter[0:1] + (num & 0xFFFFFFFF)
    new_high = counter[1:2] + (num >> 32) + (new_low < counter[0])
    # counter.assign(...): the counter's new value is stored where it lives on the CPU
    view, value = counter.uop, new_low.cat(new_high)
    counter = cls(UOp("AFTER", dtypes.uint32, (view, UOp("STORE", dtypes.void, (view, value.uop)))))
    low = counter[0:1] - (num & 0xFFFFFFFF)
    high = counter[1:2] - (num >> 32) - (counter[0] < (num & 0xFFFFFFFF))
    # the next op starts from the advanced counter, kept on the host
    _State.counter = (_State.counter + num) & 0xFFFFFFFFFFFFFFFF
    _State.counter_t = cls._host_list([_State.counter & 0xFFFFFFFF, _State.counter >> 32])
    return _State.key, low.cat(high)

  def threefry(self, seed): return self._alu("THREEFRY", seed)

  @staticmethod
  def _threefry_random_bits(key, counts0, counts1):
    x = (counts1.cast(dtypes.uint64) << 32) | counts0.cast(dtypes.uint64)
    x = x.threefry((key[1].cast(dtypes.uint64) << 32) | key[0].cast(dtypes.uint64))
    return x.cast(dtypes.uint32).cat((x >> 32).cast(dtypes.uint32))

  @classmethod
  def random_bits(cls, key, counter, num):
    low, high = counter[0:1], counter[1:2]
    bits = []
    for i in range(0, num, 0xFFFFFFFF):
      chunk = min(num - i, 0xFFFFFFFF)
      c_low = low + (i & 0xFFFFFFFF)
      c_high = high + (i >> 32) + (c_low < low)
      new_key = cls._threefry_random_bits(key, c_low, c_high)
      counts0 = cls.arange(_ceildiv(chunk, 2), dtype=dtypes.uint32)
      counts1 = counts0 + _ceildiv(chunk, 2)
      bits.append(cls._threefry_random_bits(new_key, counts0, counts1)[:chunk])
    return bits[0].cat(*bits[1:])

  @classmethod
  def rand(cls, *shape, dtype=dtypes.float32):
    """Uniform in [0, 1): tinygrad's values for the same manual_seed and the same sequence of ops."""
    shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    if dtype is not dtypes.float32: raise NotImplementedError("rand makes float32 only")
    n = 1
    for s in shape: n *= s
    if n == 0: raise ValueError("rand of an empty shape")
    key, counter = cls._next_counter(n)  # one 32-bit word per float32
    bits = cls.random_bits(key, counter, n)
    return ((bits >> 9) | 0x3F800000).bitcast(dtypes.float32)[:n].sub(1).reshape(shape).contiguous()

  @classmethod
  def uniform(cls, *shape, low=0.0, high=1.0, dtype=None):
    if low >= high: raise ValueError(f"uniform needs low < high, got {low}, {high}")
    return ((high - low) * cls.rand(*shape)).cast(dtype or dtypes.float32) + low

  @classmethod
  def randint(cls, *shape, low=0, high=10, dtype=dtypes.int32):
    if not dtype.is_int: raise TypeError(f"randint makes integers, not {dtype}")
    if low >= high: raise ValueError(f"randint needs low < high, got {low}, {high}")
    return cls.uniform(*shape, low=low, high=high, dtype=dtype)
