"""Values of our heuristic's steps that no Opt names, under opts they were not chosen for.

Our heuristic ends its matmul and convolution tiles by packing a reused reduce operand into a LOCAL
panel (StagePanel.cpp), and splits a long reduce into lanes folded pairwise (a llama's projections and
attention scores); opts_to_apply repeat those steps where our heuristic would have taken them
(ApplyOpts.cpp): so BEAM's candidates around the heuristic's kernel (its opts and one more) are packed
or split too, combinations the heuristic never chose. Each such candidate must compute what the same
opts compute without the steps (TG_OPTS=none: opts_to_apply alone), within float rounding (of the
output's largest magnitude: a split sum rounds in another order): a panel read at a wrong offset, or a
reduce split over the wrong range, is off by far more than that.

Needs libTinygradCAPI.so (`make build`).
"""
import json
import unittest

import numpy as np

from kernel_cases import ast_of, run_kernel
from tinygrad_mlir import capi
from tinygrad_mlir.capi import CAPIError

# packed by our heuristic, or split (test/Codegen/opts-reproduce-heuristic.test's kernels), small enough to run
# often
KERNELS = ["conv2d_8x64x56_pad1.json", "mnist_conv_input_grad_5x5.json", "conv2d_7x7_residual_downsample.json",
           "resnet18_conv_64_128_s2_28.json", "llama_vocab_projection.json", "llama_wq_rmsnorm.json",
           "layernorm_mean_row_upcast.json", "llama_attention_scores.json"]
# one more opt after the heuristic's: what BEAM's first round adds
EXTRA = [None] + [["UPCAST", a, n] for a in range(3) for n in (2, 4)] + [["UNROLL", a, n] for a in range(2) for n in (0, 4)]


def with_opts(ast, opts):
    a = json.loads(json.dumps(ast))
    root = next(n for n in a["nodes"] if n["id"] == a["root"])
    root["arg"]["opts_to_apply"] = [{"kind": "Opt", "op": o, "axis": ax, "arg": n} for o, ax, n in opts]
    return a


class TestHeuristicStepsValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ctx = capi.Context()
        cls.dev = capi.Device("CPU")

    def compile(self, ast, mode):
        """(object bytes, output values on seeded inputs) of `ast` compiled with TG_OPTS=mode (None: ours)."""
        obj, _, values = run_kernel(self.ctx, self.dev, ast, mode, seed=7)
        return obj, values

    def test_packed_or_split_candidates_compute_the_plain_values(self):
        compared = stepped = 0
        for name in KERNELS:
            ast = ast_of(name)
            with self.ctx.import_json(json.dumps(ast), name="k") as mod, mod.compile_cpu(2) as k:
                base = [[o["op"], o["axis"], o["arg"]] for o in k.result()["uops"]["applied_opts"]]
            for extra in EXTRA:
                opts = base + ([extra] if extra else [])
                try:
                    stepped_obj, stepped_vals = self.compile(with_opts(ast, opts), None)
                    plain_obj, plain = self.compile(with_opts(ast, opts), "none")
                except CAPIError:
                    # the extra opt does not apply to this kernel (BEAM drops such a candidate too); one that
                    # applies only without the steps (an UNROLL of a reduce they made lanes) compiles without
                    continue
                with self.subTest(kernel=name, opts=opts):
                    scale = max(1.0, float(np.abs(plain).max()))
                    np.testing.assert_allclose(stepped_vals, plain, rtol=1e-5, atol=1e-5 * scale)
                compared += 1
                stepped += stepped_obj != plain_obj
        print(f"{compared} opt lists compared, {stepped} objects with the steps differ from those without")
        # the opts compared include each kernel's own and the steps were in effect (another object)
        self.assertGreaterEqual(compared, 2 * len(KERNELS))
        self.assertGreaterEqual(stepped, len(KERNELS))


if __name__ == "__main__":
    unittest.main()
