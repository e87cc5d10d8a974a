"""Tensor programs through the C API (capi.TensorProgram, tgc_program_*) and the progress bar.

Needs libTinygradCAPI.so (`make build`); a missing library is a failure, not a skip."""
import io
import json
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from tinygrad_mlir import capi, progress  # noqa: E402
from tinygrad_mlir.capi import CAPIError  # noqa: E402
from tinygrad_mlir.tensor import Tensor  # noqa: E402
from test_tinygrad_backend import Env  # noqa: E402

INPUTS = os.path.join(REPO, "unittests", "CAPI", "Inputs")


def read(name):
    with open(os.path.join(INPUTS, name), encoding="utf-8") as f:
        return f.read()


class TestTensorProgram(unittest.TestCase):
    def test_broadcast_multiply_runs_twice(self):
        seen = []
        with capi.Context() as ctx, ctx.import_json(read("tensor_mul_bcast.json")) as mod:
            with mod.program(progress=lambda *a: seen.append(a)) as prog:
                self.assertEqual(seen, [("schedule", 1, 1), ("compile", 1, 1)])
                self.assertEqual([(b["slot"], b["dtype"], b["device"], b["shape"], b["bytes"]) for b in prog.buffers],
                                 [(6, "float32", "CPU", (30,), 120), (8, "float32", "CPU", (6,), 24)])
                self.assertEqual(prog.outputs[0]["shape"], (6, 5))
                self.assertEqual(prog.info()["num_kernels"], 1)
                for scale in (1.0, 3.0):
                    a, b = [scale * i for i in range(30)], [i + 1.0 for i in range(6)]
                    prog.set_buffer(0, struct.pack("<30f", *a))
                    prog.set_buffer(1, struct.pack("<6f", *b))
                    prog.run()
                    got = struct.unpack("<30f", prog.read_output(0))
                    self.assertEqual(list(got), [a[i] * b[i // 5] for i in range(30)])

    def test_errors(self):
        with capi.Context() as ctx, ctx.import_json(read("tensor_mul_bcast.json")) as mod, mod.program() as prog:
            with self.assertRaises(CAPIError) as e:
                prog.set_buffer(0, b"1234")
            self.assertEqual(e.exception.status, "TGC_INVALID_ARGUMENT")
            self.assertIn("holds 120 bytes, got 4", e.exception.message)
            with self.assertRaises(CAPIError):
                prog.read_output(3)
        with capi.Context() as ctx, ctx.parse_mlir(read("symbolic.mlir")) as mod:
            with self.assertRaises(CAPIError) as e:
                mod.program()
            self.assertEqual(e.exception.status, "TGC_PASS_FAILED")
            self.assertIn("a tensor program is a SINK", e.exception.message)

    def test_a_kernel_ast_is_not_a_program(self):
        text = "\n".join(ln for ln in read("var_add.json").split("\n") if not ln.startswith("//"))
        with capi.Context() as ctx, ctx.import_json(json.dumps(json.loads(text)["ast"])) as mod:
            with self.assertRaises(CAPIError) as e:
                mod.program()
            self.assertEqual(e.exception.status, "TGC_PASS_FAILED")  # the scheduler's message, no abort
            self.assertIn("get_kernel_graph", e.exception.message)

    def test_ir_after_each_kernel_pass(self):
        passes = []
        with capi.Context() as ctx, ctx.import_json(read("tensor_softmax.json")) as mod:
            with mod.program(after_pass=lambda name, ir: passes.append((name, ir))) as prog:
                kernels = prog.info()["num_kernels"]
        lowered = [ir for name, ir in passes if name == "tg-lower-kernel"]
        self.assertGreaterEqual(kernels, 2)
        self.assertEqual(len(lowered), kernels)  # one lowering per distinct kernel here
        self.assertTrue(all("func.func" in ir for ir in lowered))

    def test_front_end_runs_in_process(self):
        # no tinygrad-run anywhere on the way: realize() is the C API's tgc_program
        with Env(PATH="/nonexistent"):
            x = Tensor([[1.0, 2.0], [3.0, 4.0]])
            self.assertEqual((x * 2 + 1).sum(axis=1).numpy().tolist(), [8.0, 16.0])


class TestChosenOpts(unittest.TestCase):
    def var_add_case(self):
        text = "\n".join(ln for ln in read("var_add.json").split("\n") if not ln.startswith("//"))
        ins = [0.5 * i - 1 for i in range(8)]
        return {"id": "var_add", "ast": json.loads(text)["ast"],
                "params": [{"slot": 0, "dtype": "float32", "size": 8}, {"slot": 1, "dtype": "float32", "size": 8}],
                "var_vals": {"k": 3}, "inputs": {"1": ins}, "outputs": {"0": [x + 3 for x in ins]}}

    def test_opts_change_the_code_not_the_result(self):
        case = self.var_add_case()
        default = capi.run_case(case, keep=("mlir",))
        self.assertTrue(default["match"], default["mismatches"])
        case["ast"] = capi.with_opts(case["ast"], [("UPCAST", 0, 4)])
        upcast = capi.run_case(case, keep=("mlir",))
        self.assertTrue(upcast["match"], upcast["mismatches"])
        with capi.Context() as ctx:
            # the upcast axis becomes 4 lanes: one vector store per iteration of the remaining loop
            for opts, store in (([], "memref.store"), ([("UPCAST", 0, 4)], "vector.store")):
                ast = capi.with_opts(self.var_add_case()["ast"], opts)
                with ctx.import_json(json.dumps(ast)) as mod, mod.compile_cpu(keep=("mlir",)) as k:
                    text = k.text("mlir")
                    self.assertEqual([l.split()[0] for l in text.splitlines() if "store " in l], [store], text)
                    self.assertEqual("vector<4xf32>" in text, bool(opts), text)

    def test_an_opt_that_does_not_fit_is_an_error(self):
        ast = capi.with_opts(self.var_add_case()["ast"], [("UPCAST", 0, 3)])  # the axis has 8 (simplify ranges merged the 2x4)
        with capi.Context() as ctx, ctx.import_json(json.dumps(ast)) as mod:
            with self.assertRaises(CAPIError) as e:
                mod.compile_cpu()
            self.assertEqual(e.exception.status, "TGC_COMPILE_FAILED")
        with self.assertRaises(ValueError):
            capi.with_opts({"nodes": [{"id": 0, "op": "CONST", "dtype": "int32", "src": [], "arg": 1}], "root": 0}, [])


class TestProgressBar(unittest.TestCase):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    def test_only_on_a_terminal_unless_asked(self):
        with Env(TINYGRAD_MLIR_PROGRESS=""):
            quiet = io.StringIO()
            bar = progress.ProgressBar("t", stream=quiet)
            bar.update("compile", 1, 2)
            bar.close()
            self.assertEqual(quiet.getvalue(), "")
            tty = self.Tty()
            bar = progress.ProgressBar("t", stream=tty)
            bar.update("compile", 1, 2)
            bar.update("compile", 2, 2)
            bar.close()
            self.assertEqual(tty.getvalue(), "\r" + bar.render("compile", 1, 2) + "\r" + bar.render("compile", 2, 2) + "\n")
            self.assertIn("[" + "#" * progress.WIDTH + "] 2/2", bar.render("compile", 2, 2))
        with Env(TINYGRAD_MLIR_PROGRESS="1"):
            forced = io.StringIO()
            with progress.ProgressBar("t", stream=forced, min_total=100) as bar:
                bar.update("schedule", 1, 1)
            self.assertTrue(forced.getvalue().endswith("1/1\n"))
        with Env(TINYGRAD_MLIR_PROGRESS="0"):
            tty = self.Tty()
            with progress.ProgressBar("t", stream=tty) as bar:
                bar.update("compile", 1, 1)
            self.assertEqual(tty.getvalue(), "")

    def test_terminal_shows_only_long_work(self):
        with Env(TINYGRAD_MLIR_PROGRESS=""):
            tty = self.Tty()
            with progress.ProgressBar("t", stream=tty, min_total=16) as bar:
                bar.update("schedule", 1, 1)
                bar.update("compile", 1, 3)
            self.assertEqual(tty.getvalue(), "")
            with progress.ProgressBar("t", stream=tty, min_total=16) as bar:
                bar.update("compile", 1, 20)
            self.assertIn("1/20", tty.getvalue())

    def test_program_reports_on_stderr_when_asked(self):
        err = io.StringIO()
        old, sys.stderr = sys.stderr, err
        try:
            with Env(TINYGRAD_MLIR_PROGRESS="1"):
                x = Tensor([[1.0, 2.0], [3.0, 4.0]])
                x.softmax().numpy()
        finally:
            sys.stderr = old
        lines = err.getvalue().split("\n")
        self.assertTrue(any("schedule" in ln for ln in err.getvalue().split("\r")), err.getvalue())
        self.assertRegex(lines[-2], r"compile .*\] (\d+)/\1$")


if __name__ == "__main__":
    unittest.main()
