"""BEAM search from Python: capi.Module.beam_search (tgc_beam_search) with a Python timer, and BEAM=N
through the tinygrad hook (our search and its disk cache; TINYGRAD_MLIR_BEAM=tinygrad for tinygrad's
own search driving our compiler). The hook tests need TINYGRAD_SRC, as test_tinygrad_real's."""
import json
import os
import tempfile
import textwrap
import unittest

from test_capi import capi, read
from test_tinygrad_real import SKIP, result_of, run_py, SITE, PYDIR, TG


def matmul_module(ctx):
    text = "\n".join(ln for ln in read("matmul_64.json").split("\n") if not ln.startswith("//"))
    return ctx.import_json(text, graph_path="ast", name="matmul_64")


class TestBeamSearchAPI(unittest.TestCase):
    def setUp(self):
        try:
            capi.library()
        except capi.CAPINotFound as e:
            self.skipTest(str(e))
        self.ctx = capi.Context()
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.ctx.close()
        self.tmp.cleanup()

    def search(self, timer, beam=2, ignore_cache=True):
        with matmul_module(self.ctx) as m:
            return m.beam_search(beam, ignore_cache=ignore_cache, cache_dir=self.tmp.name, timer=timer)

    def test_a_python_timer_decides(self):
        # fastest: UPCAST axis 1 by 4 and nothing more
        def timer(opts):
            return 0.1 if opts == [{"op": "UPCAST", "axis": 1, "arg": 4}] else 1.0
        res = self.search(timer)
        self.assertTrue(res["searched"])
        self.assertEqual(res["opts"], [{"op": "UPCAST", "axis": 1, "arg": 4}])
        self.assertEqual(res["best_s"], 0.1)
        self.assertEqual(res["opts_repr"], "(Opt(op=OptOps.UPCAST, axis=1, arg=4),)")

    def test_a_raising_timer_fails_that_candidate(self):
        def timer(opts):
            if opts == [{"op": "UPCAST", "axis": 1, "arg": 4}]:
                raise RuntimeError("boom")
            return 0.2 if opts == [{"op": "UPCAST", "axis": 0, "arg": 4}] else 1.0
        res = self.search(timer)
        self.assertEqual(res["opts"], [{"op": "UPCAST", "axis": 0, "arg": 4}])
        self.assertIn({"opts": [{"op": "UPCAST", "axis": 1, "arg": 4}], "stage": "run",
                       "error": "the timer failed the candidate"}, res["failures"])

    def test_cache_hit(self):
        calls = []

        def timer(opts):
            calls.append(opts)
            return 1.0 / (1 + len(opts))
        first = self.search(timer, ignore_cache=False)
        n = len(calls)
        second = self.search(timer, ignore_cache=False)
        self.assertFalse(first["cached"])
        self.assertTrue(second["cached"])
        self.assertEqual(len(calls), n)
        self.assertEqual(first["opts"], second["opts"])

    @unittest.skipIf(os.environ.get("TGRT_TEST_NO_VULKAN"), "TGRT_TEST_NO_VULKAN is set")
    def test_a_gpu_target_is_timed_on_its_device(self):
        # no timer: each candidate compiles for Vulkan and runs on the runtime's Vulkan device (lavapipe)
        with matmul_module(self.ctx) as m:
            res = m.beam_search(1, ignore_cache=True, cache_dir=self.tmp.name, target="vulkan")
        self.assertTrue(res["searched"])
        self.assertEqual(res["device"], "VULKAN")
        self.assertGreater(res["timed"], 0)
        self.assertEqual(res["failures"], [])
        self.assertGreater(res["best_s"], 0)
        # the searched opts compile for the target as opts_to_apply
        self.assertTrue(all(o["op"] in ("UPCAST", "UNROLL", "LOCAL", "GROUP", "GROUPTOP") for o in res["opts"]), res)

    def test_a_device_that_does_not_open_fails_every_candidate(self):
        # `device` names where candidates run; one that does not open fails each of them (reported, none
        # timed), the result is the kernel without opts and nothing is cached
        with matmul_module(self.ctx) as m:
            res = m.beam_search(1, ignore_cache=False, cache_dir=self.tmp.name, target="vulkan", device="VULKAN:99")
        self.assertEqual(res["device"], "VULKAN:99")
        self.assertEqual((res["timed"], res["opts"]), (0, []))
        self.assertTrue(res["failures"])
        self.assertTrue(all(f["stage"] == "run" and "VULKAN:99" in f["error"] for f in res["failures"]), res)
        self.assertFalse(os.path.isdir(os.path.join(self.tmp.name, "beam")) and os.listdir(os.path.join(self.tmp.name, "beam")))

    def test_an_unknown_target_is_an_argument_error(self):
        with matmul_module(self.ctx) as m:
            with self.assertRaises(capi.CAPIError) as cm:
                m.beam_search(1, ignore_cache=True, cache_dir=self.tmp.name, target="tpu")
        self.assertIn("tpu", cm.exception.message)


BEAM_PROGRAM = textwrap.dedent("""
    import json
    import numpy as np
    from tinygrad import Tensor
    from tinygrad.helpers import Context
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 48)).astype(np.float32), rng.standard_normal((48, 32)).astype(np.float32)
    with Context(BEAM=2):
        c = (Tensor(a) @ Tensor(b)).relu().numpy()
    print("RESULT " + json.dumps({"ok": bool(np.allclose(c, np.maximum(a @ b, 0), atol=1e-4))}))
""")

# Each compile of a kernel that BEAM searched (its opts_to_apply) and the program's result.
COUNT_COMPILES = textwrap.dedent("""
    from tinygrad_mlir import backend
    compiled = []
    orig = backend.compile_kernel
    def compile_kernel(ast, *a, **k):
        compiled.append(getattr(ast.arg, "opts_to_apply", None) if getattr(ast.arg, "beam", 0) else "no beam")
        return orig(ast, *a, **k)
    backend.compile_kernel = compile_kernel
""") + BEAM_PROGRAM.replace('print("RESULT " + json.dumps({"ok"', 'print("RESULT " + json.dumps({"compiled": [str(c) for c in compiled], "ok"')

# Our search said the kernel without BEAM won ("heuristic"): the hook must hand tinygrad the AST as it came
# (no opts_to_apply), so that our heuristic compiles it, not the opts the search reports beside it. The
# search is replaced by one that answers so, naming opts (UPCAST 0 by 4) our heuristic would not take here,
# and no kernel of its own (as a cache hit): the hook compiles the AST.
HEURISTIC_WINS_PROGRAM = textwrap.dedent("""
    from tinygrad_mlir import backend
    def search(ast, amt, kernel=False, **kw):
        res = {"opts": [{"op": "UPCAST", "axis": 0, "arg": 4}], "heuristic": True, "cached": False,
               "searched": True, "compiled": 1, "failures": [], "device": "CPU"}
        return (res, None) if kernel else res
    backend.beam_search = search
""") + COUNT_COMPILES


@unittest.skipIf(SKIP, SKIP)
class TestBeamThroughTheHook(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.tmp.name, "log.txt")

    def tearDown(self):
        self.tmp.cleanup()

    def run_beam(self, extra=None, dev="CPU:MLIR"):
        env = {"TINYGRAD_MLIR_CACHE_DIR": os.path.join(self.tmp.name, "cache"), "TINYGRAD_MLIR_LOG": self.log,
               "TINYGRAD_MLIR_TRANSPORT": "capi", "CACHELEVEL": "0" if (extra or {}).get("TINYGRAD_MLIR_BEAM") else "2"}
        env.update(extra or {})
        p = run_py(BEAM_PROGRAM, dev, env, pythonpath=[SITE, PYDIR, TG])
        self.assertTrue(result_of(p)["ok"], p.stderr[-3000:])
        with open(self.log, encoding="utf-8") as f:
            return [ln for ln in f.read().splitlines() if "BEAM=2" in ln]

    def test_our_search_then_the_cache(self):
        first = self.run_beam()
        self.assertEqual(len(first), 1, first)
        self.assertIn("our search (", first[0])
        self.assertNotIn("cached", first[0])
        second = self.run_beam()[1:]
        self.assertEqual(len(second), 1, second)
        self.assertIn("our search (cached)", second[0])
        self.assertEqual(first[0].split("-> ")[1], second[0].split("-> ")[1])  # the same opts

    @unittest.skipIf(os.environ.get("TGRT_TEST_NO_VULKAN"), "TGRT_TEST_NO_VULKAN is set")
    def test_our_search_on_vulkan(self):
        # DEV=VULKAN: BEAM=2 searches for the vulkan target, timed on the runtime's Vulkan device; the
        # result (checked against numpy) runs there too
        lines = self.run_beam(dev="VULKAN")
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("our search (", lines[0])
        self.assertIn("timed on VULKAN", lines[0])

    def test_tinygrads_search_drives_our_compiler(self):
        lines = self.run_beam({"TINYGRAD_MLIR_BEAM": "tinygrad"})
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("tinygrad's beam_search", lines[0])

    def test_the_searched_kernel_is_not_compiled_again(self):
        # our search hands the hook its winner's compile: the kernel it searched compiles no more (the
        # result still checked against numpy); the other kernels of the program compile as ever
        env = {"TINYGRAD_MLIR_LOG": self.log, "TINYGRAD_MLIR_TRANSPORT": "capi", "CACHELEVEL": "0"}
        p = run_py(COUNT_COMPILES, "CPU:MLIR", env, pythonpath=[SITE, PYDIR, TG])
        res = result_of(p)
        self.assertTrue(res["ok"], p.stderr[-3000:])
        self.assertEqual([c for c in res["compiled"] if c != "no beam"], [], res)
        with open(self.log, encoding="utf-8") as f:
            lines = [ln for ln in f.read().splitlines() if "BEAM=2" in ln]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("our search (", lines[0])

    def test_when_the_heuristic_wins_the_ast_goes_back_unchanged(self):
        env = {"TINYGRAD_MLIR_LOG": self.log, "TINYGRAD_MLIR_TRANSPORT": "capi", "CACHELEVEL": "0"}
        p = run_py(HEURISTIC_WINS_PROGRAM, "CPU:MLIR", env, pythonpath=[SITE, PYDIR, TG])
        res = result_of(p)
        self.assertTrue(res["ok"], p.stderr[-3000:])
        # the searched kernel compiled once, without opts_to_apply (None), not with the search's UPCAST
        self.assertEqual(res["compiled"], ["None"], res)
        with open(self.log, encoding="utf-8") as f:
            lines = [ln for ln in f.read().splitlines() if "BEAM=2" in ln]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("the heuristic's kernel", lines[0])


if __name__ == "__main__":
    unittest.main()
