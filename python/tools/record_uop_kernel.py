"""Record a kernel written by hand in UOps as a kernel case (the corpus `kernels/` format tinygrad-run reads).

record_kernel.py records kernels tinygrad's scheduler makes from tensor programs; the kernels here are
the ones users write themselves (Tensor.custom_kernel, UOp programs): views of buffers indexed in
several dims, AFTER chains that read back what the kernel stored, REG and LOCAL buffers, barriers,
buffer views as another dtype, the atomic scatter-add of nn's embedding backward, multi-device
kernels whose DEVICE range is the `_device_num` variable, and test_wait_loop's do-while loops. Each AST is built the way tinygrad's own
tests build it, compiled and run by tinygrad's CPU device (DEV=CPU: tinygrad's codegen), and recorded
with every buffer's values before the launch (`inputs`) and after it (`outputs`: every buffer, so a
write through an atomic or a view is checked, and so is every buffer the kernel must leave alone).

usage: cd <tinygrad> && DEV=CPU PYTHONPATH=<repo>/python:. python3 record_uop_kernel.py NAME > NAME.json
Kernels are defined in CASES below.
"""
import json
import math
import sys

import numpy as np
from tinygrad import Device, UOp, dtypes
from tinygrad.device import Buffer
from tinygrad.dtype import AddrSpace, _to_np_dtype
from tinygrad.codegen import to_program
from tinygrad.engine.realize import get_runtime
from tinygrad.uop.ops import AxisType, KernelInfo, Ops
from tinygrad_mlir.uop_json import dtype_name, uop_to_json


def P(shape, slot, dt=dtypes.float):
    return UOp.placeholder(shape, dt, slot)


def arange(n, dt=np.float32, scale=1.0, offset=0.0):
    return (np.arange(n) * scale + offset).astype(dt)


# ---------------------------------------------------------------- kernels (tinygrad's tests, smaller)

def uop_matmul():
    # test_uops.py TestUOpPrograms.test_matmul: C = A @ B through views of the buffers, C read AFTER
    # its own stores along a REDUCE-typed range closed by an END (no REDUCE op)
    M = N = K = 6
    A, B, C = P((M, K), 0), P((K, N), 1), P((M, N), 2)
    i, j, k = UOp.range(M, 0), UOp.range(N, 1), UOp.range(K, 2, axis_type=AxisType.REDUCE)
    C = C[i, j].set(0.0)
    C = C[i, j].set(C.after(k)[i, j] + A[i, k] * B[k, j])
    ast = C.end(i, j, k).sink(arg=KernelInfo(opts_to_apply=()))
    rng = np.random.default_rng(1)
    return ast, "C[i,j] accumulated in memory over a REDUCE range: views, AFTER reads, END of an AFTER", \
        {0: rng.integers(-4, 5, M * K).astype(np.float32), 1: rng.integers(-4, 5, K * N).astype(np.float32),
         2: np.full(M * N, 7, np.float32)}, {}


def uop_fill():
    # test_uops.py TestUOpPrograms.test_simple: ptr[i, j].set(42).end(i, j), opts left to the heuristic
    ptr = P((10, 12), 0, dtypes.int)
    i, j = UOp.range(10, 0), UOp.range(12, 1)
    ast = ptr[i, j].set(42).end(i, j).sink(arg=KernelInfo())
    return ast, "an END of a view's AFTER (the kernel's only effect), opts chosen by the heuristic", \
        {0: np.arange(120, dtype=np.int32)}, {}


def custom_eye():
    # test_custom_kernel.py custom_eye_kernel: C[i, j] = (i == j), a 2-D INDEX of a view, heuristic opts
    C = P((24, 24), 0)
    i, j = UOp.range(24, 0), UOp.range(24, 1)
    ast = C[i, j].store((i.eq(j)).cast(C.dtype)).end(i, j).sink(arg=KernelInfo(name="custom_eye_576"))
    return ast, "eye through a 2-D INDEX of the buffer's view, opts chosen by the heuristic", \
        {0: np.full(576, 5, np.float32)}, {}


def custom_sum():
    # test_custom_kernel.py custom_sum: B[0] = 0; B[0] += A[i]; the SINK's source is B.after(...)
    A, B = P((5,), 1), P((1,), 0)
    i = UOp.range(5, 0, axis_type=AxisType.REDUCE)
    B = B[0].set(0.0)
    B = B[0].set(B.after(i)[0] + A[i], end=i)
    ast = B.sink(arg=KernelInfo(name="custom_sum_5", opts_to_apply=()))
    return ast, "a sum accumulated in the output buffer; the kernel's SINK holds the PARAM's AFTER", \
        {0: np.array([9], np.float32), 1: arange(5, scale=1.5, offset=1)}, {}


def slice_sum():
    # test_custom_kernel.py slice_sum_kernel: a REG accumulator, a partial INDEX of a view
    dest, src = P((16,), 0), P((16, 16), 1)
    G = UOp.range(16, 0, dtype=dtypes.int)
    slice_src = src[G, :]
    reg = UOp.placeholder((1,), dest.dtype, 0, addrspace=AddrSpace.REG)
    reg = reg.after(G)[0].set(0)
    R = UOp.range(16, 1, AxisType.REDUCE)
    reg = reg[0].set(reg.after(R)[0] + slice_src[R], end=R)
    ast = dest[G].set(reg[0], end=G).sink(arg=KernelInfo(name="slice_sum_16_16", opts_to_apply=()))
    return ast, "row sums through a REG accumulator; src[G, :][R] is an INDEX of an INDEX of a view", \
        {0: np.zeros(16, np.float32), 1: arange(256, scale=0.25, offset=-20)}, {}


def simple_qkv():
    # test_custom_kernel.py simple_qkv_kernel: two REG accumulators, one inside the other's loop
    N, d = 8, 4
    O, Q, K, V = P((N, d), 0), P((N, d), 1), P((N, d), 2), P((N, d), 3)
    i, d_out, j, k_inner = UOp.range(N, 0), UOp.range(d, 1), UOp.range(N, 2, axis_type=AxisType.REDUCE), \
        UOp.range(d, 3, axis_type=AxisType.REDUCE)
    qk_acc = UOp.placeholder((1,), Q.dtype, 0, addrspace=AddrSpace.REG)
    qk_acc = qk_acc.after(i, j)[0].set(0.0)
    qk_acc = qk_acc[0].set(qk_acc.after(k_inner)[0] + Q[i, k_inner] * K[j, k_inner], end=k_inner)
    qk_score = qk_acc[0] / (d ** 0.5)
    out_acc = UOp.placeholder((1,), Q.dtype, 1, addrspace=AddrSpace.REG)
    out_acc = out_acc.after(i, d_out)[0].set(0.0)
    out_acc = out_acc[0].set(out_acc.after(j)[0] + qk_score * V[j, d_out], end=j)
    ast = O[i, d_out].store(out_acc[0]).end(d_out).end(i).sink(arg=KernelInfo(name="simple_qkv_8_4", opts_to_apply=()))
    rng = np.random.default_rng(2)
    vals = {s: rng.integers(-3, 4, N * d).astype(np.float32) for s in (1, 2, 3)}
    return ast, "attention without softmax: REG accumulators over nested REDUCE ranges", \
        {0: np.zeros(N * d, np.float32), **vals}, {}


def local_store_barrier():
    # test_uops.py TestLocalAccess.test_local_basic: store to LOCAL memory, BARRIER, load AFTER it
    out = UOp.param(0, dtypes.float32, shape=(1,))
    smem = UOp.placeholder((16,), dtypes.float32, slot=0, addrspace=AddrSpace.LOCAL)
    zero = UOp.const(0).cast(dtypes.int32)
    st = smem.index(zero).store(UOp.const(42.0).cast(dtypes.float32))
    barr = UOp(Ops.BARRIER, dtypes.void, (st,))
    sres = smem.after(barr).index(zero).load()
    ast = UOp.sink(out.index(zero).store(sres), arg=KernelInfo())
    return ast, "a value stored to LOCAL memory, a BARRIER on the store, read AFTER the barrier", \
        {0: np.zeros(1, np.float32)}, {}


def local_stage():
    # a value STAGEd over one of the kernel's ranges into LOCAL memory (what rangeify leaves in a kernel when
    # a realize covers only some of its ranges): "add local buffers" makes it a buffer filled under i, read at j
    from tinygrad.schedule.indexing import BufferizeOpts
    out, x = P((16,), 0), P((16,), 1)
    o, i, j = UOp.range(4, 0), UOp.range(4, 1), UOp.range(4, 2)
    st = UOp(Ops.STAGE, src=(x[o * 4 + i] * 2.0, i), arg=BufferizeOpts(device=None, addrspace=AddrSpace.LOCAL))
    ast = out[o * 4 + j].store(st.index(3 - j) + 1.0).end(o, j).sink(arg=KernelInfo(opts_to_apply=()))
    return ast, "a LOCAL STAGE over range i read at 3-j: a stack buffer filled in its own loop", \
        {0: np.zeros(16, np.float32), 1: arange(16, offset=-3.0)}, {}


def bitcast_view_load():
    # test_uops.py TestBitcastBufferView.test_load: (uint64*)(src+1)[0]
    src, out = UOp.param(0, dtypes.uint32, (4,)), UOp.param(1, dtypes.uint64, (1,))
    ast = UOp.sink(out.index(0).store(src.shrink(((1, 3),)).bitcast(dtypes.uint64).index(0)), arg=KernelInfo())
    return ast, "a load through a view of a buffer's bytes: uint32 buffer, from element 1, read as uint64", \
        {0: np.array([0, 0x55667788, 0x11223344, 0], np.uint32), 1: np.zeros(1, np.uint64)}, {}


def bitcast_view_store():
    # test_uops.py TestBitcastBufferView.test_store: two stores through one uint64 view at element 1
    val = 0x1122334455667788
    dst = UOp.param(0, dtypes.uint32, (6,))
    view = dst.shrink(((1, 5),)).bitcast(dtypes.uint64)
    ast = UOp.sink(view.index(0).store(val ^ 0xff), view.index(1).store(val), arg=KernelInfo())
    return ast, "two stores through a view of a uint32 buffer's bytes as uint64, from element 1", \
        {0: np.array([1, 2, 3, 4, 5, 6], np.uint32)}, {}


def embedding_bwd_atomic():
    # nn/__init__.py _embedding_bwd_kernel on CPU: grad_weight[idx[i], j] += grad[i, j] with
    # `__atomic_fetch_add({0}, {1}, __ATOMIC_RELAXED);` (repeated tokens add up; integer-valued floats so
    # the order of the adds cannot change the sums)
    V, E, T = 6, 8, 10
    grad_weight, grad_emb, idx = P((V, E), 0), P((T, E), 1), P((T,), 2, dtypes.int32)
    i, j = UOp.range(T, 0), UOp.range(E, 1)
    tok = idx[i].clip(0, V - 1).cast(dtypes.weakint)
    atomic = UOp(Ops.CUSTOM, src=(grad_weight.index(tok, j), grad_emb[i, j].load().cast(dtypes.float)),
                 arg="__atomic_fetch_add({0}, {1}, __ATOMIC_RELAXED);")
    ast = atomic.end(i, j).sink(arg=KernelInfo(name="embedding_bwd", opts_to_apply=()))
    return ast, "the atomic scatter-add of the embedding backward: repeated tokens accumulate", \
        {0: arange(V * E, scale=0.0, offset=1.0), 1: arange(T * E, offset=-30.0),
         2: np.array([3, 0, 3, 5, 9, 3, 1, 0, -2, 5], np.int32)}, {}


def device_range_shard():
    # a kernel of a program sharded over 2 devices (test_multitensor's test_shard_beam): device d keeps
    # rows [8d, 8d+8) of the 16 and pads the rest, its DEVICE range the `_device_num` of the launch
    out, src = P((16,), 0), P((8,), 1)
    r, d = UOp.range(16, 1), UOp.range(2, 0, AxisType.DEVICE)
    ok = (r >= d * 8) & (r < d * 8 + 8)
    ast = out[r].store(ok.where(src.index((r - d * 8).valid(ok)), 0.0)).end(r).sink(arg=KernelInfo())
    return ast, "a DEVICE range is the _device_num variable (here device 1 of 2)", \
        {0: np.zeros(16, np.float32), 1: arange(8, offset=1.0)}, {"_device_num": 1}


def _wait_loop_case(kernel, description):
    # test_wait_loop.py's kernels as tinygrad builds them: bound-less loops (UOp.loop) closed by a
    # do-while END(body, loop, cond), counting in a REG register; the output starts at 7 (overwritten)
    from test.backend.test_wait_loop import wait_loop_kernel, nested_loop_kernel, two_loops_kernel, loop_in_loop_kernel
    fxn = {"wait_loop": wait_loop_kernel, "nested_loop": nested_loop_kernel, "two_loops": two_loops_kernel,
           "loop_in_loop": loop_in_loop_kernel}[kernel]
    return fxn(P((1,), 0, dtypes.int)), description, {0: np.array([7], np.int32)}, {}


def wait_loop(): return _wait_loop_case("wait_loop", "a do-while counting a REG register to 10")
def nested_loop(): return _wait_loop_case("nested_loop", "a do-while inside a RANGE, its condition reading the range")
def two_loops(): return _wait_loop_case("two_loops", "two do-whiles in sequence on one REG register (10, then 25)")
def loop_in_loop(): return _wait_loop_case("loop_in_loop", "a do-while in a do-while whose condition reloads the register")


CASES = {f.__name__: f for f in (uop_matmul, uop_fill, custom_eye, custom_sum, slice_sum, simple_qkv, local_store_barrier, local_stage,
                                   bitcast_view_load, bitcast_view_store, embedding_bwd_atomic, device_range_shard,
                                   wait_loop, nested_loop, two_loops, loop_in_loop)}


def main():
    name = sys.argv[1]
    ast, description, inputs, var_vals = CASES[name]()
    ren = Device["CPU"].renderer
    prg = to_program(ast, ren)
    info = prg.arg
    params = sorted((u for u in ast.toposort() if u.op is Ops.PARAM and u.arg.addrspace is not AddrSpace.ALU),
                    key=lambda u: u.arg.slot)
    bufs = {}
    for p in params:
        vals = inputs[p.arg.slot].astype(_to_np_dtype(p.dtype))
        assert vals.size == p.src[0].arg, f"{name}: slot {p.arg.slot} needs {p.src[0].arg} values"
        bufs[p.arg.slot] = Buffer("CPU", vals.size, p.dtype, initial_value=vals.tobytes()).ensure_allocated()
    rt = get_runtime("CPU", prg)
    global_size, local_size = info.launch_dims(var_vals)
    rt(*[bufs[s]._buf for s in info.globals], global_size=global_size, local_size=local_size, vals=info.vals(var_vals))

    def values(slot):
        b = bufs[slot]
        arr = np.frombuffer(b.as_memoryview(), _to_np_dtype(b.dtype))
        enc = (lambda v: v if math.isfinite(v) else str(v)) if dtypes.is_float(b.dtype) else int
        return [enc(v.item()) for v in arr]

    rec = {"id": name, "description": description, "ast": uop_to_json(ast),
           "params": [{"slot": p.arg.slot, "dtype": dtype_name(p.dtype), "size": p.src[0].arg,
                       "shape": [p.src[0].arg], "addrspace": "GLOBAL"} for p in params],
           "vars": [{"name": k, "value": v} for k, v in var_vals.items()], "var_vals": var_vals,
           "inputs": {str(s): [v.item() for v in inputs[s]] for s in sorted(inputs)},
           "outputs": {str(s): values(s) for s in sorted(bufs)},
           "program_info": {"globals": list(info.globals), "outs": list(info.outs), "ins": list(info.ins)}}
    print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
