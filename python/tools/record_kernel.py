"""Record one tinygrad kernel as a kernel case (the corpus `kernels/` format, the fields tinygrad-run reads).

A program here has one input tensor, realized first, and one kernel; tinygrad compiles and runs it on its
own device, and the kernel AST entering codegen (full_rewrite_to_sink's argument) is captured with the
input values and the values tinygrad's kernel wrote, read from the buffers' memory (fp8 bits decoded
with tinygrad's fp8_to_float, so subnormal inputs are kept: reading them through a tinygrad kernel would
flush them).

usage: cd <tinygrad> && DEV=CPU CACHELEVEL=0 PYTHONPATH=<repo>/python:. python3 record_kernel.py NAME > NAME.json
(bfloat16 programs need a clang that knows __bf16: CC=clang-22; Debian's default clang 14 rejects it)
Programs are defined in PROGRAMS below.
"""
import json, math, struct, sys

import tinygrad.codegen as codegen
from tinygrad import Tensor, dtypes
from tinygrad.dtype import fp8_to_float
from tinygrad.uop.ops import Ops
from tinygrad_mlir.uop_json import uop_to_json, dtype_name

# normals, the largest finites, ties, values past saturation, tiny ones that flush, signed zeros, non-finites
F32_VALUES = [0.0, -0.0, 1.0, -1.5, 0.1, 3.14159, 0.0625, 0.01, 1e-3, 17.0, 19.0, 240.0, 448.0, 460.0, 1000.0,
              -1e9, 57344.0, 65000.0, 2.0**-7, 2.0**-15, math.inf, -math.inf, math.nan, 0.3]


def fp8e4m3_to_float():
    a = Tensor([fv for fv in F32_VALUES if not math.isinf(fv)], dtype=dtypes.fp8e4m3).realize()
    return a, "fp8e4m3 -> float32", a.cast(dtypes.float32)


def float_to_fp8e4m3():
    a = Tensor(F32_VALUES, dtype=dtypes.float32).realize()
    return a, "float32 -> fp8e4m3 (saturating, round to nearest even)", a.cast(dtypes.fp8e4m3)


def fp8e5m2_mul_add():
    a = Tensor(F32_VALUES, dtype=dtypes.fp8e5m2).realize()
    return a, "fp8e5m2 a*a+1 (computed at half, stored as fp8e5m2)", a * a + 1


# values as tinygrad's C computes them (test/Codegen/c-semantics.test)
def f64_exp():
  a = Tensor([10 + k * 1e-5 for k in range(-80, 81)], dtype=dtypes.float64).realize()
  return a, "float64 exp(x)-exp(10) near 10: the weak 1/ln2 literal commits at float64 (at float32: 1e-3 off)", \
    a.exp() - 22026.465794806718


def sin_near_k_pi():
  a = Tensor([k * math.pi / 4 + d for k in range(-40, 41) for d in (-1e-3, 0.0, 2e-3)], dtype=dtypes.float32).realize()
  return a, "float32 sin near k*pi/4: Cody-Waite terms summed in the C's (reordered) evaluation order", a.sin()


def half_named_rounding():
  a = Tensor([x / 7 for x in range(-60, 61)], dtype=dtypes.half).realize()
  y = a * 3.7 + 0.1
  return a, "half y used twice: the C names it in an __fp16 variable, which rounds", (y * y).cast(dtypes.float32)


def bf16_chain():
  a = Tensor([x / 9 for x in range(-60, 61)], dtype=dtypes.bfloat16).realize()
  return a, "bfloat16 chain: every op computes in float and rounds back", ((a * 1.37 + 0.3) * a - 0.7).cast(dtypes.float32)


def half_sum_roundtrip():
  a = Tensor([[x * 37.25 + y * 0.1 for y in range(8)] for x in range(8)], dtype=dtypes.half).realize()
  return a, "a half sum cast to float: the float->half->float pair is dropped (pm_simplify_add_image)", \
    a.sum(1).cast(dtypes.float32).max()


def half_times_reciprocal():
  a = Tensor([x / 5 for x in range(-60, 61)], dtype=dtypes.half).realize()
  r = (a * a + 1).reciprocal()
  return a, "half a*(1/b): tinygrad divides (a/b), the reciprocal's own use is named and rounds", \
    (a * r + r).cast(dtypes.float32)


def half_clip_cast():
  a = Tensor([x / 64 for x in range(-2000, 2001)], dtype=dtypes.half).realize()
  return a, "a clip to +-2^20 on half: the bounds commit to inf and fold, so nothing rounds before the cast", \
    (a * a + 1).sqrt().clip(-(1 << 20), 1 << 20).cast(dtypes.int64)


def uint8_promotion():
  a = Tensor([(x * 37) % 256 for x in range(200)], dtype=dtypes.uint8).realize()
  b = a.flip(0)
  return a, "uint8 (a+b)//2 + (a*b)>>8, max(a+a, 100): C computes inline chains in int, MAX's operands wrap", \
    ((a + b) // 2 + ((a * b) >> 8)).maximum((a + a).maximum(100))


def bf16_gelu():
  a = Tensor([x / 20 for x in range(-80, 81)], dtype=dtypes.bfloat16).realize()
  return a, "bfloat16 gelu: each op rounds back, so its x*x*x is no chain to evaluate in the C's order", \
    a.gelu().cast(dtypes.float32)


def narrow_int_sub_mod():
  a = Tensor([(x * 53) % 256 for x in range(240)], dtype=dtypes.uint8).realize()
  u = a.cast(dtypes.uint16)
  i = a.cast(dtypes.int8)
  return a, "uint16 (a-b)>>2 keeps C's borrow (x + y*-1 is SUB), int8 x % 7 is C's % where the bounds say x >= 0", \
    ((u - u.flip(0)) >> 2).cast(dtypes.int32) + (i * (i != 0).cast(dtypes.int8) % 7).cast(dtypes.int32)


def conv_border_signed_zero():
  a = Tensor([[-(1 + (x * 7 + y) % 5) / 4 for y in range(6)] for x in range(6)], dtype=dtypes.float32).realize()
  x = a.reshape(1, 1, 6, 6)
  w = a[:3, :3].maximum(0).reshape(1, 1, 3, 3)  # zeros at run time, not folded
  return a, "padded 3x3 conv of negatives with zero weights: tinygrad's symbolic drops the border lanes' x+0.0 " \
    "after expanding, so the sums of -0.0 products stay -0.0", x.conv2d(w, padding=1).reshape(36)


def _division_operands():
  # extremes, signs, small and large divisors; the reversed list is the divisor (no 0, no INT_MIN/-1)
  vals = [2**31 - 1, -2**31 + 1, 2**30 + 7, -(2**30) - 3, 1, -1, 2, -2, 3, -3, 7, -7, 46341, -46341, 65535,
          2**31 - 2, -(2**31) + 2, 1000003, -999983, 12345678, -87654321, 5, -5, 97]
  vals += [((i * 2654435761) % 2**32) - 2**31 for i in range(1, 41)]
  return [v if v != 0 else 11 for v in vals]


def log_max_lanes():
  Tensor.manual_seed(12)
  a = Tensor.randn(5, 15, 1, 16).realize()
  return a, "log(|x|+0.5).max(0): with outputs as lanes the SLP vectorizer split products from their sums, " \
    "unfusing FMAs clang forms (1-2 ulp on 24 of 240 values)", (a.abs() + 0.5).log().max(0)


def int32_var_division():
  a = Tensor(_division_operands(), dtype=dtypes.int32).realize()
  d = a.flip(0)
  return a, "int32 division by variable lanes (exact through an f64 quotient): trunc, floor, python mod, xor'd", \
    a.div(d, rounding_mode="trunc") ^ (a // d) ^ (a % d)


def uint32_var_division():
  a = Tensor([v % 2**32 for v in _division_operands()], dtype=dtypes.uint32).realize()
  d = a.flip(0)
  return a, "uint32 division by variable lanes up to 2^32-1, xor'd", (a // d) ^ (a % d)


def nested_sum_chain():
  Tensor.manual_seed(31)
  x = Tensor.randn(96, 96).realize()
  a, b, c = x[:48, :], x[:, :47], x[48:, :47]
  return x, "(a @ b + c).sum(): the outer reduce's `acc + inner + c` is C's ((acc + inner) + c), " \
    "not acc + (inner + c) (1.4e-5 off on a cancelling sum; random-kernels seed 31 #137)", (a @ b + c).sum()


def half_log_argmax():
  a = Tensor([0.4446, -2.502, -1.306, -1.283, 0.888, 0.768, -0.8286, 0.3276, -0.895, -0.7173, 1.412, -1.216],
             dtype=dtypes.half).realize()
  return a, "argmax of half logs: the C compares each lane's inline log*ln2 (float) with the named, so rounded, " \
    "max*ln2, which no lane equals (random-kernels seed 31 #275: index 10 where tinygrad says 12)", \
    a.log().argmax().cast(dtypes.half)


def half_lanes_read_per_upcast():
  a = Tensor([((7 * i) % 23 - 11) / 5 for i in range(32 * 64)], dtype=dtypes.half).reshape(32, 64).realize()
  return a, "half h = a*0.37 + 0.1, its reduce-unrolled lanes read by each upcast output lane: the C names h " \
    "(an __fp16 variable, rounded) before h*a.T's products (random-kernels --layers seed 2130 #68)", \
    ((a * 0.37 + 0.1) @ a.T).cast(dtypes.float32)


def uint8_lane_broadcast():
  a = Tensor([200, 100, 250, 7] + [9 * i for i in range(16)], dtype=dtypes.uint8).realize()
  return a, "uint8 a0+a1 read by each of 16 lanes: the C names it, so it wraps before (s + b_i) >> 1 " \
    "(we kept the carry: 150 where tinygrad's C says 22)", ((a[0] + a[1]) + a[4:]) >> 1


def int8_wrapped_shift_div():
  a = Tensor([0, 1, 127, 128, 200, 255, 256, 300, 1000, 40000, 65535, 65000, 243, 250, 129, 17],
             dtype=dtypes.uint16).realize()
  return a, "(int8)ushort // 16: tinygrad's bounds say >= 0, so its C shifts (floor) where a divide " \
    "truncates (random-kernels seed 32 #146)", (a.cast(dtypes.int8) // 16).cast(dtypes.int32)


# every integer dtype, in the order float_to_int_rule.py lays them out
INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
EDGE_FLOATS = [0.0, -0.0, 0.7, -0.7, 1.5, -1.5, 127.9, 128.0, -129.0, 255.9, 256.0, 300.0, -300.0, 65535.0, 70000.0,
               -70000.0, 2.0**31 - 128, 2.0**31, -2.0**31, -2.0**31 - 1024, 3e9, 2.0**32, 5e9, -1e10, 2.0**63, -2.0**63,
               1e19, 1.8e19, 2e19, -1e19, 1e30, math.inf, -math.inf, math.nan]


def _float_to_ints(dt):
  a = Tensor(EDGE_FLOATS, dtype=dt).realize()
  return a, f"{dt.name} cast to every integer dtype (then int64, concatenated): out of range C is undefined, " \
    "ours the rule of float_to_int_rule.py", Tensor.cat(*[a.cast(getattr(dtypes, n)).cast(dtypes.int64) for n in INT_DTYPES])


def float32_to_ints(): return _float_to_ints(dtypes.float32)
def float64_to_ints(): return _float_to_ints(dtypes.float64)


def int32_sin():
  a = Tensor(list(range(-19, 20)) + [2**31 - 1, -2**31, 40000, -123456789], dtype=dtypes.int32).realize()
  return a, "sin of int32: xsin's Payne-Hanek arm (discarded below 30) converts floats to uint64; an " \
    "out-of-range fptoui was poison in LLVM and we returned x itself", a.sin()


def max_nan_lanes():
  # NaN in some lanes of each row: tinygrad's unrolled MAX meets the lanes first, `(l0<l1)?l1:l0` ..., then
  # the accumulator, so a NaN lane 0 drops its whole group
  # a NaN first in each row, the row's largest value right after it (in the NaN's group)
  a = Tensor([[math.nan if j == 0 else 100.0 + i if j == 1 else ((i * 13 + j * 5) % 17) - 8.0 for j in range(64)]
              for i in range(8)], dtype=dtypes.float32).realize()
  return a, "max over rows holding NaNs: tinygrad's horizontal MAX of the unrolled lanes comes before the " \
    "accumulator (random-kernels --edges seed 101 #16: -1 where tinygrad says 1)", a.max(1)


def prod_pad_inf():
  a = Tensor([[math.inf, 2.0, -math.inf, 0.5, math.nan, 1.0, 3.0, -1.0, 2.0] for _ in range(4)],
             dtype=dtypes.float16).realize()
  b = Tensor([[1.0] * 8 for _ in range(4)], dtype=dtypes.float16).realize()
  return a, "prod over a padded axis holding inf/NaN: tinygrad's per-lane x*0 -> 0 makes the product 0 " \
    "(random-kernels --edges seed 101 #21: NaN where tinygrad says 0)", (a.pad(((0, 0), (2, 3))) * 1).prod(1)


def _near_one(n, m, seed):
  return [[1.0 + 0.003 * math.sin(seed + 7.1 * i + 0.37 * j) for j in range(m)] for i in range(n)]


def half_prod_chain():
  a = Tensor(_near_one(16, 256, 1), dtype=dtypes.half).realize()
  return a, "half prod: the C's `acc*x0*x1*x2*x3` computes in float and rounds once per step of the loop " \
    "(rounding each product drifted 5%)", a.prod(1).cast(dtypes.float32)


def bf16_prod_lanes():
  a = Tensor(_near_one(16, 256, 2), dtype=dtypes.float32).cast(dtypes.bfloat16).realize()
  return a, "bfloat16 prod: each op cast back, the unrolled lanes multiplied first, then the accumulator " \
    "(random-kernels --edges seed 312 #33: 1 ulp per step, 4% over 256)", a.prod(1).cast(dtypes.float32)


def uint8_neg_mod():
  a = Tensor([(x * 37) % 256 for x in range(64)], dtype=dtypes.uint8).realize()
  return a, "uint8 (a*-1) % 3: tinygrad decides the modulo on the MUL's bounds, which may be negative, so it " \
    "keeps the sign fix-up and reads a*-1 (NEG after its late rewrite) wrapped to uint8 (random-kernels --edges seed " \
    "511 #140: 255 where tinygrad says 0)", (a * -1) % 3


def lane_where_reciprocal_square():
  a = Tensor([[0.37 * i - 1.3 * j + 0.11 * i * j for j in range(9)] for i in range(12)], dtype=dtypes.float64).realize()
  s = a.sigmoid()
  return a, "sqrt(x*x + 1) of a cat of two sigmoids along an upcast axis: tinygrad folds the lane-decided WHERE " \
    "per lane, so each lane's r*r of the sigmoid's 1/y is (1/y)/y (its a*(1/b) -> a/b), not one FMA of r*r + 1 " \
    "(random-kernels seed 1405 #3: 1 ulp, seen through a bitcast to int8)", (s.cat(s.flip(1), dim=1).square() + 1).sqrt()


def lane_where_nested():
  a = Tensor([[0.29 * i - 0.7 * j + 0.05 * i * j for j in range(4)] for i in range(16)], dtype=dtypes.float64).realize()
  s = a.sigmoid()
  return a, "the same through a stack of four pieces along an upcast axis: lane-decided WHEREs nested in each other, " \
    "which the per-lane fold leaves nested (moving one into the other swapped them forever)", \
    (Tensor.stack(s, s.flip(1), 1 - s, s * 2, dim=2).square() + 1).sqrt()


def pad_times_negative():
  a = Tensor([[[[(x * 5 + y * 3 + z) % 7 - 3.25] for z in range(5)] for y in range(3)] for x in range(4)],
             dtype=dtypes.float32).realize()
  return a, "a padded tensor times a negative constant: the pad's 0.0 times -1.5 is -0.0 in tinygrad's C " \
    "(random-kernels seed 1407 #82: 0.0 where tinygrad says -0.0)", a.pad(((1, 1), (0, 0), (0, 1), (0, 1))) * -1.5


def cumsum_inlined_adds():
  a = Tensor([1e16, 3.0, -1e16, 1.0, 5.0, -3.0], dtype=dtypes.float64).realize()
  return a, "a cumsum of a + a.flip(0): a window term is a float ADD in the lanes where the window's WHERE is " \
    "decided, which the C adds leaf by leaf, `... + x + y` (random-kernels seed 1817 #98: 0.0 where tinygrad " \
    "says 0.58 on a cancelling float64 cumsum)", (a + a.flip(0)).cumsum()


def cumsum_window_bounds():
  a = Tensor([[(1e16 if (i + j) % 3 == 0 else -1e16 if (i + j) % 3 == 1 else 0.25 * j - i) for j in range(19)]
              for i in range(6)], dtype=dtypes.float64).realize()
  return a, "the same over rows of 19: the window's last term is an ADD in every lane, decided from the loop " \
    "range's bounds (`r + 18 < 18` with r >= 0), not by the lanes (random-kernels seed 1817 #98)", \
    (a + a.flip(1)).cumsum(1)


def padded_sum_sin_inf():
  a = Tensor([[math.inf, 0.5, -2.0], [1.5, -0.25, 3.0], [0.75, 2.5, -1.0], [-3.5, 1.25, 0.125]],
             dtype=dtypes.float64).realize()
  s = (a.pad(((1, 1), (0, 0))) * a[0:1].abs().minimum(2)).sum(1)
  return a, "sin of a padded sum times inf: a border lane's unrolled sum of 0s is the constant 0, sin(0) " \
    "folds, and 0*inf is 0 (random-kernels seed 1855 #93: NaN where tinygrad says 0)", \
    s.sin() * a.flatten()[:6]


def weak_int_bitcast():
  a = Tensor([1.5, -2.25], dtype=dtypes.float32).realize()
  i = (a.reshape(1, 1, 2)[:, :, :1] > 0).cast(dtypes.int32).argmax(2, keepdim=True)
  return a, "an argmax of one element (tinygrad's weak int 0) shifted and bitcast to bfloat16, minus a bfloat16: " \
    "the BITCAST of a weak int literal to uint32 in its lowering (random-kernels --edges seed 1859 #9: refused, " \
    "'BITCAST between different widths')", ((i << 3) >> 1).bitcast(dtypes.bfloat16) - a.cast(dtypes.bfloat16).reshape(1, 1, 2)


def cumsum_pad_own_axis():
  a = Tensor([[[(-1) ** (i + j) * (37 * i + 11 * j + 5 * k) % 127 for k in range(5)] for j in range(3)] for i in range(4)],
             dtype=dtypes.int8).realize()
  return a, "an int8 cumsum padded along its own axis, plus 3: the pad's gate, decided per lane, leaves the " \
    "unrolled reduce's term Invalid in the border lanes (random-kernels seed 1885 #98: refused, invalid IR of a " \
    "shuffle of i32 lanes with the Invalid constant's i1)", a.cumsum(0).pad(((2, 1), (0, 0), (0, 0))) + 3


def cumsum_pad_own_axis_half():
  a = Tensor([[[0.37 * i - 1.25 * j + 0.5 * k for k in range(5)] for j in range(3)] for i in range(4)],
             dtype=dtypes.half).realize()
  return a, "the same at half, times 1.5: the Invalid border lanes of a float term", \
    a.cumsum(0).pad(((2, 1), (0, 0), (0, 0))) * 1.5


def padded_square_sqrt():
  a = Tensor([[((i * 37 + j * 11) % 97 - 48) * 0.0213 + j * 1e-4 for j in range(32)] for i in range(16)],
             dtype=dtypes.float32).realize()
  t = a.pad(((1, 0), (0, 0)))
  return a, "sqrt(x*x + 1) of a padded tensor, bitcast to int: the pad's WHERE names x*x in the C (`float alu = g ? " \
    "x*x : 0.0f;`), so it is not fused with the + 1 (random-kernels seed 1900 #71: an FMA after LLVM moved the add " \
    "into the select, 1 ulp on 1095 of 22100 values)", (t * t + 1).sqrt().bitcast(dtypes.int32)


def int16_prod_rows_cast():
  a = Tensor([[(-1) ** (i + j) * (3 + 7 * i + 5 * j) % 61 + 4 for j in range(4)] for i in range(5)], dtype=dtypes.int16).realize()
  return a, "an int16 product of 4 unrolled terms cast to float: C computes the inline chain in int, " \
    "`(float)((val3*val0*val1*val2))`, wrapped nowhere (was wrapped to int16)", a.prod(1).cast(dtypes.float32)


def int16_cumprod_cast():
  a = Tensor([7, -11, 9, -12, 10, 13, -12], dtype=dtypes.int16).realize()
  return a, "an int16 cumprod cast to float: lane o's running product is lane o+1's prefix, one UOp used twice, " \
    "a wrapped `short` variable; the last lane's product stays inline, `(float)((alu49*val6))` in int " \
    "(probe: 0.0 where tinygrad says inf after exp2)", a.cumprod(0).cast(dtypes.float32)


def half_cumprod_rows():
  a = Tensor([[((i * 7 + j * 5) % 13 - 6) * 0.37 + 0.1 * j for j in range(6)] for i in range(5)], dtype=dtypes.half).realize()
  return a, "a half cumprod: the running products lanes share are `__fp16` variables, rounded, the rest of the " \
    "chain computes in float (rounded only at the end, 8 of 30 values were a half ulp apart)", a.cumprod(1)


def _pad_div_input():
  return Tensor([[(i * 37 + j * 11) % 200 - 100 + ((i + j) % 3) * 65536 * 7 for j in range(3)] for i in range(4)],
                dtype=dtypes.int32).realize()


def pad_div_negative():
  a = _pad_div_input()
  return a, "a padded tensor divided by a negative one: tinygrad's per-lane symbolic folds a pad lane's 0*(1/y) to " \
    "+0.0 before its late rewrite makes a*(1/b) one division (-0.0 on ours; random-kernels seed 1925 #83)", \
    a.pad(((0, 0), (0, 1))).cast(dtypes.float32) / (a[:, :1].cast(dtypes.float32) - 1000)


def pad_bitcast_div_bf16():
  a = _pad_div_input()
  return a, "the same through a bitcast to int8 bytes and bfloat16: the pad lane's 0 folds through the BITCAST too " \
    "(random-kernels seed 1925 #83)", \
    a.pad(((0, 0), (0, 1))).bitcast(dtypes.int8).cast(dtypes.bfloat16) / (a[:, :1].cast(dtypes.bfloat16) - 1000)


PROGRAMS = {"fp8e4m3_to_float": fp8e4m3_to_float, "float_to_fp8e4m3": float_to_fp8e4m3,
            "fp8e5m2_mul_add": fp8e5m2_mul_add, "f64_exp": f64_exp, "sin_near_k_pi": sin_near_k_pi,
            "half_named_rounding": half_named_rounding, "bf16_chain": bf16_chain,
            "half_sum_roundtrip": half_sum_roundtrip, "half_times_reciprocal": half_times_reciprocal,
            "half_clip_cast": half_clip_cast, "uint8_promotion": uint8_promotion,
            "bf16_gelu": bf16_gelu, "narrow_int_sub_mod": narrow_int_sub_mod,
            "conv_border_signed_zero": conv_border_signed_zero, "int32_var_division": int32_var_division,
            "log_max_lanes": log_max_lanes, "nested_sum_chain": nested_sum_chain,
            "half_log_argmax": half_log_argmax, "uint8_lane_broadcast": uint8_lane_broadcast,
            "half_lanes_read_per_upcast": half_lanes_read_per_upcast,
            "int8_wrapped_shift_div": int8_wrapped_shift_div,
            "uint32_var_division": uint32_var_division, "int32_sin": int32_sin,
            "float32_to_ints": float32_to_ints, "float64_to_ints": float64_to_ints,
            "max_nan_lanes": max_nan_lanes, "prod_pad_inf": prod_pad_inf, "half_prod_chain": half_prod_chain,
            "bf16_prod_lanes": bf16_prod_lanes, "uint8_neg_mod": uint8_neg_mod,
            "lane_where_reciprocal_square": lane_where_reciprocal_square, "lane_where_nested": lane_where_nested,
            "pad_times_negative": pad_times_negative, "cumsum_inlined_adds": cumsum_inlined_adds,
            "cumsum_window_bounds": cumsum_window_bounds,
            "padded_sum_sin_inf": padded_sum_sin_inf, "weak_int_bitcast": weak_int_bitcast,
            "cumsum_pad_own_axis": cumsum_pad_own_axis,
            "cumsum_pad_own_axis_half": cumsum_pad_own_axis_half,
            "padded_square_sqrt": padded_square_sqrt,
            "int16_prod_rows_cast": int16_prod_rows_cast, "int16_cumprod_cast": int16_cumprod_cast,
            "half_cumprod_rows": half_cumprod_rows, "pad_div_negative": pad_div_negative,
            "pad_bitcast_div_bf16": pad_bitcast_div_bf16}


def main():
    name = sys.argv[1]
    inp, description, out = PROGRAMS[name]()
    asts = []
    orig = codegen.full_rewrite_to_sink

    def capture(ast, *args, **kwargs):
        asts.append(ast)
        return orig(ast, *args, **kwargs)

    codegen.full_rewrite_to_sink = capture
    out.realize()
    codegen.full_rewrite_to_sink = orig
    assert len(asts) == 1, f"{name}: expected one kernel, tinygrad compiled {len(asts)}"
    params = sorted((u for u in asts[0].toposort() if u.op is Ops.PARAM), key=lambda u: u.arg.slot)
    # tinygrad numbers the output buffer 0, its input 1
    assert [p.dtype for p in params] == [out.dtype, inp.dtype], f"{name}: unexpected params {params}"
    enc = lambda v: v if isinstance(v, (bool, int)) or math.isfinite(v) else str(v)

    def values(t):
        mem = t.uop.base.buffer.as_memoryview()
        if t.dtype in dtypes.fp8s: return [enc(fp8_to_float(b, t.dtype)) for b in mem.cast("B")]
        if t.dtype == dtypes.half:
            return [enc(struct.unpack("<e", struct.pack("<H", h))[0]) for h in mem.cast("H")]
        if t.dtype == dtypes.bfloat16:
            return [enc(struct.unpack("<f", struct.pack("<I", h << 16))[0]) for h in mem.cast("H")]
        return [enc(v) for v in mem.cast(t.dtype.fmt)]
    buffers = [out, inp]
    rec = {"id": name, "description": description, "ast": uop_to_json(asts[0]),
           "params": [{"slot": p.arg.slot, "dtype": dtype_name(p.dtype), "size": p.src[0].arg,
                       "shape": list(b.shape), "addrspace": "GLOBAL"} for p, b in zip(params, buffers)],
           "vars": [], "var_vals": {},
           "inputs": {"1": values(inp)}, "outputs": {"0": values(out)}}
    print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
