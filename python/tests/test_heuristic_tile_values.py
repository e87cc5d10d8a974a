"""Values of our heuristic's tiles for a training step's backward kernels, against tinygrad's choices.

beautiful_mnist's weight gradients and its unsummed input gradient get tiles of their own
(OurHeuristic.cpp: outerProductTile where the store is contiguous only along a window's taps, or where an
operand is contiguous along an axis of its own; tapRowTile for an input of one channel; dotTile's taps as
lanes). Those tiles only choose which outputs share registers: each output still sums its terms in
tinygrad's order, so the kernel must give tinygrad's choices' values bit for bit, except where dotTile
splits the reduce into lanes (its sums then round in another order: within 1e-5 of the output's largest
magnitude). A tile reading an operand at the wrong lane, or storing a tap to the wrong output, is off by
far more. Each kernel's opts must also differ from tinygrad's, or the tile was not taken.

Needs libTinygradCAPI.so (`make build`).
"""
import json
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from tinygrad_mlir import capi  # noqa: E402

INPUTS = os.path.join(REPO, "test", "Codegen", "Inputs")
# (kernel, exact): outerProductTile's and tapRowTile's kernels are bit for bit; dotTile's split its reduce
KERNELS = [("mnist_conv_weight_grad_3x3_whole_batch.json", True), ("mnist_conv1_weight_grad_5x5.json", True),
           ("mnist_conv_input_grad_3x3_unsummed.json", True), ("mnist_conv_weight_grad_3x3.json", False),
           ("mnist_conv_weight_grad_5x5.json", False)]


def ast_of(name):
    with open(os.path.join(INPUTS, name), encoding="utf-8") as f:
        case = json.load(f)
    ast = case["ast"] if "ast" in case else case
    next(n for n in ast["nodes"] if n["id"] == ast["root"])["arg"]["opts_to_apply"] = None
    return ast


class TestHeuristicTileValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ctx = capi.Context()
        cls.dev = capi.Device("CPU")

    def run_kernel(self, ast, mode):
        """(applied opts, output values on seeded inputs) of `ast` compiled with TG_OPTS=mode (None: ours)."""
        old = os.environ.pop("TG_OPTS", None)
        if mode is not None:
            os.environ["TG_OPTS"] = mode
        try:
            with self.ctx.import_json(json.dumps(ast), name="k") as mod, mod.compile_cpu(2) as k:
                info = k.info
                opts = [(o["op"], o["axis"], o["arg"]) for o in k.result()["uops"]["applied_opts"]]
                rng = np.random.default_rng(11)
                bufs = [self.dev.buffer((rng.random(max(1, n), dtype=np.float32) * 2 - 1).tobytes())
                        for n in info["global_elements"]]
                k.load(self.dev)(bufs, [0] * len(info["vars"]))
                out = bufs[info["globals"].index(info["outs"][0])]
                return opts, np.frombuffer(out.read(), dtype=np.float32).copy()
        finally:
            os.environ.pop("TG_OPTS", None)
            if old is not None:
                os.environ["TG_OPTS"] = old

    def test_tiles_compute_tinygrads_values(self):
        for name, exact in KERNELS:
            with self.subTest(kernel=name):
                ast = ast_of(name)
                ours_opts, ours = self.run_kernel(ast, None)
                theirs_opts, theirs = self.run_kernel(ast, "tinygrad")
                self.assertNotEqual(ours_opts, theirs_opts, "the heuristic took tinygrad's choices: no tile tested")
                self.assertGreater(float(np.abs(theirs).max()), 0.0)
                if exact:
                    np.testing.assert_array_equal(ours, theirs)
                else:
                    scale = float(np.abs(theirs).max())
                    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5 * scale)


if __name__ == "__main__":
    unittest.main()
