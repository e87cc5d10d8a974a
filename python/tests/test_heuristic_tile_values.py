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
import unittest

import numpy as np

from kernel_cases import ast_of, run_kernel
from tinygrad_mlir import capi

# (kernel, exact): outerProductTile's and tapRowTile's kernels are bit for bit; dotTile's split its reduce
KERNELS = [("mnist_conv_weight_grad_3x3_whole_batch.json", True), ("mnist_conv1_weight_grad_5x5.json", True),
           ("mnist_conv_input_grad_3x3_unsummed.json", True), ("mnist_conv_weight_grad_3x3.json", False),
           ("mnist_conv_weight_grad_5x5.json", False)]


class TestHeuristicTileValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ctx = capi.Context()
        cls.dev = capi.Device("CPU")

    def test_tiles_compute_tinygrads_values(self):
        for name, exact in KERNELS:
            with self.subTest(kernel=name):
                ast = ast_of(name)
                _, ours_opts, ours = run_kernel(self.ctx, self.dev, ast, None, seed=11)
                _, theirs_opts, theirs = run_kernel(self.ctx, self.dev, ast, "tinygrad", seed=11)
                self.assertNotEqual(ours_opts, theirs_opts, "the heuristic took tinygrad's choices: no tile tested")
                self.assertGreater(float(np.abs(theirs).max()), 0.0)
                if exact:
                    np.testing.assert_array_equal(ours, theirs)
                else:
                    scale = float(np.abs(theirs).max())
                    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5 * scale)


if __name__ == "__main__":
    unittest.main()
