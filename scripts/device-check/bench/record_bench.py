"""Record the device check's bench ops (issue 24) as tinygrad schedules them: each op's kernels in order,
each kernel's AST (the argument of full_rewrite_to_sink, before any opts: our compiler applies the
target's heuristic) and the buffers each kernel's parameter slots are wired to.

Nothing runs: the inputs are Tensor.empty and only tinygrad's scheduler is called (schedule_linear's
steps), so 4096x4096 shapes record in seconds on the CPU. Buffers are named by role: the op's inputs
(in the order of OPS' arguments), its output, and tinygrad's intermediates ("t<offset>" in its arena:
separate buffers here, since the memory planner only reuses regions that are dead).

Each op is also recorded at SMALL shapes (OUTDIR/small/NAME.json): the same schedule at sizes the
device half's self-test runs on the CPU device (compiled for the CPU by make_cases.py), so that the
wiring recorded here, the generation, the references and the comparison are checked without a GPU.

usage: cd <tinygrad a9069c17> && DEV=CPU PYTHONPATH=<repo>/python:. python3 record_bench.py OUTDIR [NAME...]
Writes OUTDIR/NAME.json and OUTDIR/small/NAME.json (checked in under scripts/device-check/bench/).
"""
import json, os, sys

from tinygrad import Tensor, dtypes
from tinygrad.uop.ops import UOp, Ops
from tinygrad.tensor import transform_to_call, _apply_map_to_tensors
from tinygrad.schedule import create_linear_with_vars
from tinygrad_mlir.uop_json import uop_to_json, dtype_name

# name -> (input shapes, dtype, the op, the torch reference the device half computes)
OPS = {
  "matmul_4096_f32": ([(4096, 4096), (4096, 4096)], dtypes.float32, lambda a, b: a @ b,
                      dict(op="matmul", m=4096, n=4096, k=4096)),
  "matmul_4096_f16": ([(4096, 4096), (4096, 4096)], dtypes.float16, lambda a, b: a @ b,
                      dict(op="matmul", m=4096, n=4096, k=4096)),
  "softmax_4096_f32": ([(4096, 4096)], dtypes.float32, lambda x: x.softmax(-1), dict(op="softmax", axis=-1)),
  "layernorm_4096_f32": ([(4096, 4096)], dtypes.float32, lambda x: x.layernorm(-1, eps=1e-5),
                         dict(op="layernorm", axis=-1, eps=1e-5)),
  "conv2d_resnet_3x3_256_f32": ([(8, 256, 14, 14), (256, 256, 3, 3)], dtypes.float32,
                                lambda x, w: x.conv2d(w, padding=1), dict(op="conv2d", padding=1, stride=1)),
}

SOURCES = {"matmul_4096_f32": "a @ b", "matmul_4096_f16": "a @ b", "softmax_4096_f32": "x.softmax(-1)",
           "layernorm_4096_f32": "x.layernorm(-1, eps=1e-5)", "conv2d_resnet_3x3_256_f32": "x.conv2d(w, padding=1)"}
# the self-test's shapes: not multiples of the GPU shapes' factors, so that odd sizes are covered too
SMALL = {"matmul_4096_f32": ([(33, 40), (40, 24)], dict(m=33, n=24, k=40)),
         "matmul_4096_f16": ([(33, 40), (40, 24)], dict(m=33, n=24, k=40)),
         "softmax_4096_f32": ([(37, 50)], {}), "layernorm_4096_f32": ([(37, 50)], {}),
         "conv2d_resnet_3x3_256_f32": ([(2, 6, 7, 5), (4, 6, 3, 3)], {})}


def record(name, small=False):
  shapes, dt, fn, ref = OPS[name]
  if small:
    shapes, ref = SMALL[name][0], dict(ref, **SMALL[name][1])
  ins = [Tensor.empty(*s, dtype=dt) for s in shapes]
  out = fn(*ins)
  big_sink, becomes = transform_to_call(UOp.sink(out.uop))
  _apply_map_to_tensors(becomes, name="buffers")
  linear, var_vals = create_linear_with_vars(big_sink)
  assert not var_vals, f"{name}: symbolic variables {var_vals}"
  roles = {out.uop.base: "out"} | {t.uop.base: f"in{i}" for i, t in enumerate(ins)}
  buffers, kernels = {}, []

  def buffer_id(u):
    if u.op is Ops.BUFFER:
      assert u in roles, f"{name}: kernel argument {u} is none of the op's tensors"
      bid, count = roles[u], u.src[0].arg
    else:  # an intermediate: BITCAST(SHRINK(arena, byte offset, byte size))
      assert u.op is Ops.BITCAST and u.src[0].op is Ops.SHRINK, f"{name}: unexpected kernel argument {u.op}"
      _, off, size = u.src[0].src
      bid, count = f"t{off.arg}", size.arg // u.dtype.itemsize
    prev = buffers.setdefault(bid, dict(id=bid, dtype=dtype_name(u.dtype), count=count))
    assert prev["count"] == count and prev["dtype"] == dtype_name(u.dtype), f"{name}: {bid} reused with another size"
    return bid

  for call in linear.src:
    ast = call.src[0]
    assert ast.op is Ops.SINK, f"{name}: a {ast.op} in the schedule (copies are not bench kernels)"
    params = sorted((u for u in ast.toposort() if u.op is Ops.PARAM), key=lambda u: u.arg.slot)
    args = [buffer_id(u) for u in call.src[1:]]
    for p in params:  # a kernel's parameter slot i is its call's argument i
      assert p.src[0].arg == buffers[args[p.arg.slot]]["count"], f"{name}: slot {p.arg.slot} wired to the wrong size"
    kernels.append(dict(ast=uop_to_json(ast), args=args,
                        params=[dict(slot=p.arg.slot, dtype=dtype_name(p.dtype), size=p.src[0].arg, addrspace="GLOBAL")
                                for p in params]))
  inputs = [dict(id=f"in{i}", shape=list(s)) for i, s in enumerate(shapes)]
  for i in inputs: assert i["id"] in buffers, f"{name}: input {i['id']} is read by no kernel"
  return dict(id=name, tinygrad_commit="a9069c177a9da9cca18593edf55acd2e6073cca6", source=SOURCES[name], dtype=dtype_name(dt),
              inputs=inputs, output=dict(id="out", shape=list(out.shape)), reference=ref,
              buffers=sorted(buffers.values(), key=lambda b: b["id"]), kernels=kernels)


def main():
  outdir, names = sys.argv[1], sys.argv[2:] or list(OPS)
  os.makedirs(os.path.join(outdir, "small"), exist_ok=True)
  for name in names:
    for small in (False, True):
      rec = record(name, small)
      with open(os.path.join(outdir, "small" if small else "", name + ".json"), "w") as f:
        json.dump(rec, f, separators=(",", ":"))
      print(f"{name}{' (small)' if small else ''}: {len(rec['kernels'])} kernels, "
            f"buffers {[b['id'] for b in rec['buffers']]}")


if __name__ == "__main__":
  main()
