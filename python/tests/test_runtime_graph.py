"""TinyJit through our runtime's graphs (runtime_graph.py): on DEV=CPU:MLIR a jitted function's
kernels and copies are replayed as one tgrt_graph, with new inputs, variables and launch dims patched
per call, and tinygrad's own CPU runner runs none of them.

tinygrad runs in a subprocess with DEV=CPU:MLIR (as a user sets it); the script counts the calls of
the device's kernel-by-kernel runner (tinygrad's CPUProgram, cpu_program's RuntimeCPUProgram) during
replays (must be 0: the graph ran them) and reports runtime_graph.stats.
Needs TINYGRAD_SRC (the tinygrad checkout)."""
import json
import os
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
SITE = os.path.join(PYDIR, "tinygrad_mlir", "site")
TG = os.environ.get("TINYGRAD_SRC")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

PRELUDE = textwrap.dedent("""
    import json
    import numpy as np
    from tinygrad import Tensor, TinyJit, Variable, Device
    from tinygrad.runtime.ops_cpu import CPUProgram
    from tinygrad_mlir import runtime_graph as rg
    from tinygrad_mlir.cpu_program import RuntimeCPUProgram
    from tinygrad_mlir.gpu_device import GPUProgram
    calls = {"runner": 0}
    def counted(cls):
        orig = cls.__call__
        def counting(self, *a, **k):
            calls["runner"] += 1
            return orig(self, *a, **k)
        cls.__call__ = counting
    counted(CPUProgram)
    counted(RuntimeCPUProgram)  # our kernels outside the JIT (cpu_program.py)
    counted(GPUProgram)
    def replay(fn, *args):
        # a replay of an already captured jit: the device's kernel-by-kernel runner must not run its kernels
        before = calls["runner"]
        out = fn(*args)
        assert fn.cnt >= 3, fn.cnt
        assert calls["runner"] == before, f"the kernel-by-kernel runner ran {calls['runner'] - before} kernels"
        return out
    rng = np.random.default_rng(0)
""")


def run(code, extra_env=None, dev="CPU:MLIR", prelude=PRELUDE):
    """`prelude` + `code` in a tinygrad subprocess on `dev` (no compile workers, none of our caller's
    TINYGRAD_MLIR_*); the JSON of its `RESULT ` line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYGRAD_MLIR_", "PYTEST_"))}
    env.update({"DEV": dev, "PYTHONPATH": os.pathsep.join([SITE, PYDIR, TG]), "PARALLEL": "0"})
    env.update(extra_env or {})
    p = subprocess.run([PY, "-c", prelude + textwrap.dedent(code)], env=env, capture_output=True, text=True,
                       timeout=600, cwd=TG)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError(f"no RESULT line (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")


@unittest.skipUnless(TG, "needs TINYGRAD_SRC (a tinygrad checkout at a9069c17)")
class TestRuntimeGraph(unittest.TestCase):
    dev = "CPU:MLIR"

    def run_jit(self, code, extra_env=None):
        return run(code, extra_env, self.dev)

    def test_new_inputs_are_patched(self):
        r = self.run_jit("""
            @TinyJit
            def f(a, b):
                c = (a + b).contiguous().realize()
                return ((c * 2).sum(axis=1).contiguous() + c[:, 0]).realize()
            same = Tensor(rng.standard_normal((16, 8)).astype(np.float32)).realize()
            for i in range(8):
                a = same if i in (3, 4) else Tensor(rng.standard_normal((16, 8)).astype(np.float32)).realize()
                b = Tensor(rng.standard_normal((16, 8)).astype(np.float32)).realize()
                out = (replay(f, a, b) if i >= 2 else f(a, b)).numpy()
                c = a.numpy() + b.numpy()
                np.testing.assert_allclose(out, (c * 2).sum(axis=1) + c[:, 0], rtol=1e-5, atol=1e-5)
            print("RESULT " + json.dumps(rg.stats))
        """)
        self.assertEqual(r["graphs"], 1)
        self.assertEqual(r["launches"], 7)  # the capture call and 6 replays
        self.assertGreaterEqual(r["execs"], 2)
        # a and b are new in every call but the one that passes `same` again (its a is unchanged)
        self.assertGreater(r["buffer_updates"], 0)

    def test_variables_and_symbolic_shapes(self):
        r = self.run_jit("""
            @TinyJit
            def g(a, b):
                s = (a @ b).realize()
                return (s + s).realize(), (a * 2).realize()  # a kernel over 3 x i elements
            A = Tensor(rng.standard_normal((3, 10)).astype(np.float32)).realize()
            B = Tensor(rng.standard_normal((10, 5)).astype(np.float32)).realize()
            for i in [1, 2, 3, 7, 7, 4, 10]:
                vi = Variable("i", 1, 10).bind(i)
                out, twice = replay(g, A[:, :vi], B[:vi, :]) if g.cnt >= 2 else g(A[:, :vi], B[:vi, :])
                np.testing.assert_allclose(out.numpy(), 2 * (A.numpy()[:, :i] @ B.numpy()[:i, :]), rtol=1e-5, atol=1e-5)
                np.testing.assert_allclose(twice[:, :i].numpy(), 2 * A.numpy()[:, :i])
            print("RESULT " + json.dumps(rg.stats))
        """)
        self.assertEqual(r["graphs"], 1)
        self.assertEqual(r["launches"], 6)
        # i changes in every call but one (7, 7): only changed values are patched
        self.assertGreater(r["arg_updates"], 0)
        if self.dev == "VULKAN":  # the launch dims follow i
            self.assertGreater(r["dispatch_updates"], 0)

    def test_copies_between_cpu_devices(self):
        self.cpu_only()
        r = self.run_jit("""
            @TinyJit
            def f(a):
                x = a.to("CPU:1").realize()
                return (x * 3 + 1).realize(), (a - 1).realize()
            for i in range(5):
                a = Tensor(rng.standard_normal((10, 10)).astype(np.float32)).realize()
                x, y = replay(f, a) if i >= 2 else f(a)
                assert x.device == "CPU:1"
                np.testing.assert_allclose(x.numpy(), a.numpy() * 3 + 1, rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(y.numpy(), a.numpy() - 1, rtol=1e-6)
            print("RESULT " + json.dumps(rg.stats))
        """)
        self.assertEqual(r["graphs"], 1)
        self.assertEqual(r["copies"], 1)
        self.assertEqual(r["launches"], 4)
        # the copy is on the copy queue: x * 3 + 1 waits for it; a - 1 only reads what the copy reads
        self.assertEqual(r["waits"], 1)

    def test_core_id_kernels_run_on_all_threads(self):
        self.cpu_only()
        r = self.run_jit("""
            N = 1 << 18
            @TinyJit
            def f(x, st):
                y = (x + 1).contiguous().realize()
                z = x.shrink(((st, st + N),)).contiguous().realize()
                return y, z
            for i in range(4):
                x = (Tensor.arange(2 * N) + i).float().clone().realize()
                y, z = f(x, Variable("a", 0, N).bind(i * 7))
                np.testing.assert_allclose(y.numpy(), x.numpy() + 1)
                np.testing.assert_allclose(z.numpy(), x.numpy()[i * 7:i * 7 + N])
            print("RESULT " + json.dumps(rg.stats))
        """)
        self.assertEqual(r["graphs"], 1)
        self.assertEqual(r["launches"], 3)

    def test_check_mode_keeps_tinygrads_runner(self):
        # TINYGRAD_MLIR_CHECK compares every launch with tinygrad's program, so it takes no graph
        self.cpu_only()
        r = self.run_jit("""
            @TinyJit
            def f(a):
                return ((a + 1).contiguous() * 2).realize()
            for i in range(4):
                a = Tensor(rng.standard_normal((8,)).astype(np.float32)).realize()
                np.testing.assert_allclose(f(a).numpy(), (a.numpy() + 1) * 2, rtol=1e-6)
            from tinygrad_mlir.tinygrad import stats
            print("RESULT " + json.dumps({**rg.stats, "checked": stats["checked"]}))
        """, {"TINYGRAD_MLIR_CHECK": "1"})
        self.assertEqual(r["graphs"], 0)
        self.assertGreater(r["checked"], 0)

    def cpu_only(self):
        if self.dev != "CPU:MLIR":
            self.skipTest("tinygrad's CPU devices only")


@unittest.skipIf(os.environ.get("TGRT_TEST_NO_VULKAN"), "TGRT_TEST_NO_VULKAN is set")
class TestRuntimeGraphVulkan(TestRuntimeGraph):
    """The same on our Vulkan device (lavapipe in CI): buffers and programs are the runtime's own."""
    dev = "VULKAN"


if __name__ == "__main__":
    unittest.main()
