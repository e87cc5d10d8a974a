# Regenerates the generated part of ../fold.mlir (everything before the
# "Identity folds" section) from tinygrad itself:
#   python3 gen_fold.py  (needs tinygrad at /work/tinygrad-src)
import math, sys
sys.path.insert(0, '/work/tinygrad-src')
from tinygrad.uop.ops import UOp, Ops, exec_alu
from tinygrad.dtype import dtypes, truncate, bitcast, Invalid, ConstFloat

MLIR = {dtypes.bool:'i1', dtypes.int8:'si8', dtypes.uint8:'ui8', dtypes.int16:'si16', dtypes.uint16:'ui16',
        dtypes.int32:'si32', dtypes.uint32:'ui32', dtypes.int64:'si64', dtypes.uint64:'ui64',
        dtypes.half:'f16', dtypes.bfloat16:'bf16', dtypes.float:'f32', dtypes.double:'f64',
        dtypes.weakint:'!tg.weakint', dtypes.weakfloat:'!tg.weakfloat',
        dtypes.fp8e4m3:'f8E4M3FN', dtypes.fp8e5m2:'f8E5M2'}
D = {v:k for k,v in MLIR.items()}

def fmt(v):
  if v is Invalid: return 'invalid'
  if isinstance(v, bool): return 'true' if v else 'false'
  if isinstance(v, int): return str(v)
  v = float(v)
  if math.isnan(v): return 'nan'
  if math.isinf(v): return 'inf' if v > 0 else '-inf'
  s = repr(v)
  if '.' not in s:
    i = s.find('e'); s = s[:i] + '.0' + s[i:] if i >= 0 else s + '.0'
  return s

def src_fmt(v, dt):
  # how the operand is written in the test
  return fmt(v)

MLIROP = {Ops.EXP2:'exp2', Ops.LOG2:'log2', Ops.SIN:'sin', Ops.SQRT:'sqrt', Ops.RECIPROCAL:'reciprocal', Ops.NEG:'neg',
  Ops.TRUNC:'trunc', Ops.ADD:'add', Ops.MUL:'mul', Ops.SHL:'shl', Ops.SHR:'shr', Ops.CDIV:'cdiv', Ops.MAX:'max',
  Ops.CMOD:'cmod', Ops.CMPLT:'cmplt', Ops.CMPNE:'cmpne', Ops.CMPEQ:'cmpeq', Ops.XOR:'xor', Ops.OR:'or', Ops.AND:'and',
  Ops.SUB:'sub', Ops.POW:'pow', Ops.FLOORDIV:'floordiv', Ops.FLOORMOD:'floormod', Ops.WHERE:'where', Ops.MULACC:'mulacc',
  Ops.THREEFRY:'threefry', Ops.FDIV:'fdiv'}

out = []
names = set()
def emit(name, comment, ops_lines, args, rdt, expected):
  assert name not in names, name; names.add(name)
  out.append('')
  if comment: out.append(f'// {comment}')
  out.append(f'// CHECK-LABEL: func.func @{name}(')
  if expected is None:
    out.append(f'//       CHECK: tg.')
  else:
    out.append(f'//  CHECK-NEXT: %[[R:.*]] = tg.const {expected} : {rdt}')
    out.append(f'//  CHECK-NEXT: return %[[R]] : {rdt}')
  out.append(f'func.func @{name}() -> {rdt} {{')
  out.extend('  ' + l for l in ops_lines)
  out.append(f'  return %r : {rdt}')
  out.append('}')

def result_dtype(op, dts):
  if op in (Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ): return dtypes.bool
  if op in (Ops.EXP2, Ops.LOG2, Ops.SIN, Ops.SQRT, Ops.RECIPROCAL):
    return dtypes.bool if dts[0] is dtypes.bool and False else (dtypes.weakfloat if dts[0] is dtypes.weakint else dts[0])
  if op in (Ops.SHL, Ops.SHR, Ops.NEG, Ops.TRUNC): return dts[0]
  if op is Ops.WHERE: dts = dts[1:]
  from tinygrad.dtype import least_upper_dtype
  return dts[0] if all(d == dts[0] for d in dts) else least_upper_dtype(*dts)

def alu(name, op, operands, comment=None, rdt=None):
  """operands: list of (value, mlir dtype string)"""
  dts = [D[t] for _,t in operands]
  vals = [Invalid if v is Invalid else D[t].const(v) for v,t in operands]
  rd = rdt or result_dtype(op, [dtypes.bool if v is Invalid else d for v,d in zip(vals, dts)])
  lines = []
  for i,((v,t),cv) in enumerate(zip(operands, vals)):
    lines.append(f'%a{i} = tg.const {fmt(cv)} : {t}')
  lines.append(f'%r = tg.{MLIROP[op]} ' + ', '.join(f'%a{i}' for i in range(len(operands))) + ' : ' + ', '.join(t for _,t in operands))
  try:
    r = exec_alu(op, rd, vals)
    r = Invalid if r is Invalid else rd.const(r)
    exp = fmt(r)
  except Exception as e:
    exp = None
  if comment is None:
    comment = f'exec_alu(Ops.{op.name}, {rd!r}, {[v if v is Invalid else (float(v) if isinstance(v, float) else v) for v in vals]}) = {exp}'
  emit(name, comment, lines, None, MLIR[rd], exp)

def cast(name, v, st, dt, comment=None):
  sv = D[st].const(v)
  r = D[dt].const(sv)
  exp = fmt(r)
  lines = [f'%a0 = tg.const {fmt(sv)} : {st}', f'%r = tg.cast %a0 to {dt} : {st}']
  emit(name, comment or f'{D[dt]!r}.const({fmt(sv)}) = {exp}', lines, None, dt, exp)

def bcast(name, v, st, dt, comment=None):
  sv = D[st].const(v)
  r = D[dt].const(bitcast(truncate[D[st]](sv), D[st], D[dt]))
  exp = fmt(r)
  lines = [f'%a0 = tg.const {fmt(sv)} : {st}', f'%r = tg.bitcast %a0 to {dt} : {st}']
  emit(name, comment or f'fold_bitcast: bitcast({fmt(sv)}, {D[st]!r}, {D[dt]!r}) = {exp}', lines, None, dt, exp)

N = float('nan'); I = float('inf')
# --- integer division: C truncation vs Python floor ---
alu('cdiv_neg', Ops.CDIV, [(-7,'si32'),(2,'si32')])
alu('cdiv_neg_divisor', Ops.CDIV, [(7,'si32'),(-2,'si32')])
alu('cmod_neg', Ops.CMOD, [(-7,'si32'),(2,'si32')])
alu('cmod_neg_divisor', Ops.CMOD, [(7,'si32'),(-2,'si32')])
alu('floordiv_neg', Ops.FLOORDIV, [(-7,'si32'),(2,'si32')])
alu('floordiv_neg_divisor', Ops.FLOORDIV, [(7,'si32'),(-2,'si32')])
alu('floormod_neg', Ops.FLOORMOD, [(-7,'si32'),(2,'si32')])
alu('floormod_neg_divisor', Ops.FLOORMOD, [(7,'si32'),(-2,'si32')])
alu('cdiv_by_zero', Ops.CDIV, [(5,'si32'),(0,'si32')])
alu('cmod_by_zero', Ops.CMOD, [(5,'si32'),(0,'si32')])
alu('floordiv_by_zero', Ops.FLOORDIV, [(-5,'!tg.weakint'),(0,'!tg.weakint')])
alu('floormod_by_zero', Ops.FLOORMOD, [(-5,'si64'),(0,'si64')])
alu('cdiv_int_min', Ops.CDIV, [(-2147483648,'si32'),(-1,'si32')])
# --- wraparound ---
alu('add_ui8_wrap', Ops.ADD, [(250,'ui8'),(10,'ui8')])
alu('add_si32_overflow', Ops.ADD, [(2147483647,'si32'),(1,'si32')])
alu('sub_ui32_underflow', Ops.SUB, [(0,'ui32'),(1,'ui32')])
alu('mul_si64_overflow', Ops.MUL, [(4611686018427387904,'si64'),(4,'si64')])
alu('mul_ui64_wrap', Ops.MUL, [(18446744073709551615,'ui64'),(18446744073709551615,'ui64')])
alu('neg_si8_min', Ops.NEG, [(-128,'si8')])
alu('add_si16_weak', Ops.ADD, [(32767,'si16'),(1,'!tg.weakint')], rdt=dtypes.int16)
alu('add_weakint_no_wrap', Ops.ADD, [(9223372036854775807,'!tg.weakint'),(9223372036854775807,'!tg.weakint')])
alu('mulacc_ui8', Ops.MULACC, [(16,'ui8'),(16,'ui8'),(3,'ui8')])
# --- float rounding ---
alu('add_f16_round', Ops.ADD, [(0.1,'f16'),(0.2,'f16')])
alu('add_f16_overflow', Ops.ADD, [(65504.0,'f16'),(65504.0,'f16')])
alu('add_bf16_round', Ops.ADD, [(1.0,'bf16'),(0.001,'bf16')])
alu('add_f32_round', Ops.ADD, [(0.1,'f32'),(0.2,'f32')])
alu('add_weakfloat_exact', Ops.ADD, [(0.1,'!tg.weakfloat'),(0.2,'!tg.weakfloat')])
alu('mul_f32_weak', Ops.MUL, [(0.1,'f32'),(3,'!tg.weakint')], rdt=dtypes.float)
alu('sub_f64', Ops.SUB, [(1.0,'f64'),(1e-17,'f64')])
alu('mulacc_f16', Ops.MULACC, [(3.0,'f16'),(0.1,'f16'),(1.0,'f16')])
alu('max_f32', Ops.MAX, [(-1.5,'f32'),(2.25,'f32')])
alu('max_si32', Ops.MAX, [(-3,'si32'),(-7,'si32')])
alu('pow_f32', Ops.POW, [(2.0,'f32'),(10.0,'f32')])
alu('pow_zero_neg', Ops.POW, [(0.0,'f64'),(-1.0,'f64')])
alu('pow_neg_fraction', Ops.POW, [(-8.0,'f64'),(0.5,'f64')])
# --- transcendental edge cases ---
alu('log2_zero', Ops.LOG2, [(0.0,'f32')])
alu('log2_neg', Ops.LOG2, [(-1.0,'f32')])
alu('log2_eight', Ops.LOG2, [(8.0,'f64')])
alu('sqrt_neg', Ops.SQRT, [(-1.0,'f32')])
alu('sqrt_two_f16', Ops.SQRT, [(2.0,'f16')])
alu('reciprocal_negzero', Ops.RECIPROCAL, [(-0.0,'f32')])
alu('reciprocal_zero', Ops.RECIPROCAL, [(0.0,'f64')])
alu('reciprocal_three_f32', Ops.RECIPROCAL, [(3.0,'f32')])
alu('exp2_overflow_f32', Ops.EXP2, [(200.0,'f32')])
alu('exp2_overflow_f64', Ops.EXP2, [(1024.0,'f64')])
alu('exp2_neg', Ops.EXP2, [(-1.0,'bf16')])
alu('sin_inf', Ops.SIN, [(I,'f32')])
alu('sin_one', Ops.SIN, [(1.0,'f64')])
alu('trunc_neg', Ops.TRUNC, [(-2.5,'f32')])
alu('trunc_inf', Ops.TRUNC, [(-I,'f32')])
alu('neg_zero', Ops.NEG, [(0.0,'f32')])
alu('neg_nan', Ops.NEG, [(N,'f32')])
alu('sqrt_weakint', Ops.SQRT, [(16,'!tg.weakint')])
# --- shifts ---
alu('shl_ui8', Ops.SHL, [(1,'ui8'),(7,'ui8')])
alu('shl_ui8_out', Ops.SHL, [(1,'ui8'),(8,'ui8')])
alu('shl_si32_sign', Ops.SHL, [(1,'si32'),(31,'si32')])
alu('shr_si32_neg', Ops.SHR, [(-8,'si32'),(1,'si32')])
alu('shr_ui32_count', Ops.SHR, [(4294967295,'ui32'),(28,'ui32')])
alu('shl_si64_uint_count', Ops.SHL, [(3,'si64'),(62,'ui32')], rdt=dtypes.int64)
# --- bitwise ---
alu('xor_bool', Ops.XOR, [(True,'i1'),(True,'i1')])
alu('or_bool', Ops.OR, [(False,'i1'),(True,'i1')])
alu('and_si32', Ops.AND, [(-1,'si32'),(255,'si32')])
alu('xor_ui16', Ops.XOR, [(65535,'ui16'),(255,'ui16')])
alu('or_si8', Ops.OR, [(-128,'si8'),(1,'si8')])
# --- comparisons (nan, signed zero, weak) ---
alu('cmplt_nan', Ops.CMPLT, [(N,'f32'),(1.0,'f32')])
alu('cmplt_nan_rhs', Ops.CMPLT, [(1.0,'f32'),(N,'f32')])
alu('cmpne_nan_nan', Ops.CMPNE, [(N,'f32'),(N,'f32')])
alu('cmpeq_nan_nan', Ops.CMPEQ, [(N,'f64'),(N,'f64')])
alu('cmpne_nan_one', Ops.CMPNE, [(N,'f32'),(1.0,'f32')])
alu('cmpeq_signed_zero', Ops.CMPEQ, [(0.0,'f32'),(-0.0,'f32')])
alu('cmplt_si32', Ops.CMPLT, [(-3,'si32'),(2,'!tg.weakint')])
alu('cmplt_ui32', Ops.CMPLT, [(4294967295,'ui32'),(0,'ui32')])
alu('cmpne_bool', Ops.CMPNE, [(True,'i1'),(False,'i1')])
alu('cmpeq_inf', Ops.CMPEQ, [(I,'f16'),(I,'f16')])
alu('max_nan_first', Ops.MAX, [(N,'f32'),(1.0,'f32')])
alu('max_nan_second', Ops.MAX, [(1.0,'f32'),(N,'f32')])
# --- where ---
alu('where_true', Ops.WHERE, [(True,'i1'),(1.5,'f32'),(2.5,'f32')])
alu('where_false', Ops.WHERE, [(False,'i1'),(1,'si32'),(2,'si32')])
# --- Invalid propagation ---
alu('and_invalid', Ops.AND, [(Invalid,'i1'),(True,'i1')])
alu('cmplt_invalid', Ops.CMPLT, [(Invalid,'i1'),(1,'si32')], rdt=dtypes.bool)
alu('where_invalid', Ops.WHERE, [(True,'i1'),(Invalid,'i1'),(False,'i1')])
# --- threefry (evaluated as its uint32-wrapping decomposition) ---
from tinygrad.codegen.decomp.op import threefry2x32
def ev(root):
  vals={}
  for u in root.toposort():
    if u.op is Ops.CONST: vals[u]=u.arg
    elif u.op is Ops.CAST: vals[u]=truncate.get(u.dtype, lambda x:x)(u.dtype.const(vals[u.src[0]]))
    else: vals[u]=exec_alu(u.op, u.dtype, [vals[s] for s in u.src])
  return vals[root]
for nm,(x,k) in [('threefry', (4294967298, 305419896)), ('threefry_zero', (0, 0))]:
  r = ev(threefry2x32(UOp.const(x, dtypes.uint64), UOp.const(k, dtypes.uint64)))
  emit(nm, f'threefry2x32 decomposition evaluated with exec_alu = {r}',
       [f'%a0 = tg.const {x} : ui64', f'%a1 = tg.const {k} : ui64', '%r = tg.threefry %a0, %a1 : ui64, ui64'], None, 'ui64', str(r))
# --- casts: dtype.const(x) (no int wraparound), float rounding ---
cast('cast_f32_to_si32', 3.7, 'f32', 'si32')
cast('cast_neg_f32_to_si32', -3.7, 'f32', 'si32')
cast('cast_si32_to_ui8_no_wrap', 300, 'si32', 'ui8')
cast('cast_neg_to_ui32_no_wrap', -1, 'si32', 'ui32')
cast('cast_f64_to_f32', 0.1, 'f64', 'f32')
cast('cast_f32_to_f16_overflow', 1e10, 'f32', 'f16')
cast('cast_f32_to_bf16', 3.14159, 'f32', 'bf16')
cast('cast_si32_to_bool', 2, 'si32', 'i1')
cast('cast_zero_to_bool', 0.0, 'f32', 'i1')
cast('cast_bool_to_f32', True, 'i1', 'f32')
cast('cast_bool_to_si32', True, 'i1', 'si32')
cast('cast_nan_to_f16', N, 'f32', 'f16')
cast('cast_weakint_to_f16', 2049, '!tg.weakint', 'f16')
cast('cast_f32_to_fp8e4m3', 0.3, 'f32', 'f8E4M3FN')
cast('cast_f32_to_fp8e5m2', 0.3, 'f32', 'f8E5M2')
# --- bitcasts ---
bcast('bitcast_f32_to_ui32', 1.0, 'f32', 'ui32')
bcast('bitcast_si32_to_ui32', -1, 'si32', 'ui32')
bcast('bitcast_ui32_to_f32', 3212836864, 'ui32', 'f32')
bcast('bitcast_f16_to_si16', -2.0, 'f16', 'si16')
bcast('bitcast_si64_to_f64', 4614253070214989087, 'si64', 'f64')
bcast('bitcast_ui16_to_bf16', 16256, 'ui16', 'bf16')
print("\n".join(out))
