"""fp8 kernels through the hook must write tinygrad's bits exactly (its emulation at half, see
lib/Codegen/Decomp/DTypeDecomp.cpp): casts with saturation and NaN, raw bits widened, fp8 to fp8,
max reduces and WHEREs, for all four fp8 dtypes. Needs TINYGRAD_SRC, like test_tinygrad_real.
"""
import os
import tempfile
import textwrap
import unittest

from test_tinygrad_real import SKIP, result_of, run_py

PROGRAM = textwrap.dedent("""
    import json
    from tinygrad import Tensor, dtypes
    vals = [0.0, -0.0, 1.0, -1.5, 0.1, 3.14159, 0.01, 1e-3, 17.0, 448.0, 460.0, 1000.0, -1e9, 57344.0,
            2.0**-7, 2.0**-15, float("inf"), float("-inf"), float("nan"), 0.3, -5e-5, 2.0**-17]
    # the bytes the kernel wrote, not values read back through another kernel
    bits = lambda t: bytes(t.contiguous().realize().uop.base.buffer.as_memoryview()).hex()
    f, u8 = Tensor(vals, dtype=dtypes.float32), Tensor(list(range(256)), dtype=dtypes.uint8)
    out = {}
    for dt in dtypes.fp8s:
        out[f"cast {dt}"] = bits(f.cast(dt))
        out[f"from half {dt}"] = bits(f.cast(dtypes.half).cast(dt))
        out[f"widen {dt}"] = bits(u8.bitcast(dt).cast(dtypes.float32))
        out[f"to bits {dt}"] = bits(f.cast(dt).bitcast(dtypes.uint8))
        out[f"max {dt}"] = bits(f.cast(dt).reshape(2, 11).max(axis=1))
        out[f"where {dt}"] = bits((f > 1).where(f.cast(dt), Tensor(2.5, dtype=dt)))
        for dt2 in dtypes.fp8s:
            if dt2 != dt: out[f"{dt} to {dt2}"] = bits(u8.bitcast(dt).cast(dt2))
    print("RESULT " + json.dumps(out))
""")


@unittest.skipIf(SKIP, SKIP)
class TestFp8BitsAsTinygrad(unittest.TestCase):
    def test_same_bits(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "kernels.log")
            ref = result_of(run_py(PROGRAM, "CPU"))
            ours = result_of(run_py("import tinygrad_mlir.tinygrad\n" + PROGRAM, "CPU:MLIR",
                                    {"TINYGRAD_MLIR_LOG": log}))
            with open(log) as f:
                lines = f.read().splitlines()
        self.assertEqual(len(ref), 36)
        for k in ref:
            self.assertEqual(ours[k], ref[k], k)
        self.assertFalse([ln for ln in lines if "REJECTED" in ln or "FALLBACK" in ln], lines)
        self.assertGreaterEqual(len([ln for ln in lines if "] compiled " in ln or " compiled " in ln]), 36, lines)


if __name__ == "__main__":
    unittest.main()
