"""The Tensor front end: its graphs against tinygrad's (the corpus records' tensor_graph), and its
results against numpy's, on the corpus programs rewritten in it and on randomly generated programs.
Running needs the built C API library (make build): realize() runs in this process through it."""
import json
import os
import random
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tinygrad_mlir import Tensor, Variable, dtypes
from tinygrad_mlir.graph import UOp, ShapeError, to_json

CORPUS = os.environ.get("TG_CORPUS_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "corpus"))

def np_conv2d(x, w, groups=1, padding=0):
  """Stride-1 grouped convolution, NCHW x OIHW, as a sum over the kernel taps."""
  xp = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
  (o, cg, kh, kw), og = w.shape, w.shape[0] // groups
  oh, ow = xp.shape[2] - kh + 1, xp.shape[3] - kw + 1
  out = np.zeros((x.shape[0], o, oh, ow), np.float32)
  for g in range(groups):
    for dy in range(kh):
      for dx in range(kw):
        out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", xp[:, g * cg:(g + 1) * cg, dy:dy + oh, dx:dx + ow],
                                                 w[g * og:(g + 1) * og, :, dy, dx])
  return out


def seeded(seed, fn):
  Tensor.manual_seed(seed)
  return fn()


# corpus program id -> (the program in our front end, the same in numpy)
PROGRAMS = {
  "ew_mul_bcast_col": (lambda a, b: a * b, lambda a, b: a * b),
  "ew_bcast_3d": (lambda a, b: a + b, lambda a, b: a + b),
  "ew_scalar_chain": (lambda a: (a * 3 - 2) * 0.5 + 1, lambda a: (a * 3 - 2) * 0.5 + 1),
  "ew_64x64": (lambda a, b: a * b - a, lambda a, b: a * b - a),
  "un_exp": (lambda a: a.exp(), np.exp),
  "un_log": (lambda a: a.log(), np.log),
  "un_sin": (lambda a: a.sin(), np.sin),
  "un_sqrt": (lambda a: a.sqrt(), np.sqrt),
  "un_reciprocal": (lambda a: a.reciprocal(), lambda a: 1 / a),
  "un_exp2_log2": (lambda a, b: a.exp2() + b.log2(), lambda a, b: np.exp2(a) + np.log2(b)),
  "un_neg_relu": (lambda a: (-a).relu(), lambda a: np.maximum(-a, 0)),
  "cast_f16_f32_mul": (lambda a: a.cast(dtypes.float32) * 2, lambda a: a.astype(np.float32) * 2),
  # the CPU computes half arithmetic in float32 and rounds once, as tinygrad's CPU backend does
  "half_arith": (lambda a, b: a * b + 1, lambda a, b: (a.astype(np.float32) * b + 1).astype(np.float16)),
  "cast_f32_i8": (lambda a: a.cast(dtypes.int8), None),
  "cast_i32_f32": (lambda a: a.cast(dtypes.float32) / 4, lambda a: a.astype(np.float32) / 4),
  "int8_wrap_add": (lambda a, b: a + b, lambda a, b: a + b),
  "where_leaky": (lambda a, b: (a > 0).where(a, b * 0.1), lambda a, b: np.where(a > 0, a, b * np.float32(0.1))),
  "max_min_binary": (lambda a, b: a.maximum(b) - a.minimum(b), lambda a, b: np.maximum(a, b) - np.minimum(a, b)),
  "cmp_float_ne": (lambda a, b: a.ne(b), lambda a, b: a != b),
  "clip": (lambda a: a.clip(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5)),
  "red_sum_all": (lambda a: a.sum(), lambda a: a.sum()),
  "red_sum_axis0": (lambda a: a.sum(0), lambda a: a.sum(0)),
  "red_sum_axis1_keepdim": (lambda a: a.sum(1, keepdim=True), lambda a: a.sum(1, keepdims=True)),
  "red_max_axis1": (lambda a: a.max(1), lambda a: a.max(1)),
  "red_min_axis0": (lambda a: a.min(0), lambda a: a.min(0)),
  "red_sum_3d_axes02": (lambda a: a.sum((0, 2)), lambda a: a.sum((0, 2))),
  "red_sum_int32": (lambda a: a.sum(1), lambda a: a.sum(1)),
  "red_then_bcast": (lambda a: a - a.max(1, keepdim=True), lambda a: a - a.max(1, keepdims=True)),
  "softmax_axis0": (lambda a: a.softmax(0), lambda a: np.exp(a - a.max(0)) / np.exp(a - a.max(0)).sum(0)),
  "layernorm": (lambda a: a.layernorm(),
                lambda a: (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5)),
  "matmul_b_transposed": (lambda a, b: a @ b.T, lambda a, b: a @ b.T),
  "matmul_batched": (lambda a, b: a @ b, lambda a, b: a @ b),
  "matmul_bcast_batch": (lambda a, b: a @ b, lambda a, b: a @ b),
  "matmul_int32": (lambda a, b: a @ b, lambda a, b: a @ b),
  "matmul_half": (lambda a, b: a @ b, None),
  "matmul_64x64x64": (lambda a, b: a @ b, lambda a, b: a @ b),
  "mv_pad": (lambda a: a.pad(((1, 2), (0, 1))).contiguous(), lambda a: np.pad(a, ((1, 2), (0, 1)))),
  "mv_shrink": (lambda a: a[2:6, 1:7] * 2, lambda a: a[2:6, 1:7] * 2),
  "mv_flip": (lambda a: a.flip(0) + a.flip(1), lambda a: a[::-1] + a[:, ::-1]),
  "mv_permute": (lambda a: a.permute(2, 0, 1).contiguous(), lambda a: a.transpose(2, 0, 1)),
  "mv_reshape_expand": (lambda a: a.reshape(2, 3).unsqueeze(0).expand(4, 2, 3).contiguous(),
                        lambda a: np.broadcast_to(a.reshape(1, 2, 3), (4, 2, 3))),
  "un_tanh": (lambda a: a.tanh(), np.tanh),
  "un_gelu": (lambda a: a.gelu(), lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))),
  "un_rounding": (lambda a: Tensor.stack(a.abs(), a.floor(), a.ceil(), a.trunc(), a.round()),
                  lambda a: np.stack([np.abs(a), np.floor(a), np.ceil(a), np.trunc(a), np.round(a)])),
  "un_specials": (lambda a: Tensor.stack(a.exp2(), a.log2(), a.sqrt(), a.reciprocal(), a.sin()),
                  # tinygrad's log2 decomposition (reproduced by ours) gives -inf for a negative subnormal
                  # (-1e-40), where numpy gives nan
                  lambda a: np.stack([np.exp2(a), np.where((a < 0) & (a > -np.finfo(np.float32).tiny), -np.inf, np.log2(a)),
                                      np.sqrt(a), 1 / a, np.sin(a)])),
  "cast_u8_normalize": (lambda a: a.cast(dtypes.float32) / 255.0, lambda a: a.astype(np.float32) / 255),
  "cast_i32_u8": (lambda a: a.cast(dtypes.uint8), lambda a: a.astype(np.uint8)),
  "cast_i8_f16": (lambda a: a.cast(dtypes.float16) + 0.5, lambda a: a.astype(np.float16) + np.float16(0.5)),
  "cast_f16_i32": (lambda a: a.cast(dtypes.int32), lambda a: a.astype(np.int32)),
  "cast_bf16_f32_scale": (lambda a: a.cast(dtypes.float32) * 0.25, lambda a: a.astype(np.float32) * np.float32(0.25)),
  "bitcast_f32_i32": (lambda a: (a + 1).bitcast(dtypes.int32), lambda a: (a + np.float32(1)).view(np.int32)),
  "int_truncdiv_fmod": (lambda a, b: Tensor.stack(a.div(b, rounding_mode="trunc"), a.fmod(b)),
                        lambda a, b: np.stack([np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b), np.fmod(a, b)])),
  "uint32_div_mod_pow2": (lambda a: (a // 8) + (a % 16), lambda a: a // 8 + a % 16),
  "bitwise_i32": (lambda a, b: Tensor.stack(a & b, a | b, a ^ b), lambda a, b: np.stack([a & b, a | b, a ^ b])),
  "bitwise_shift_u8": (lambda a: (a << 2) ^ (a >> 1), lambda a: (a << np.uint8(2)) ^ (a >> np.uint8(1))),
  "bitwise_not_i32": (lambda a: ~a, lambda a: ~a),
  "bool_logic": (lambda a, b: (a & b) | (a.logical_not() ^ b), lambda a, b: (a & b) | (~a ^ b)),
  "mv_transpose_pad_flip_stride": (lambda a: a.T.pad(((1, 1), (0, 0))).flip(1)[::2].contiguous(),
                                   lambda a: np.pad(a.T, ((1, 1), (0, 0)))[:, ::-1][::2]),
  "mv_cat": (lambda a, b: a.cat(b, dim=0), lambda a, b: np.concatenate([a, b], 0)),
  "mv_repeat": (lambda a: a.repeat(2, 2).contiguous(), lambda a: np.tile(a, (2, 2))),
  "mv_tril": (lambda a: a.tril(), np.tril),
  "arange_int": (lambda: Tensor.arange(16).clone(), lambda: np.arange(16, dtype=np.int32)),
  "arange_float_step": (lambda: (Tensor.arange(2, 20, 3, dtype=dtypes.float32) * 0.5).clone(),
                        lambda: np.arange(2, 20, 3, dtype=np.float32) * 0.5),
  "arange_eye": (lambda a: (Tensor.arange(6).unsqueeze(1) == Tensor.arange(6)).where(a, 0.0),
                 lambda a: np.where(np.arange(6)[:, None] == np.arange(6), a, np.float32(0))),
  "gather_dim1": (lambda a, idx: a.gather(1, idx), lambda a, idx: np.take_along_axis(a, idx, 1)),
  "embedding_index": (lambda a, idx: a[idx], lambda a, idx: a[idx]),
  "cumsum_1d": (lambda a: a.cumsum(0), np.cumsum),
  "argmax_axis1": (lambda a: a.argmax(1), lambda a: a.argmax(1).astype(np.int32)),
  "argmax_all": (lambda a: a.argmax(), lambda a: np.int32(a.argmax())),
  "conv2d_basic": (lambda x, w: x.conv2d(w), np_conv2d),
  # the corpus seeds random programs with 1337 first; tinygrad's threefry stream has no numpy twin
  "rand_uniform": (lambda: seeded(1337, lambda: Tensor.rand(4, 8)), None),
  "randint": (lambda: seeded(1337, lambda: Tensor.randint(16, low=0, high=10)), None),
  "sym_var_add": (lambda a: a + Variable("k", 0, 10).bind(3), lambda a: a + np.float32(3)),
  "conv2d_groups": (lambda x, w: x.conv2d(w, groups=2, padding=1), lambda x, w: np_conv2d(x, w, groups=2, padding=1)),
}


def load_records(test):
  path = os.path.join(CORPUS, "schedules.jsonl")
  if not os.path.exists(path): test.skipTest(f"corpus {path} not found (set TG_CORPUS_DIR)")
  with open(path) as f:
    return {r["id"]: r for r in map(json.loads, f)}


def inputs_of(rec):
  arrs = [np.array(i["values"], dtype=getattr(dtypes, i["dtype"]).np).reshape(i["shape"]) for i in rec["inputs"]]
  return arrs, [Tensor(a, getattr(dtypes, i["dtype"])) for a, i in zip(arrs, rec["inputs"])]


def canonical(g):
  """Nodes with buffer slots renumbered in order of appearance."""
  slots, out = {}, []
  for n in g["nodes"]:
    arg = n["arg"]
    if isinstance(arg, dict) and arg.get("kind") == "ParamArg":
      arg = dict(arg, slot=slots.setdefault(arg["slot"], len(slots)))
    out.append((n["op"], n["dtype"], tuple(n["src"]), json.dumps(arg, sort_keys=True)))
  return out


def close(got, want, rtol=1e-4, atol=1e-5):
  got, want = np.asarray(got), np.asarray(want)
  if got.shape != want.shape: return False
  if got.dtype.kind in "biu": return np.array_equal(got, want)
  return np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


class TestGraphsAreTinygrads(unittest.TestCase):
  def test_corpus_programs(self):
    recs = load_records(self)
    for pid, (ours, _) in PROGRAMS.items():
      with self.subTest(program=pid):
        _, ts = inputs_of(recs[pid])
        g = to_json(UOp("SINK", dtypes.void, (ours(*ts).uop,)))
        self.assertEqual(canonical(g), canonical(recs[pid]["tensor_graph"]))


class TestResults(unittest.TestCase):
  def test_corpus_programs_match_tinygrad_and_numpy(self):
    recs = load_records(self)
    for pid, (ours, ref) in PROGRAMS.items():
      with self.subTest(program=pid):
        rec = recs[pid]
        arrs, ts = inputs_of(rec)
        got = ours(*ts).numpy()
        out = rec["outputs"][0]
        want = np.array(out["values"], dtype=getattr(dtypes, out["dtype"]).np).reshape(out["shape"])
        # the corpus suites' rule: 1e-5 relative (fp16: 2e-3), and an absolute floor of 1e-6 for values near 0
        self.assertTrue(close(got, want, rtol=2e-3 if got.dtype == np.float16 else 1e-5, atol=1e-6),
                        f"{got} vs tinygrad {want}")
        if ref is not None:
          self.assertTrue(close(got, ref(*arrs), rtol=2e-3 if got.dtype == np.float16 else 1e-4), f"{got} vs numpy")

  def test_three_line_program(self):
    x = Tensor([[1.0, -2.0], [3.0, 4.0]])
    out = (x @ x).relu().sum(axis=1).numpy()
    self.assertTrue(close(out, np.maximum(np.array([[1.0, -2.0], [3.0, 4.0]]) @ np.array([[1.0, -2.0], [3.0, 4.0]]), 0).sum(1)))

  def test_large_range_variable(self):
    # a variable past int32 is a 64-bit kernel argument (tinygrad's `const long`): 2**35 arrived as 0
    v = Variable("b", 0, 2**40).bind(2**35)
    self.assertEqual((Tensor(np.arange(3, dtype=np.int64)) + v).numpy().tolist(), [2**35, 2**35 + 1, 2**35 + 2])

  def test_width_changing_bitcast(self):
    # tinygrad's expand_bitcast: the last axis rescales (narrower: each element split into its bytes)
    a = np.array([[1.5, -2.25, 3e9, 0.1]], np.float32)
    self.assertEqual((Tensor(a) + 1).bitcast(dtypes.uint8).numpy().tolist(), (a + 1).view(np.uint8).tolist())
    u = ((np.arange(16) * 13) % 256).astype(np.uint8)
    self.assertEqual((Tensor(u) + 1).bitcast(dtypes.float16).numpy().view(np.uint16).tolist(),
                     (u + 1).view(np.uint16).tolist())
    q = np.array([2**40 + 5, -7], np.int64)
    self.assertEqual((Tensor(q) + 1).bitcast(dtypes.int32).numpy().tolist(), (q + 1).view(np.int32).tolist())

  def test_realized_tensor_is_reused(self):
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = (a * 2).realize()
    self.assertTrue(close((b + a).numpy(), np.arange(6).reshape(2, 3) * 3))

  def test_assign_updates_the_buffer_in_place(self):
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    flat = a.reshape(6)
    a.assign(a * 2 + 1)
    self.assertTrue(close(a.numpy(), np.arange(6).reshape(2, 3) * 2 + 1))
    self.assertTrue(close(flat.numpy(), np.arange(6) * 2 + 1))

  def test_conv2d(self):
    rng = np.random.default_rng(1)
    x, w, bias = rng.standard_normal((2, 3, 6, 6), dtype=np.float32), rng.standard_normal((4, 3, 3, 3), dtype=np.float32), \
      rng.standard_normal(4, dtype=np.float32)
    got = Tensor(x).conv2d(Tensor(w), Tensor(bias), padding=1).numpy()
    self.assertTrue(close(got, np_conv2d(x, w, padding=1) + bias.reshape(1, 4, 1, 1), rtol=1e-4, atol=1e-4))

  def test_large_conv2d_matches_numpy(self):
    # large enough for our convolution tile (OurHeuristic.cpp convTile): 8 output columns by a vector
    # register of output channels, the window's taps along x unrolled; padded (gated input) and not
    rng = np.random.default_rng(3)
    w = rng.standard_normal((32, 16, 3, 3), dtype=np.float32)
    for side, pad in ((24, 1), (26, 0)):  # 24 output columns either way
      x = rng.standard_normal((2, 16, side, side), dtype=np.float32)
      got = Tensor(x).conv2d(Tensor(w), padding=pad).numpy()
      self.assertTrue(close(got, np_conv2d(x, w, padding=pad), rtol=1e-4, atol=1e-4), f"padding={pad}")

  def test_large_matmuls_match_numpy(self):
    # large enough for our register tile, whose B panel is packed into a stack buffer (StagePanel.cpp):
    # plain, batched (the batch chooses the panel too) and int32 (exact); A @ B.T has no panel to pack
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((256, 256), dtype=np.float32), rng.standard_normal((256, 256), dtype=np.float32)
    self.assertTrue(close((Tensor(a) @ Tensor(b)).numpy(), a @ b, rtol=1e-4, atol=1e-4))
    self.assertTrue(close((Tensor(a) @ Tensor(b).T).numpy(), a @ b.T, rtol=1e-4, atol=1e-4))
    x, y = rng.standard_normal((4, 128, 256), dtype=np.float32), rng.standard_normal((4, 256, 128), dtype=np.float32)
    self.assertTrue(close((Tensor(x) @ Tensor(y)).numpy(), x @ y, rtol=1e-4, atol=1e-4))
    i, j = rng.integers(-8, 8, (256, 256), dtype=np.int32), rng.integers(-8, 8, (256, 256), dtype=np.int32)
    self.assertTrue(close((Tensor(i) @ Tensor(j)).numpy(), i @ j))

  def test_bfloat16_rounds_to_nearest_even(self):
    # ties: 1 + 2^-8 -> 1 (even), 1 + 3*2^-8 -> 1 + 2^-6 (even); bfloat16 keeps float32's range
    vals = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, -2.5, 1e30, np.inf], np.float32)
    x = Tensor(vals, dtypes.bfloat16)
    want = np.array([1, 1 + 2 ** -6, -2.5, 1.0002555e30, np.inf], np.float32)
    self.assertTrue(close(x.numpy(), want, rtol=1e-7, atol=0))
    self.assertTrue(close((x * 2).numpy(), want * 2, rtol=1e-7, atol=0))
    self.assertTrue(np.isnan(Tensor(np.array([np.nan], np.float32), dtypes.bfloat16).numpy()[0]))

  def test_rand_continues_tinygrads_stream(self):
    # tinygrad a9069c17: manual_seed(5); rand(3, 5); rand(7); then manual_seed(5); rand(3, 5); randint(4, low=-3, high=9)
    Tensor.manual_seed(5)
    a, b = Tensor.rand(3, 5), Tensor.rand(7)
    self.assertTrue(close(a.numpy()[0, :3], [0.8675259351730347, 0.8075515031814575, 0.46670591831207275], rtol=1e-7))
    self.assertTrue(close(b.numpy()[:3], [0.9976102113723755, 0.5102194547653198, 0.7463862895965576], rtol=1e-7))
    Tensor.manual_seed(5)
    self.assertTrue(close(Tensor.rand(3, 5).numpy(), a.numpy(), rtol=0, atol=0))
    self.assertEqual(Tensor.randint(4, low=-3, high=9).numpy().tolist(), [6, 0, -3, -3])

  def test_zero_dim_array_stays_zero_dim(self):
    x = Tensor(np.asarray(np.float32(2.5)))
    self.assertEqual(x.shape, ())
    self.assertEqual((x + 1).numpy().shape, ())

  def test_weak_tensor_cannot_realize(self):
    with self.assertRaises(RuntimeError):
      Tensor(3).numpy()

  def test_shape_errors_name_both_shapes(self):
    a, b = Tensor(np.zeros((2, 3), np.float32)), Tensor(np.zeros((4, 3), np.float32))
    with self.assertRaisesRegex(ShapeError, r"\(2, 3\).*\(4, 3\)"):
      a + b
    with self.assertRaisesRegex(ShapeError, r"\(2, 3\).*\(4,\)"):
      a.reshape(4)


# *** random programs: a chain of ops applied to our Tensor and to numpy side by side ***

def _random_program(rng):
  shape = tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 3)))
  a = np.asarray(np.random.default_rng(rng.randint(0, 1 << 30)).standard_normal(shape), np.float32)
  t, n = Tensor(a), a
  steps = []
  for _ in range(rng.randint(1, 6)):
    kind = rng.choice(["unary", "binary", "scalar", "reduce", "permute", "reshape", "pad", "shrink", "flip", "expand",
                       "round", "cumsum", "stride", "cat", "argmax", "index"])
    nd = n.ndim
    if kind == "unary":
      op = rng.choice(["relu", "neg", "exp", "sqrt", "sin", "square"])
      if op == "relu": t, n = t.relu(), np.maximum(n, 0)
      elif op == "neg": t, n = -t, -n
      elif op == "exp": t, n = t.clip(-3, 3).exp(), np.exp(np.clip(n, -3, 3))
      elif op == "sqrt": t, n = (t * t + 1).sqrt(), np.sqrt(n * n + 1)
      elif op == "sin": t, n = t.sin(), np.sin(n)
      else: t, n = t.square(), n * n
    elif kind == "binary":
      # a broadcastable partner: some axes of size 1
      oshape = tuple(s if rng.random() < 0.6 else 1 for s in n.shape)
      o = np.asarray(np.random.default_rng(rng.randint(0, 1 << 30)).standard_normal(oshape), np.float32)
      op = rng.choice(["add", "sub", "mul", "max"])
      ot = Tensor(o)
      if op == "add": t, n = t + ot, n + o
      elif op == "sub": t, n = t - ot, n - o
      elif op == "mul": t, n = t * ot, n * o
      else: t, n = t.maximum(ot), np.maximum(n, o)
    elif kind == "scalar":
      c = round(rng.uniform(-2, 2), 2)
      t, n = (t * c + 1, n * np.float32(c) + 1) if rng.random() < 0.5 else (t - c, n - np.float32(c))
    elif kind == "reduce" and nd >= 1:
      ax, keep = rng.randrange(nd), rng.random() < 0.5
      if rng.random() < 0.5: t, n = t.sum(ax, keepdim=keep), n.sum(ax, keepdims=keep)
      else: t, n = t.max(ax, keepdim=keep), n.max(ax, keepdims=keep)
    elif kind == "permute" and nd >= 2:
      order = list(range(nd))
      rng.shuffle(order)
      t, n = t.permute(order), n.transpose(order)
    elif kind == "reshape" and nd >= 1:
      new = (n.size,) if rng.random() < 0.5 or nd == 1 else (n.shape[0], n.size // n.shape[0])
      t, n = t.reshape(new), n.reshape(new)
    elif kind == "pad" and nd >= 1:
      p = tuple((rng.randint(0, 2), rng.randint(0, 2)) for _ in range(nd))
      t, n = t.pad(p), np.pad(n, p)
    elif kind == "shrink" and nd >= 1:
      b = []
      for s in n.shape:
        lo = rng.randint(0, s - 1)
        b.append((lo, rng.randint(lo + 1, s)))
      t, n = t.shrink(tuple(b)), n[tuple(slice(lo, hi) for lo, hi in b)]
    elif kind == "flip" and nd >= 1:
      ax = rng.randrange(nd)
      t, n = t.flip(ax), np.flip(n, ax)
    elif kind == "expand" and nd >= 1 and 1 in n.shape:
      new = tuple(3 if s == 1 else s for s in n.shape)
      t, n = t.expand(new), np.broadcast_to(n, new)
    elif kind == "round":
      op = rng.choice(["floor", "ceil", "round", "trunc", "abs"])
      # scaled so that values land near (and on) the halves round() must break to even
      t, n = getattr(t * 2, op)(), {"floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc,
                                     "abs": np.abs}[op](n * 2)
    elif kind == "cumsum" and nd >= 1:
      ax = rng.randrange(nd)
      t, n = t.cumsum(ax), np.cumsum(n, ax)
    elif kind == "stride" and nd >= 1:
      ix = tuple(slice(rng.choice([None, 0, 1]), None, rng.choice([-2, -1, 2, 3])) for _ in range(nd))
      if n[ix].size == 0: continue  # the front end has no empty tensors
      t, n = t[ix], n[ix]
    elif kind == "cat" and nd >= 1:
      ax = rng.randrange(nd)
      t, n = t.cat(t.flip(ax), dim=ax), np.concatenate([n, np.flip(n, ax)], ax)
    elif kind == "argmax" and nd >= 1:
      ax = rng.randrange(nd)
      t, n = t.argmax(ax).cast(dtypes.float32), n.argmax(ax).astype(np.float32)
    elif kind == "index" and nd >= 1:
      idx = np.array([rng.randrange(n.shape[0]) for _ in range(rng.randint(1, 4))], np.int32)
      t, n = t[Tensor(idx)], n[idx]
    else:
      continue
    steps.append(kind)
  return t, n, steps


class TestRandomPrograms(unittest.TestCase):
  def test_random_programs_match_numpy(self):
    rng = random.Random(int(os.environ.get("TG_RANDOM_SEED", "1234")))
    for i in range(int(os.environ.get("TG_RANDOM_PROGRAMS", "60"))):
      t, n, steps = _random_program(rng)
      if t.dtype.is_weak: continue
      with self.subTest(program=i, steps=steps):
        got = t.numpy()
        self.assertTrue(close(got, n, rtol=1e-4, atol=1e-4), f"{steps}: {got} vs numpy {n}")


if __name__ == "__main__":
  unittest.main()
