"""Our engine steps against tinygrad's own, node for node, on kernels written by hand in UOps.

For every kernel below (tinygrad's own test kernels: test_custom_kernel's fragments and custom kernels,
test_uops' UOp programs) tinygrad runs the step on the AST (`multi_pm`, then `pm_mops` bottom up:
full_rewrite_to_sink's first two steps), and we run the same AST through tinygrad-translate |
tinygrad-opt --tg-resolve-unshards --tg-early-movement-ops | tinygrad-translate. The two results are
compared as graphs (op, dtype, arg, sources), so an extra, missing or differently built node is a
difference. A kernel tinygrad rejects must be rejected by us with tinygrad's message.

usage: steps-vs-tinygrad.py <build/bin> <tinygrad checkout>
Prints one line per kernel (SAME, DIFFER, BOTH-REJECT) and a summary line.
"""
import json
import os
import subprocess
import sys

BIN, TG = sys.argv[1], sys.argv[2]
sys.path[:0] = [TG, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python")]
os.environ.setdefault("DEV", "CPU")

from tinygrad import Device, UOp, dtypes  # noqa: E402
from tinygrad.codegen import full_rewrite_to_sink  # noqa: E402
from tinygrad.dtype import AddrSpace  # noqa: E402
from tinygrad.uop.ops import AxisType, KernelInfo, Ops, graph_rewrite  # noqa: E402
from tinygrad.schedule.multi import multi_pm  # noqa: E402
from tinygrad.schedule.rangeify import pm_mops  # noqa: E402
from tinygrad_mlir.uop_json import uop_to_json  # noqa: E402
from test.backend import test_custom_kernel as tck  # noqa: E402


def P(shape, slot, dt=dtypes.float):
    return UOp.placeholder(shape, dt, slot)


def frag_kernel(index):
    # TestUnshardIndex: an 8x8 REG fragment per thread of 8 LOCAL threads, a 64x8 tile
    ty, ir, j = UOp.range(8, 0, AxisType.LOCAL), UOp.range(8, 1, AxisType.LOOP), UOp.range(8, 2, AxisType.LOOP)
    frag = UOp.placeholder((8, 8), dtypes.float32, 0, AddrSpace.REG).unshard((0,), (ty,))
    C = P((64, 8), 0)
    row = index(ty, ir)
    return C[row, j].store(frag[row, j]).end(j, ir, ty).sink(arg=KernelInfo(name="frag"))


def alu_scalar():
    ty = UOp.range(8, 0, AxisType.LOCAL)
    frag = UOp.placeholder((8,), dtypes.float32, 0, AddrSpace.LOCAL).unshard((0,), (ty,))
    v = frag.after(frag.store(1.5)) * 2.0
    return P((64,), 0).store(v).end(ty).sink(arg=KernelInfo(name="alu_scalar", opts_to_apply=()))


def alu_subview():
    ty = UOp.range(8, 0, AxisType.LOCAL)
    frag = UOp.placeholder((8,), dtypes.float32, 0, AddrSpace.LOCAL).unshard((0,), (ty,))
    v = frag.after(frag.store(0.0)) + P((64,), 1)
    return P((64,), 0).store(v).end(ty).sink(arg=KernelInfo(name="alu_subview", opts_to_apply=()))


def store_2axis():
    ty, tx = UOp.range(4, 0, AxisType.LOCAL), UOp.range(2, 1, AxisType.LOCAL)
    frag = UOp.placeholder((2, 1, 1, 2), dtypes.float32, 0, AddrSpace.REG).unshard((1, 2), (ty, tx))
    v = frag.after(frag.store(0.0)) + P((2, 4, 2, 2), 1)
    return P((2, 4, 2, 2), 0).store(v).end(tx, ty).sink(arg=KernelInfo(name="store_2axis", opts_to_apply=()))


def frag_movement():
    # movement ops on a fragment: permute, reshape keeping the shard axis, a shrink of the full axis
    ty = UOp.range(4, 0, AxisType.LOCAL)
    frag = UOp.placeholder((2, 6), dtypes.float32, 0, AddrSpace.REG).unshard((0,), (ty,))  # (8, 6)
    v = frag.after(frag.store(1.0)).permute((1, 0)).reshape(6, 8).shrink(((0, 4), (0, 8))) * 3.0
    i, jj = UOp.range(4, 1), UOp.range(2, 2)  # thread ty owns columns [2ty, 2ty+2) of the (4, 8) view
    col = ty * 2 + jj
    return P((4, 8), 0)[i, col].store(v[i, col]).end(i, jj, ty).sink(arg=KernelInfo(name="frag_movement", opts_to_apply=()))


def frag_reduce_cast():
    # a REDUCE over an unsharded axis stays sharded; CAST passes through
    ty = UOp.range(4, 0, AxisType.LOCAL)
    frag = UOp.placeholder((3, 2), dtypes.float32, 0, AddrSpace.REG).unshard((1,), (ty,))  # (3, 8)
    v = frag.after(frag.store(2.0)).sum(axis=0).cast(dtypes.half)
    jj = UOp.range(2, 1)
    col = ty * 2 + jj
    return P((8,), 0, dtypes.half)[col].store(v[col]).end(jj, ty).sink(arg=KernelInfo(name="frag_reduce", opts_to_apply=()))


def frag_flip_pad_expand():
    # FLIP of an unsharded axis, PAD of it, EXPAND in front: the sharding follows
    ty = UOp.range(2, 0, AxisType.LOCAL)
    frag = UOp.placeholder((3, 4), dtypes.float32, 0, AddrSpace.REG).unshard((1,), (ty,))  # (3, 8)
    v = frag.after(frag.store(1.0)).flip(0).pad(((1, 1), (0, 0))).reshape(1, 5, 8).expand(2, 5, 8)
    b, i, jj = UOp.range(2, 1), UOp.range(5, 2), UOp.range(4, 3)
    col = ty * 4 + jj
    return P((2, 5, 8), 0)[b, i, col].store(v[b, i, col]).end(b, i, jj, ty).sink(arg=KernelInfo(name="frag_fpe", opts_to_apply=()))


def frag_stack():
    ty = UOp.range(2, 0, AxisType.LOCAL)
    a = UOp.placeholder((4,), dtypes.float32, 0, AddrSpace.REG).unshard((0,), (ty,))
    b = UOp.placeholder((4,), dtypes.float32, 1, AddrSpace.REG).unshard((0,), (ty,))
    v = UOp(Ops.STACK, src=(a.after(a.store(1.0)), b.after(b.store(2.0))))  # (2, 8), sharded on axis 1
    k, jj = UOp.range(2, 1), UOp.range(4, 2)
    col = ty * 4 + jj
    return P((2, 8), 0)[k, col].store(v[k, col]).end(k, jj, ty).sink(arg=KernelInfo(name="frag_stack", opts_to_apply=()))


def sharded_param():
    # a PARAM sharded over two devices (ParamArg.axis): its shard UNSHARDed over the DEVICE range
    src = UOp.param(1, dtypes.float, (8,), device=("CPU:0", "CPU:1"), axis=0)
    d, r = UOp.range(2, -1, AxisType.DEVICE), UOp.range(8, 0)
    return P((8,), 0)[r].store(src.index(d * 8 + r) + 1.0).end(r).sink(arg=KernelInfo(name="sharded_param"))


def frag_reshard():
    # an ALU of two fragments sharded over different ranges: a copy between shards, no kernel
    ty, tx = UOp.range(2, 0, AxisType.LOCAL), UOp.range(2, 1, AxisType.LOCAL)
    a = UOp.placeholder((4,), dtypes.float32, 0, AddrSpace.REG).unshard((0,), (ty,))
    b = UOp.placeholder((4,), dtypes.float32, 1, AddrSpace.REG).unshard((0,), (tx,))
    v = a.after(a.store(1.0)) + b.after(b.store(2.0))
    return P((8,), 0).store(v).end(tx, ty).sink(arg=KernelInfo(name="frag_reshard", opts_to_apply=()))


def custom_gemm():
    return tck.custom_gemm(P((8, 8), 0), P((8, 6), 1), P((6, 8), 2))


def custom_gemm_qkv_views():
    return tck.custom_elementwise_addmul_kernel(P((4, 4), 0), P((4, 4), 1), P((4, 4), 2), P((4, 4), 3))


KERNELS = {
    "frag_contiguous": lambda: frag_kernel(lambda ty, ir: ty * 8 + ir),
    "frag_strided": lambda: frag_kernel(lambda ty, ir: ty + ir * 8),
    "frag_cannot_shard": lambda: frag_kernel(lambda ty, ir: ty + ir),
    "alu_scalar": alu_scalar, "alu_subview": alu_subview, "store_2axis": store_2axis,
    "frag_movement": frag_movement, "frag_reduce_cast": frag_reduce_cast,
    "frag_flip_pad_expand": frag_flip_pad_expand, "frag_stack": frag_stack, "sharded_param": sharded_param,
    "frag_reshard": frag_reshard,
    "custom_gemm": custom_gemm, "custom_addmul": custom_gemm_qkv_views,
    "slice_sum": lambda: tck.slice_sum_kernel(P((16,), 0), P((16, 16), 1)),
    "simple_qkv": lambda: tck.simple_qkv_kernel(P((8, 4), 0), P((8, 4), 1), P((8, 4), 2), P((8, 4), 3)),
    "custom_eye": lambda: tck.custom_eye_kernel(P((16, 16), 0)),
}


def canon(graph):
    """Root's structure as nested tuples (op, dtype, arg, srcs), tags dropped."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    memo = {}

    def go(i):
        if i not in memo:
            n = nodes[i]
            memo[i] = (n["op"], n["dtype"], json.dumps(n["arg"], sort_keys=True), tuple(go(s) for s in n["src"]))
        return memo[i]
    return go(graph["nodes"][-1]["id"] if "root" not in graph else graph["root"])


def first_difference(a, b, path="root"):
    if a[:3] != b[:3]:
        return f"{path}: tinygrad {a[0]} {a[1]} {a[2][:80]} | ours {b[0]} {b[1]} {b[2][:80]}"
    if len(a[3]) != len(b[3]):
        return f"{path} ({a[0]}): tinygrad has {len(a[3])} sources, ours {len(b[3])}"
    for k, (x, y) in enumerate(zip(a[3], b[3])):
        if x != y:
            return first_difference(x, y, f"{path}.src[{k}]({x[0]})")
    return None


def ours(ast_json):
    imp = subprocess.run([f"{BIN}/tinygrad-translate", "--import-tinygrad-json", "-"], input=ast_json,
                         capture_output=True, text=True)
    if imp.returncode:
        return None, imp.stderr
    opt = subprocess.run([f"{BIN}/tinygrad-opt", "--tg-resolve-unshards", "--tg-early-movement-ops"],
                         input=imp.stdout, capture_output=True, text=True)
    if opt.returncode:
        return None, opt.stderr
    exp = subprocess.run([f"{BIN}/tinygrad-translate", "--export-tinygrad-json"], input=opt.stdout,
                         capture_output=True, text=True)
    return (json.loads(exp.stdout), "") if not exp.returncode else (None, exp.stderr)


same = bad = 0
for name, build in KERNELS.items():
    ast = build()
    try:
        ref, ref_err = graph_rewrite(graph_rewrite(ast, multi_pm), pm_mops, bottom_up=True), None
    except RuntimeError as e:
        ref, ref_err = None, str(e)
    got, err = ours(json.dumps(uop_to_json(ast)))
    if ref is None:
        # both reject it; tinygrad's index_multi message is ours word for word up to the index's rendering
        ok = got is None and ("cannot shard index" in err) == ("cannot shard index" in ref_err)
        print(f"{'BOTH-REJECT' if ok else 'DIFFER'} {name}: tinygrad: {ref_err.splitlines()[0][:70]}"
              f" | ours: {(err or 'accepted').strip().splitlines()[-1][:160] if err else 'accepted'}")
        same, bad = same + ok, bad + (not ok)
        continue
    if got is None:
        # tinygrad's multi_pm built something its own codegen then fails on (an ALLREDUCE inside a
        # kernel for a resharding ALU): our early, named rejection is the same answer
        try:
            full_rewrite_to_sink(ast, Device["CPU"].renderer)
            later = None
        except Exception as e:  # noqa: BLE001 (whatever tinygrad raises)
            later = f"{type(e).__name__}: {str(e).splitlines()[0][:60]}"
        msg = err.strip().splitlines()[-1][:160]
        print(f"BOTH-REJECT {name}: tinygrad's codegen fails later ({later}) | ours: {msg}" if later else
              f"DIFFER {name}: ours rejected it: {msg}")
        same, bad = same + bool(later), bad + (not later)
        continue
    a, b = canon(uop_to_json(ref)), canon(got)
    if a == b:
        print(f"SAME {name}")
        same += 1
    else:
        print(f"DIFFER {name}: {first_difference(a, b)}")
        bad += 1
print(f"steps vs tinygrad: {same} same, {bad} differ")
