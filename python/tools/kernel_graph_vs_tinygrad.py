"""Our --tg-kernel-graph against tinygrad's get_kernel_graph on programs beyond the corpus.

Builds each program below with the real tinygrad (run from a tinygrad checkout:
`cd <tinygrad> && PYTHONPATH=. python3 <repo>/python/tools/kernel_graph_vs_tinygrad.py [names]`),
callifies it (transform_to_call), runs tinygrad's get_kernel_graph on the body and ours
on the exported call, and compares every kernel AST node for node. Prints DIFF/FAIL
lines and "N/M identical". Programs tinygrad itself cannot build are skipped.
"""
import json, sys, subprocess, os, tempfile
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DEV","CPU")
from tinygrad import Tensor, dtypes, Variable
from tinygrad.tensor import transform_to_call
from tinygrad.uop.ops import UOp, Ops
from tinygrad.schedule.rangeify import get_kernel_graph
sys.path.insert(0, os.path.join(ROOT, 'python'))
sys.path.insert(0, os.path.join(ROOT, 'test', 'Schedule', 'Inputs'))
from tinygrad_mlir.uop_json import uop_to_json
from check_kernel_graph import canon, subgraph, first_difference
B = os.environ.get('TINYGRAD_MLIR_BIN', os.path.join(ROOT, 'build', 'bin'))
Tensor.manual_seed(0)
TMP = os.path.join(tempfile.mkdtemp(), 'call.json')
def R(*s, dt=dtypes.float): 
  t = Tensor.randn(*s).realize() if dt == dtypes.float else (Tensor.randn(*s)*10).cast(dt).realize()
  return t
progs = {
 "sum_large": lambda: R(256, 256).sum(),
 "sum_axis_large": lambda: R(64, 1024).sum(1),
 "assign_add": lambda: (lambda a: a.assign(a + 1))(R(4, 4)),
 "assign_permute": lambda: (lambda a: a.assign(a.T + 1))(R(4, 4)),
 "two_outputs": None,
 "cat3": lambda: Tensor.cat(R(2,3), R(4,3), R(1,3)),
 "pad_sum": lambda: R(5,5).pad(((1,1),(2,0))).sum(0),
 "where_cmp": lambda: (R(8,8) > 0).where(R(8,8), R(8,1)),
 "mean_var": lambda: R(6,10).var(1),
 "maxpool": lambda: R(1,1,8,8).max_pool2d(),
 "avgpool": lambda: R(1,2,8,8).avg_pool2d(),
 "conv_pad": lambda: R(1,2,6,6).conv2d(R(3,2,3,3), padding=1),
 "matmul_relu_bias": lambda: (R(8,16) @ R(16,4) + R(4)).relu(),
 "int_sum": lambda: R(7,9, dt=dtypes.int32).sum(0),
 "logsoftmax": lambda: R(4,10).log_softmax(1),
 "cumsum2d": lambda: R(4,6).cumsum(1),
 "argmin": lambda: R(5,7).argmin(0),
 "onehot": lambda: Tensor([1,0,3,2]).one_hot(4),
 "triu": lambda: R(5,5).triu(),
 "repeat_interleave": lambda: R(3,2).repeat_interleave(2, 0),
 "bitcast_u32": lambda: R(8).bitcast(dtypes.uint32),
 "gather2": lambda: R(4,5).gather(1, Tensor([[0,1],[1,2],[2,3],[3,4]])),
 "expand_sum": lambda: R(1,5).expand(6,5).sum(0),
 "flip_permute_reduce": lambda: R(3,4,5).flip(1).permute(2,0,1).max(2),
 "half_matmul": lambda: (R(8,8).half() @ R(8,8).half()),
 "softmax_keep": lambda: R(3,4,5).softmax(1),
 "layernorm_affine": lambda: R(4,8).layernorm() * R(8) + R(8),
 "std": lambda: R(10).std(),
 "stack": lambda: Tensor.stack(R(3), R(3), R(3)),
 "shrink_reduce_bcast": lambda: (lambda a: a[1:3] - a[1:3].mean(0))(R(5,4)),
 "multi_out": lambda: [R(4,4).sum(0), R(3).exp()],
 "shared_sub": lambda: (lambda a: [a.sum(0), a.max(1)])(R(4,5).exp()),
 "assign_reduce": lambda: (lambda a: a.assign(a - a.mean()))(R(4,4)),
 "assign_slice": lambda: (lambda a: a[1:3].assign(R(2,4)))(R(4,4)),
 "attention": lambda: (R(2,4,8) @ R(2,8,4)).softmax(-1) @ R(2,4,8),
 "conv_stride": lambda: R(1,3,9,9).conv2d(R(4,3,3,3), stride=2),
 "conv_dilate": lambda: R(1,2,9,9).conv2d(R(2,2,3,3), dilation=2),
 "sum_huge_axis": lambda: R(4, 65536).sum(1),
 "max_huge": lambda: R(100000).max(),
 "int8_mul": lambda: R(16, dt=dtypes.int8) * 3,
 "bool_any": lambda: (R(5,6) > 1).any(1),
 "clamp_round": lambda: R(10).clip(-0.5, 0.5).round(),
 "interpolate": lambda: R(1,1,4,4).interpolate((8,8)),
 "pad_reflect": lambda: R(1,1,5,5).pad((1,1,1,1), mode="reflect"),
 "roll": lambda: R(6,6).roll(2, 1),
 "sort": lambda: R(8).sort()[0],
 "topk": lambda: R(16).topk(3)[0],
 "matmul_big": lambda: R(128,128) @ R(128,128),
 "batchnorm": lambda: R(4,3,5,5).batchnorm(None, None, R(3), R(3).abs()+1),
 "einsum": lambda: Tensor.einsum("ij,jk->ik", R(3,4), R(4,5)),
 "rand_normal": lambda: Tensor.randn(4,4),
 "arange_sym": lambda: Tensor.arange(10).reshape(2,5).sum(1),
 "eye_mul": lambda: Tensor.eye(4) * R(4,4),
 "scatter": lambda: R(4,4).scatter(1, Tensor([[0],[1],[2],[3]]), 1.0),
 "var_bind_mul": lambda: R(8) * Variable('v', 1, 10).bind(4),
 "sym_shape": lambda: (lambda v: R(10)[:v] * 2)(Variable('n', 1, 10).bind(5)),
 "sym_shape_sum": lambda: (lambda v: R(10, 4)[:v].sum(0))(Variable('n', 1, 10).bind(5)),
 "sym_2d": lambda: (lambda v: R(8, 6)[:, :v].exp())(Variable('m', 1, 6).bind(3)),
 "sym_bcast": lambda: (lambda v: R(10, 4)[:v] + R(4))(Variable('n', 1, 10).bind(7)),
 "sym_max": lambda: (lambda v: R(10, 4)[:v].max(1))(Variable('n', 1, 10).bind(7)),
 "sym_offset": lambda: (lambda v: R(12)[v:v+2] * 3)(Variable('o', 0, 10).bind(4)),
 "sym_reshape": lambda: (lambda v: R(10, 4)[:v].reshape(-1) * 2)(Variable('n', 1, 10).bind(7)),
 "sym_two_vars": lambda: (lambda v, w: R(10, 8)[:v, :w].sum())(Variable('n', 1, 10).bind(7), Variable('m', 1, 8).bind(2)),
 "bitcast_f32_f16": lambda: R(8).bitcast(dtypes.half),
 "bitcast_f16_f32": lambda: R(8).half().bitcast(dtypes.float),
 "size0": lambda: R(0, 4) + 1,
 "size0_sum": lambda: R(0, 4).sum(1),
 "many_inputs": lambda: sum([R(4) for _ in range(40)][1:], R(4)),
 "copy_py": lambda: Tensor([1.0, 2.0, 3.0]) * 2,
 "contig_twice": lambda: R(4,4).contiguous().contiguous().T.contiguous(),
 "detach": lambda: R(4).detach() + 1,
 "bitcast_u8_u32": lambda: R(4, 8, dt=dtypes.uint8).bitcast(dtypes.uint32),
 "bitcast_i16_i64": lambda: (R(3, 4, dt=dtypes.int16) + 1).bitcast(dtypes.int64),
 "bitcast_f16_f32_sum": lambda: R(2, 6).half().bitcast(dtypes.float).sum(),
}
only = set(sys.argv[1:])
ok = 0; tot = 0
for name, f in progs.items():
  if f is None or (only and name not in only): continue
  tot += 1
  try:
    t = f()
    ts = t if isinstance(t, list) else [t]
    call, _ = transform_to_call(UOp.sink(*[x.uop for x in ts]))
    kg = get_kernel_graph(call.src[0])
  except Exception as e:
    print(f"SKIP {name}: tinygrad {type(e).__name__}: {e}"[:200]); tot -= 1; continue
  ref = [u.src[0] for u in kg.toposort() if u.op is Ops.CALL]
  json.dump(uop_to_json(call), open(TMP,'w'))
  imp = subprocess.run([f'{B}/tinygrad-translate','--import-tinygrad-json',TMP], capture_output=True, text=True)
  opt = subprocess.run([f'{B}/tinygrad-opt','--tg-kernel-graph'], input=imp.stdout, capture_output=True, text=True)
  if imp.returncode or opt.returncode:
    print(f"FAIL {name}: {(imp.stderr+opt.stderr).strip().splitlines()[-1][:300]}"); continue
  exp = subprocess.run([f'{B}/tinygrad-translate','--export-tinygrad-json'], input=opt.stdout, capture_output=True, text=True)
  g = json.loads(exp.stdout)
  calls = [i for i,n in enumerate(g['nodes']) if n['op']=='CALL']
  diffs = []
  if len(calls) != len(ref): diffs.append(f"{len(calls)} kernels vs {len(ref)}")
  for k,(ci, r) in enumerate(zip(calls, ref)):
    rj = uop_to_json(r); ours = subgraph(g, g['nodes'][ci]['src'][0])
    if canon(ours)[ours['root']] != canon(rj)[rj['root']]: diffs.append(f"k{k}: {first_difference(ours, rj)}"[:300])
  if diffs: print(f"DIFF {name}: " + "; ".join(diffs))
  else: ok += 1
print(f"{ok}/{tot} identical")
