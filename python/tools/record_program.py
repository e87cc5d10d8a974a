"""Record a tinygrad tensor program as a schedules.jsonl line (the corpus format, section 4).

The program's inputs are realized first; then the graph tinygrad hands its scheduler
(transform_to_call's argument) is captured while the result is realized, and the realized
values are stored as `outputs`. Only the fields tinygrad-run reads are written.

usage: cd <tinygrad> && PYTHONPATH=<repo>/python:. python3 record_program.py NAME > NAME.json
Programs are defined in PROGRAMS below.
"""
import json, sys

import tinygrad.tensor as tt
from tinygrad import Tensor, dtypes
from tinygrad_mlir.uop_json import uop_to_json, dtype_name


def matmul4():
    # four matmuls in a row: the first and third products are never live
    # together, so memory planning gives them one block
    a = (Tensor.arange(256, dtype=dtypes.float32).reshape(16, 16) / 256.0).contiguous().realize()
    x = a
    for _ in range(4):
        x = (x @ a).contiguous()
    return [a], "((((a@a)@a)@a)@a)", x


# width-changing bitcasts of values (tinygrad's expand_bitcast: shifts over uint views, packed or split)
def _bitcast(x, dt):
    return [x], f"({x.dtype.name} value).bitcast({dt.name}): the last axis rescales", (x + 1).bitcast(dt)


def bitcast_f32_u8():
    return _bitcast(Tensor([1.5, -2.25, 3e9, 0.1, -0.0, 3.4e38], dtype=dtypes.float32).realize(), dtypes.uint8)


def bitcast_f16_u8():
    return _bitcast(Tensor([1.5, -2.25, 3.0, 0.1, 65504.0, -7.0], dtype=dtypes.float16).realize(), dtypes.uint8)


def bitcast_i64_i32():
    return _bitcast(Tensor([2**40 + 5, -7, 2**62, -2**63 + 1], dtype=dtypes.int64).realize(), dtypes.int32)


def bitcast_u8_f32():
    return _bitcast(Tensor([(i * 37) % 256 for i in range(24)], dtype=dtypes.uint8).realize(), dtypes.float32)


def bitcast_u8_f16():
    return _bitcast(Tensor([(i * 53) % 256 for i in range(12)], dtype=dtypes.uint8).realize(), dtypes.float16)


def bitcast_i32_i64():
    return _bitcast(Tensor([1, -2, 2**31 - 2, -2**31, 7, 0], dtype=dtypes.int32).realize(), dtypes.int64)


# a product over a broadcast axis: pm_reduce_unparented makes it x**n (multiplied out by simplify_pow)
def prod_broadcast_f32():
    a = Tensor([[1.1, -0.9, 1.05, 0.5]], dtype=dtypes.float32).realize()
    return [a], "a (1,4) float32 expanded to (7,4), its prod over axis 0 (x**7)", a.expand(7, 4).prod(0)


def prod_broadcast_i32():
    a = Tensor([[2, -3, 1, 5]], dtype=dtypes.int32).realize()
    return [a], "a (4,1) int32 expanded to (4,9), its prod over axis 1 (x**9, wrapping)", \
        a.reshape(4, 1).expand(4, 9).prod(1)


def half_matmul_tanh():
    # a program computing in half with a float output (gpu-half-tolerance.test)
    a = Tensor([((7 * i) % 23 - 11) / 8 for i in range(16 * 64)], dtype=dtypes.half).reshape(16, 64).realize()
    b = Tensor([((5 * i) % 19 - 9) / 16 for i in range(64 * 8)], dtype=dtypes.half).reshape(64, 8).realize()
    return [a, b], "(a @ b) in half, cast to float, tanh", (a @ b).cast(dtypes.float32).tanh()


PROGRAMS = {"matmul4": matmul4, "half_matmul_tanh": half_matmul_tanh, "bitcast_f32_u8": bitcast_f32_u8, "bitcast_f16_u8": bitcast_f16_u8,
            "bitcast_i64_i32": bitcast_i64_i32, "bitcast_u8_f32": bitcast_u8_f32, "bitcast_u8_f16": bitcast_u8_f16,
            "bitcast_i32_i64": bitcast_i32_i64, "prod_broadcast_f32": prod_broadcast_f32,
            "prod_broadcast_i32": prod_broadcast_i32}


def main():
    name = sys.argv[1]
    inputs, description, out = PROGRAMS[name]()
    captured = []
    orig = tt.transform_to_call

    def capture(big_sink):
        captured.append(big_sink)
        return orig(big_sink)

    tt.transform_to_call = capture
    vals = out.realize().tolist()
    tt.transform_to_call = orig
    flat = lambda v: [y for x in v for y in flat(x)] if isinstance(v, list) else [v]
    rec = {"id": name, "description": description,
           "inputs": [{"name": f"in{i}", "shape": list(t.shape), "dtype": dtype_name(t.dtype),
                       "values": flat(t.tolist())} for i, t in enumerate(inputs)],
           # the realize's own graph (reading a half result back schedules another)
           "tensor_graph": uop_to_json(captured[0]),
           "outputs": [{"shape": list(out.shape), "dtype": dtype_name(out.dtype), "values": flat(vals)}],
           "var_vals": {}}
    print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
