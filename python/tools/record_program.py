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


PROGRAMS = {"matmul4": matmul4}


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
           "tensor_graph": uop_to_json(captured[-1]),
           "outputs": [{"shape": list(out.shape), "dtype": dtype_name(out.dtype), "values": flat(vals)}],
           "var_vals": {}}
    print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
