"""Our kernels outside TinyJit (cpu_program.py): on DEV=CPU:MLIR tinygrad's CPU device runs each of our
ELF objects through our runtime (tgrt_program_launch), a kernel split over core_id on all its lanes,
and tinygrad's own runner runs none of them; tinygrad's own programs keep its runner.

tinygrad runs in a subprocess with DEV=CPU:MLIR and NUM_CPU_THREADS (as a user sets them); the script
counts the calls of tinygrad's CPUProgram and reports cpu_program.stats. TestCPUMemory: large buffers of
DEV=CPU:MLIR are private mappings advised MADV_HUGEPAGE (cpu_memory.py), DEV=CPU's are tinygrad's.
Needs TINYGRAD_SRC."""
import os
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_runtime_graph import TG, run as run_tinygrad  # noqa: E402

PRELUDE = textwrap.dedent("""
    import json
    import numpy as np
    from tinygrad import Tensor, Variable, Device, Context
    from tinygrad.runtime.ops_cpu import CPUProgram
    from tinygrad_mlir import cpu_program
    calls = {"tinygrad": 0, "lanes": []}
    orig = CPUProgram.__call__
    def counting(self, *a, **k):
        calls["tinygrad"] += 1
        return orig(self, *a, **k)
    CPUProgram.__call__ = counting
    ours = cpu_program.RuntimeCPUProgram.__call__
    def lanes(self, *a, global_size=(1, 1, 1), **k):
        calls["lanes"].append(int(global_size[0]) if self.core_id >= 0 else 0)
        return ours(self, *a, global_size=global_size, **k)
    cpu_program.RuntimeCPUProgram.__call__ = lanes
    rng = np.random.default_rng(0)
""")


def run(code, threads=2, extra_env=None, prelude=PRELUDE):
    return run_tinygrad(code, {"NUM_CPU_THREADS": str(threads), **(extra_env or {})}, prelude=prelude)


@unittest.skipUnless(TG, "needs TINYGRAD_SRC (a tinygrad checkout at a9069c17)")
class TestCPUProgram(unittest.TestCase):
    def test_split_kernels_run_every_lane_through_the_runtime(self):
        # big enough that the heuristic splits them over the 2 cores: a lane left out leaves its half unwritten
        r = run("""
            a = Tensor(rng.standard_normal((256, 256)).astype(np.float32)).realize()
            b = Tensor(rng.standard_normal((256, 256)).astype(np.float32)).realize()
            x = Tensor(rng.standard_normal((1 << 18,)).astype(np.float32)).realize()
            calls["tinygrad"], calls["lanes"] = 0, []
            np.testing.assert_allclose((a @ b).numpy(), a.numpy() @ b.numpy(), rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose((x * 2 + 1).exp().numpy(), np.exp(x.numpy() * 2 + 1), rtol=1e-5)
            print("RESULT " + json.dumps({**calls, **cpu_program.stats}))
        """)
        self.assertEqual(r["tinygrad"], 0, "tinygrad's runner ran one of our kernels")
        self.assertGreaterEqual(r["launches"], 2)
        self.assertIn(2, r["lanes"], "no kernel was launched on 2 lanes")

    def test_variables_are_passed(self):
        r = run("""
            N = 1 << 16
            x = Tensor(rng.standard_normal((4 * N,)).astype(np.float32)).realize()
            calls["tinygrad"] = 0
            for st in (0, 5, 3 * N - 7):
                v = Variable("st", 0, 3 * N).bind(st)
                y = x.shrink(((v, v + N),)).contiguous() * 3
                np.testing.assert_allclose(y.numpy(), x.numpy()[st:st + N] * 3, rtol=1e-6)
            print("RESULT " + json.dumps({**calls, **cpu_program.stats}))
        """)
        self.assertEqual(r["tinygrad"], 0)
        self.assertGreaterEqual(r["launches"], 3)

    def test_programs_tinygrad_drops_are_freed(self):
        r = run("""
            import gc
            from tinygrad.engine import realize
            x = Tensor(rng.standard_normal((1 << 12,)).astype(np.float32)).realize()
            np.testing.assert_allclose((x + 7).numpy(), x.numpy() + 7, rtol=1e-6)
            loaded = cpu_program.stats["programs"]
            realize.runtime_cache.clear()
            gc.collect()
            freed = cpu_program.stats["freed"]
            np.testing.assert_allclose((x + 7).numpy(), x.numpy() + 7, rtol=1e-6)  # loaded again
            print("RESULT " + json.dumps({"loaded": loaded, "freed": freed, "reloaded": cpu_program.stats["programs"] - loaded}))
        """)
        self.assertGreater(r["loaded"], 0)
        self.assertEqual(r["freed"], r["loaded"])
        self.assertGreater(r["reloaded"], 0)

    def test_one_thread_runs_one_lane(self):
        r = run("""
            x = Tensor(rng.standard_normal((1 << 18,)).astype(np.float32)).realize()
            calls["lanes"] = []
            np.testing.assert_allclose((x + 1).numpy(), x.numpy() + 1, rtol=1e-6)
            print("RESULT " + json.dumps({**calls, **cpu_program.stats}))
        """, threads=1)
        self.assertTrue(r["lanes"] and all(n <= 1 for n in r["lanes"]), r["lanes"])

    def test_tinygrads_own_programs_keep_its_runner(self):
        # DEV=CPU:CLANG: tinygrad's C renderer, its objects run by its own CPUProgram
        r = run("""
            with Context(DEV="CPU:CLANG"):
                x = Tensor(rng.standard_normal((64,)).astype(np.float32)).realize()
                before = cpu_program.stats["launches"]
                np.testing.assert_allclose((x * 5).numpy(), x.numpy() * 5, rtol=1e-6)
            print("RESULT " + json.dumps({**calls, "ours": cpu_program.stats["launches"] - before}))
        """)
        self.assertGreater(r["tinygrad"], 0)
        self.assertEqual(r["ours"], 0)

    def test_check_mode_compares_our_launches(self):
        # TINYGRAD_MLIR_CHECK wraps our program: tinygrad's runs on copies, then ours, and they are compared
        r = run("""
            x = Tensor(rng.standard_normal((1 << 18,)).astype(np.float32)).realize()
            np.testing.assert_allclose((x * 2 - 1).numpy(), x.numpy() * 2 - 1, rtol=1e-6)
            from tinygrad_mlir.tinygrad import stats
            print("RESULT " + json.dumps({**cpu_program.stats, "checked": stats["checked"],
                                          "mismatched": stats["mismatched"]}))
        """, extra_env={"TINYGRAD_MLIR_CHECK": "1"})
        self.assertGreater(r["checked"], 0)
        self.assertEqual(r["mismatched"], 0)
        self.assertGreaterEqual(r["launches"], r["checked"])


# the VmFlags of the mapping holding an address (/proc/self/smaps): "hg" is MADV_HUGEPAGE, "sh" a shared mapping
VMFLAGS = textwrap.dedent("""
    def vmflags(addr):
        start = None
        for line in open("/proc/self/smaps"):
            head = line.split()[0]
            if "-" in head and all(c in "0123456789abcdef-" for c in head):
                lo, hi = (int(x, 16) for x in head.split("-"))
                start = lo <= addr < hi
            elif head == "VmFlags:" and start:
                return line.split()[1:]
        raise AssertionError(f"no mapping holds {addr:#x}")
    def flags_of(t):
        return vmflags(t.uop.buffer._buf.va_addr)
""")


@unittest.skipUnless(TG, "needs TINYGRAD_SRC (a tinygrad checkout at a9069c17)")
@unittest.skipUnless(os.path.exists("/proc/self/smaps"), "needs /proc/self/smaps")
class TestCPUMemory(unittest.TestCase):
    def test_large_buffers_are_private_and_advised_huge(self):
        r = run(prelude=PRELUDE + VMFLAGS, code="""
            x = rng.standard_normal((1 << 20,)).astype(np.float32)
            big = (Tensor(x) * 2).realize()  # 4 MiB
            small = (Tensor(x[:1024]) * 2).realize()
            np.testing.assert_allclose(big.numpy(), x * 2)
            print("RESULT " + json.dumps({"big": flags_of(big), "small": flags_of(small),
                                          "huge": __import__("tinygrad_mlir.cpu_memory").cpu_memory.stats["huge"]}))
        """)
        self.assertIn("hg", r["big"])
        self.assertNotIn("sh", r["big"])
        self.assertNotIn("hg", r["small"])
        self.assertGreater(r["huge"], 0)

    def test_huge_pages_can_be_turned_off(self):
        r = run(prelude=PRELUDE + VMFLAGS, extra_env={"TINYGRAD_MLIR_HUGE_PAGES": "0"}, code="""
            big = (Tensor(rng.standard_normal((1 << 20,)).astype(np.float32)) * 2).realize()
            print("RESULT " + json.dumps({"big": flags_of(big),
                                          "huge": __import__("tinygrad_mlir.cpu_memory").cpu_memory.stats["huge"]}))
        """)
        self.assertIn("sh", r["big"])
        self.assertNotIn("hg", r["big"])
        self.assertEqual(r["huge"], 0)

    def test_tinygrads_compiler_keeps_its_allocator(self):
        r = run(prelude=PRELUDE + VMFLAGS, code="""
            with Context(DEV="CPU:CLANG"):
                big = (Tensor(rng.standard_normal((1 << 20,)).astype(np.float32)) * 2).realize()
                print("RESULT " + json.dumps({"big": flags_of(big)}))
        """)
        self.assertIn("sh", r["big"])
        self.assertNotIn("hg", r["big"])


if __name__ == "__main__":
    unittest.main()
