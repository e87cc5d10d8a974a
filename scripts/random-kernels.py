#!/usr/bin/env python3
"""Random tensor programs through real tinygrad with our compiler as its CPU codegen, each kernel
checked against tinygrad's own program on the same inputs (TINYGRAD_MLIR_CHECK).

The kernels are the ones tinygrad's scheduler makes from the program, so this exercises the
codegen on ASTs that no corpus case or test_ops test holds: odd and large sizes (remainders of our
vector and thread splits), mixed dtypes, casts, integer arithmetic, broadcasts, reductions over
any axes, matmuls and convolutions. A kernel we reject, or whose outputs differ from tinygrad's,
fails the run; each is logged and saved (AST, diagnostic, inputs) under --save.

Run with tinygrad (commit a9069c17) importable and DEV=CPU:MLIR, e.g.
  cd ../tinygrad && DEV=CPU:MLIR PARALLEL=0 PYTHONPATH=../main/python:. /usr/bin/python3 \\
      ../main/scripts/random-kernels.py --programs 200 --seed 1
Prints one line per failing program and a closing `random-kernels: N programs, K kernels checked,
M mismatched, R rejected, E raised only through us (...), T refused by tinygrad itself`; exits 1 if
M, R or E is non-zero. A program whose run raises with no kernel mismatched or rejected is printed
and run again under tinygrad's own compiler (DEV=CPU): raising there too, it is tinygrad's refusal
(T); else the error is ours (E), a failure. Failing programs are then rerun with
tinygrad's own opts (TG_OPTS=tinygrad): one that matches there differs only in the order our
heuristic sums floats in (split accumulators, cache blocks), which the last line lists.
--contractions draws matmuls and convolutions of every dtype, --variables slices of bound-Variable
length.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import traceback

os.environ.setdefault("TINYGRAD_MLIR_CHECK", "1")
os.environ.setdefault("PARALLEL", "0")
os.environ.setdefault("DEV", "CPU:MLIR")

import numpy as np  # noqa: E402
from tinygrad import Tensor, Variable, dtypes  # noqa: E402

import tinygrad_mlir.tinygrad as hook  # noqa: E402

# sizes around our splits: vector widths (4/8/16 lanes), register tiles, the thread split
SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257]
FLOATS = [dtypes.float32, dtypes.float32, dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.float64]
INTS = [dtypes.int32, dtypes.int32, dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.uint32,
        dtypes.int64, dtypes.uint64]
MAX_ELEMS = 1 << 17


TRACE = []


def note(op):
  TRACE.append(op)
  return op


def rand_shape(rng, nd=None):
  nd = nd if nd is not None else rng.randint(1, 4)
  while True:
    shape = tuple(rng.choice(SIZES) for _ in range(nd))
    if int(np.prod(shape)) <= MAX_ELEMS: return shape


def leaf(rng, shape, dtype):
  g = np.random.default_rng(rng.randint(0, 1 << 30))
  if dtype == dtypes.bool: return Tensor(g.random(shape) < 0.5)
  if dtypes.is_float(dtype):
    return Tensor(g.standard_normal(shape).astype(np.float32)).cast(dtype) if dtype == dtypes.bfloat16 else \
      Tensor(g.standard_normal(shape).astype(np.dtype(dtype.fmt)))
  info = np.iinfo(np.dtype(dtype.fmt))
  lo, hi = max(info.min, -1000), min(info.max, 1000)
  return Tensor(g.integers(lo, hi, shape, endpoint=True).astype(np.dtype(dtype.fmt)))


def partner(rng, t):
  """A broadcastable operand of t's dtype: some axes of size 1, sometimes a scalar."""
  if rng.random() < 0.2: return rng.choice([2, 3, -1]) if dtypes.is_int(t.dtype) else rng.choice([0.5, -1.5, 2.0])
  shape = tuple(s if rng.random() < 0.7 else 1 for s in t.shape)
  return leaf(rng, tuple(s if isinstance(s, int) else 1 for s in shape), t.dtype)  # a Variable axis broadcasts


def float_step(rng, t):
  op = note(rng.choice(["exp", "log", "sin", "sqrt", "recip", "relu", "sigmoid", "tanh", "abs", "neg", "add", "mul",
                   "sub", "div", "max", "min", "where", "pow", "floor", "round", "softmax", "square", "gelu"]))
  if op == "exp": return (t.clip(-8, 8)).exp()
  if op == "log": return (t.abs() + 0.5).log()
  if op == "sin": return t.sin()
  if op == "sqrt": return (t * t + 1).sqrt()
  if op == "recip": return (t.abs() + 1).reciprocal()
  if op == "relu": return t.relu()
  if op == "sigmoid": return t.sigmoid()
  if op == "tanh": return t.tanh()
  if op == "abs": return t.abs()
  if op == "neg": return -t
  if op == "add": return t + partner(rng, t)
  if op == "mul": return t * partner(rng, t)
  if op == "sub": return t - partner(rng, t)
  if op == "div": return t / (partner(rng, t) if rng.random() < 0.3 else 3.0)
  if op == "max": return t.maximum(partner(rng, t))
  if op == "min": return t.minimum(partner(rng, t))
  if op == "where": return (t > 0).where(t, partner(rng, t))
  if op == "pow": return (t.abs() + 0.1).pow(rng.choice([2, 0.5, 3]))
  if op == "floor": return (t * 4).floor()
  if op == "round": return (t * 2).round()
  if op == "softmax": return t.softmax(rng.randrange(t.ndim))
  if op == "square": return t.square()
  return t.gelu()


def int_step(rng, t):
  op = note(rng.choice(["add", "mul", "sub", "idiv", "mod", "and", "or", "xor", "shl", "shr", "max", "neg", "cmp",
                   "where", "abs"]))
  if op == "add": return t + partner(rng, t)
  if op == "mul": return t * partner(rng, t)
  if op == "sub": return t - partner(rng, t)
  if op == "idiv": return t // rng.choice([2, 3, 7, 16, -5] if dtypes.is_unsigned(t.dtype) is False else [2, 3, 7, 16])
  if op == "mod": return t % rng.choice([2, 3, 7, 16])
  if op == "and": return t & partner(rng, t)
  if op == "or": return t | partner(rng, t)
  if op == "xor": return t ^ partner(rng, t)
  if op == "shl": return t << rng.choice([1, 2, 3])
  if op == "shr": return t >> rng.choice([1, 2, 3])
  if op == "max": return t.maximum(partner(rng, t))
  if op == "neg": return -t if not dtypes.is_unsigned(t.dtype) else t
  if op == "cmp": return (t < partner(rng, t)).cast(t.dtype)
  if op == "where": return (t > 0).where(t, partner(rng, t))
  return t.abs() if not dtypes.is_unsigned(t.dtype) else t


def movement_step(rng, t):
  nd = t.ndim
  op = note(rng.choice(["permute", "reshape", "pad", "shrink", "flip", "expand", "stride", "cat", "index"]))
  if op == "permute" and nd >= 2:
    order = list(range(nd))
    rng.shuffle(order)
    return t.permute(order)
  if op == "reshape":
    return t.reshape(-1) if nd > 1 or t.shape[0] % 2 else t.reshape(2, -1)
  if op == "pad": return t.pad(tuple((rng.randint(0, 3), rng.randint(0, 3)) for _ in range(nd)))
  if op == "shrink":
    b = []
    for s in t.shape:
      lo = rng.randint(0, s - 1)
      b.append((lo, rng.randint(lo + 1, s)))
    return t.shrink(tuple(b))
  if op == "flip": return t.flip(rng.randrange(nd))
  if op == "expand" and 1 in t.shape and np.prod([s for s in t.shape if s != 1]) * 16 <= MAX_ELEMS:
    return t.expand(tuple(rng.choice([3, 16]) if s == 1 else s for s in t.shape))
  if op == "stride":
    ix = tuple(slice(rng.choice([None, 0, 1]), None, rng.choice([-2, -1, 2, 3])) for _ in range(nd))
    r = t[ix]
    return r if r.numel() > 0 else t
  if op == "cat" and 2 * t.numel() <= MAX_ELEMS:
    ax = rng.randrange(nd)
    return t.cat(t.flip(ax), dim=ax)
  if op == "index":
    idx = Tensor(np.array([rng.randrange(t.shape[0]) for _ in range(rng.randint(1, 9))], np.int32))
    return t[idx]
  return t


def reduce_step(rng, t):
  nd = t.ndim
  axes = tuple(sorted(rng.sample(range(nd), rng.randint(1, nd))))
  keep = rng.random() < 0.5
  op = rng.choice(["sum", "max", "min", "mean", "prod", "argmax", "cumsum", "std"] if dtypes.is_float(t.dtype) else
                  ["sum", "max", "min", "argmax", "cumsum"])
  note(f"{op}{axes}")
  if op == "prod": return (t.clip(-1.1, 1.1)).prod(axes, keepdim=keep)
  if op == "argmax": return t.argmax(axes[0], keepdim=keep).cast(t.dtype)
  if op == "cumsum": return t.cumsum(axes[0])
  if op == "std": return t.std(axes, keepdim=keep)
  return getattr(t, op)(axes, keepdim=keep)


def contraction(rng, dtype):
  """A matmul (sometimes batched, sometimes transposed) or a conv2d, the kernels our tiling owns."""
  if rng.random() < 0.7:
    m, k, n = rng.choice(SIZES[4:]), rng.choice(SIZES[4:]), rng.choice(SIZES[4:])
    batch = (rng.choice([2, 3]),) if rng.random() < 0.3 and m * k * n <= MAX_ELEMS * 8 else ()
    a, b = leaf(rng, batch + (m, k), dtype), leaf(rng, batch + (k, n), dtype)
    if rng.random() < 0.3: b = leaf(rng, batch + (n, k), dtype).transpose(-1, -2)
    return a @ b
  cin, cout, hw, ks = rng.choice([1, 3, 4, 8]), rng.choice([1, 4, 8, 16]), rng.choice([5, 8, 9, 16]), rng.choice([1, 3])
  x, w = leaf(rng, (rng.choice([1, 2]), cin, hw, hw), dtype), leaf(rng, (cout, cin, ks, ks), dtype)
  return x.conv2d(w, padding=rng.choice([0, 1]), stride=rng.choice([1, 2]))


def cast(t, dtype):
  """A cast C defines: a float out of the integer's range (a negative one to an unsigned type)
  converts to whatever the instruction clang picks gives (UB), so it is clipped first."""
  if dtypes.is_float(t.dtype) and dtypes.is_int(dtype):
    info = np.iinfo(np.dtype(dtype.fmt))
    t = t.clip(max(info.min, -(1 << 20)), min(info.max, 1 << 20))
  return t.cast(dtype)


def program(rng):
  kind = rng.random()
  if kind < 0.2:
    dtype = rng.choice([dtypes.float32, dtypes.float32, dtypes.float16, dtypes.int32])
    t = contraction(rng, dtype)
  else:
    dtype = rng.choice(FLOATS + INTS + [dtypes.bool])
    t = leaf(rng, rand_shape(rng), dtype)
  steps = [f"{'contraction ' if kind < 0.2 else ''}{t.dtype.name}{t.shape}"]
  TRACE.clear()
  for _ in range(rng.randint(1, 6)):
    if t.numel() == 0 or t.ndim == 0: break
    r = rng.random()
    if t.dtype == dtypes.bool:
      t = t.cast(rng.choice([dtypes.int32, dtypes.float32, dtypes.uint8]))
      steps.append(f"cast -> {t.dtype.name}")
      continue
    if r < 0.35:
      t = float_step(rng, t) if dtypes.is_float(t.dtype) else int_step(rng, t)
    elif r < 0.6:
      t = movement_step(rng, t)
    elif r < 0.8:
      t = reduce_step(rng, t)
    else:
      t = cast(t, rng.choice(FLOATS + INTS))
    steps.append(f"{TRACE.pop() if TRACE else 'cast'} -> {t.dtype.name}{t.shape}")
  return t, steps


def variable_program(rng):
  """A slice of bound-Variable length (the kernels take it as a launch argument), then elementwise ops and
  reductions over either axis."""
  n, m = rng.choice(SIZES[6:]), rng.choice(SIZES[:20])
  dtype = rng.choice([dtypes.float32, dtypes.float32, dtypes.float16, dtypes.int32])
  t = leaf(rng, (n, m), dtype)[:Variable("v", 1, n).bind(rng.randint(1, n))]
  steps = [f"variable {t.dtype.name}[:v of {n}, {m}]"]
  TRACE.clear()
  for _ in range(rng.randint(1, 4)):
    r = rng.random()
    if r < 0.6:
      t = float_step(rng, t) if dtypes.is_float(t.dtype) else int_step(rng, t)
    elif t.ndim == 2:
      ax, op = rng.randrange(2), rng.choice(["sum", "max"])
      t = getattr(t, op)(ax)
      note(f"{op}({ax})")
    steps.append(f"{TRACE.pop() if TRACE else 'step'} -> {t.dtype.name}")
  return t, steps


def contraction_program(rng):
  """A matmul or conv2d of any dtype (their register tiles and reduce splits), then a few steps."""
  t = contraction(rng, rng.choice(FLOATS + INTS))
  steps = [f"contraction {t.dtype.name}{t.shape}"]
  TRACE.clear()
  for _ in range(rng.randint(0, 3)):
    t = float_step(rng, t) if dtypes.is_float(t.dtype) else int_step(rng, t)
    steps.append(f"{TRACE.pop() if TRACE else 'step'} -> {t.dtype.name}")
  return t, steps


def rerun(only, env):
  """This script again, same arguments (seed, mode), on the programs `only`, under `env`."""
  argv, it = [], iter(sys.argv[1:])
  for a in it:
    if a in ("--only", "--programs"): next(it, None)
    elif not a.startswith(("--only=", "--programs=")): argv.append(a)
  cmd = [sys.executable, os.path.abspath(__file__)] + argv + ["--only", ",".join(map(str, only))]
  return subprocess.run(cmd, env={**os.environ, **env}, capture_output=True, text=True)


def raised_by_tinygrad(raised):
  """The programs of `raised` (number -> error) that raise only through us: each is run again under
  tinygrad's own CPU compiler (DEV=CPU); one that raises there too is tinygrad's refusal, not a
  failure of ours. Under DEV=CPU itself every error is tinygrad's."""
  if not raised or os.environ.get("DEV") == "CPU": return []
  r = rerun(sorted(raised), {"DEV": "CPU"})
  theirs = {int(m) for m in re.findall(r"^program (\d+) .*: raised ", r.stdout, re.M)}
  if r.returncode not in (0, 1):  # the rerun itself broke: nothing is known to be tinygrad's
    print(f"random-kernels: the DEV=CPU rerun exited {r.returncode}: {r.stderr.strip()[-500:]}")
    theirs = set()
  return sorted(i for i in raised if i not in theirs)


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--programs", type=int, default=100)
  ap.add_argument("--seed", type=int, default=0)
  ap.add_argument("--save", default="", help="directory for the ASTs and inputs of failing kernels")
  ap.add_argument("--variables", action="store_true", help="programs over slices of bound-Variable length")
  ap.add_argument("--contractions", action="store_true", help="matmuls and convolutions of every dtype")
  ap.add_argument("--only", default="", help="comma-separated program numbers to rerun (of --seed)")
  ap.add_argument("--verbose", action="store_true")
  args = ap.parse_args()
  if args.save: os.environ["TINYGRAD_MLIR_SAVE_FAILED"] = args.save
  bad, failed, raised = 0, [], {}
  todo = [int(x) for x in args.only.split(",")] if args.only else range(args.programs)
  for i in todo:
    rng = random.Random(f"{args.seed}/{i}")
    before = (hook.stats["mismatched"], hook.stats["failed"])
    steps = []
    try:
      t, steps = (variable_program if args.variables else contraction_program if args.contractions else program)(rng)
      t.realize()
    except Exception as e:
      if args.verbose: traceback.print_exc()
      if before == (hook.stats["mismatched"], hook.stats["failed"]):
        # No kernel check explains it: tinygrad's own refusal (a dtype it cannot cast, ...) or a failure
        # of ours; raised_by_tinygrad (below) tells them apart.
        raised[i] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print(f"program {i} (seed {args.seed}): {' '.join(steps)}: raised {raised[i]}", flush=True)
        continue
    if (hook.stats["mismatched"], hook.stats["failed"]) != before:
      bad += 1
      failed.append(i)
      print(f"program {i} (seed {args.seed}): {' '.join(steps)}: {hook.stats['mismatched'] - before[0]} mismatched, "
            f"{hook.stats['failed'] - before[1]} rejected", flush=True)
  s = hook.stats
  ours = raised_by_tinygrad(raised)
  bad += len(ours)
  failed += ours
  print(f"random-kernels: {len(todo)} programs, {s['checked']} kernels checked, {s['mismatched']} mismatched, "
        f"{s['failed']} rejected, {len(ours)} raised only through us ({','.join(map(str, ours)) or 'none'}), "
        f"{len(raised) - len(ours)} refused by tinygrad itself")
  if failed and os.environ.get("TG_OPTS") != "tinygrad":
    # Our heuristic may sum floats in another order (split accumulators, cache blocks): a program that
    # matches under tinygrad's own opts differs in summation order only, which the summary says.
    cmd = [sys.executable, os.path.abspath(__file__), "--seed", str(args.seed), "--only", ",".join(map(str, failed))]
    cmd += ["--variables"] if args.variables else ["--contractions"] if args.contractions else []
    r = subprocess.run(cmd, env={**os.environ, "TG_OPTS": "tinygrad"}, capture_output=True, text=True)
    still = sorted(int(m) for m in re.findall(r"^program (\d+) ", r.stdout, re.M))
    order = [i for i in failed if i not in still]
    print(f"random-kernels: with tinygrad's opts (TG_OPTS=tinygrad) {len(order)} of the {len(failed)} failing programs "
          f"match: only our summation order differs there ({','.join(map(str, order)) or 'none'})")
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main())
