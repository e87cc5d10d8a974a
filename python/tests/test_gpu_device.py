"""The runtime half of tinygrad_mlir.gpu_device (DEV=VULKAN) on lavapipe: the allocator (buffers,
views, copies), a program container made from a SPIR-V kernel the build serializes
(unittests/Runtime/kernels/add.spirv.mlir: c[i] = a[i] + b[i] for i < n, views by their offsets
word) and its launch, and the errors a bad container or launch gives. Needs tinygrad (TINYGRAD_SRC)
and Vulkan (scripts/install-deps.sh installs lavapipe); TGRT_TEST_NO_VULKAN=1 skips, as the gtests."""
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))
TG = os.environ.get("TINYGRAD_SRC")
if TG:
    sys.path.insert(0, TG)
BUILD = os.environ.get("TINYGRAD_MLIR_BUILD", os.path.join(REPO, "build"))
SPV = os.path.join(BUILD, "unittests", "Runtime", "kernels", "add_spirv.spv")


@unittest.skipUnless(TG, "needs TINYGRAD_SRC (a tinygrad checkout at a9069c17)")
@unittest.skipIf(os.environ.get("TGRT_TEST_NO_VULKAN"), "TGRT_TEST_NO_VULKAN is set")
class TestGPUDevice(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from tinygrad_mlir import gpu_device
        from tinygrad.dtype import dtypes
        cls.gd, cls.dtypes = gpu_device, dtypes
        cls.dev = gpu_device.VulkanDevice("VULKAN")
        with open(SPV, "rb") as f:
            cls.spirv = f.read()

    def program(self, **meta):
        from tinygrad.device import TinyELF
        m = {"format": "spirv", "entry": "add", "num_buffers": 3, "scalar_bytes": [4], "offsets_word": 1,
             "local_size": [1, 1, 1], **meta}
        f32 = self.dtypes.float32
        sig = (("a", 0, f32, ()), ("b", 1, f32, ()), ("c", 2, f32, ()), ("n", 3, self.dtypes.int32, ()))
        return self.gd.GPUProgram(self.dev, TinyELF(self.gd.pack_binary(m, self.spirv), "add", None, sig))

    def floats(self, xs):
        return struct.pack(f"<{len(xs)}f", *xs)

    def test_add_through_views(self):
        a = self.dev.allocator
        base = a.alloc(64)
        a._copyin(base, memoryview(self.floats(range(16))))
        x, y = a._offset(base, 16, 4), a._offset(base, 16, 36)  # floats 1..4 and 9..12
        out = a.alloc(16)
        self.program()(x, y, out, global_size=(4, 1, 1), local_size=(1, 1, 1), vals=(4,))
        got = bytearray(16)
        a._copyout(memoryview(got), out)
        self.assertEqual(struct.unpack("<4f", got), (10.0, 12.0, 14.0, 16.0))

    def test_renderer_facts_come_from_the_target_description(self):
        """The dtypes tinygrad may schedule on DEV=VULKAN and the group limits are the compiler's target
        description's (tgc_target_describe) within the device's, not a list kept here."""
        from tinygrad_mlir import capi
        t = capi.describe_target("vulkan")
        self.assertEqual((t["name"], t["device"], t["offsets_word"]), ("vulkan", "VULKAN", 1))
        self.assertNotIn("fp8e4m3", t["dtypes"])
        r = self.dev.renderer
        names = {self.gd._dtype_name(d) for d in r.supported_dtypes()}
        self.assertTrue(names <= set(t["dtypes"]), names - set(t["dtypes"]))
        self.assertIn("float32", names)
        self.assertNotIn("fp8e4m3", names)
        self.assertIn("bfloat16", names)  # emulated in 16-bit integers, which lavapipe has
        for have, limit in zip(self.gd.VulkanRenderer.local_max, t["local_max"]):
            self.assertLessEqual(have, limit)
        self.assertLessEqual(self.gd.VulkanRenderer.shared_max, t["shared_max_bytes"])
        with self.assertRaisesRegex(capi.CAPIError, "sm_50"):
            capi.describe_target("cuda:sm_50")

    def test_container_round_trip_and_errors(self):
        meta, binary = self.gd.unpack_binary(self.gd.pack_binary({"format": "spirv"}, b"\x03\x02\x23\x07"))
        self.assertEqual((meta, binary), ({"format": "spirv"}, b"\x03\x02\x23\x07"))
        with self.assertRaisesRegex(ValueError, "no TGGPU1 header"):
            self.gd.unpack_binary(self.spirv)
        with self.assertRaisesRegex(RuntimeError, "3 buffers in tinygrad's signature, 2 in the binary"):
            self.program(num_buffers=2)

    def test_launch_at_another_local_size_is_an_error(self):
        prg = self.program()
        b = self.dev.allocator.alloc(16)
        with self.assertRaisesRegex(RuntimeError, "compiled for"):
            prg(b, b, b, global_size=(1, 1, 1), local_size=(2, 1, 1), vals=(1,))

    def test_a_binary_the_driver_rejects_is_an_error(self):
        from tinygrad.device import TinyELF
        from tinygrad_mlir.capi import CAPIError
        sig = (("a", 0, self.dtypes.float32, ()),)
        m = {"format": "spirv", "entry": "add", "num_buffers": 1, "scalar_bytes": [], "local_size": [1, 1, 1]}
        with self.assertRaises(CAPIError):
            self.gd.GPUProgram(self.dev, TinyELF(self.gd.pack_binary(m, b"not spirv at all"), "add", None, sig))


if __name__ == "__main__":
    unittest.main()


VK_PROGRAM = r"""
import json, numpy as np
from tinygrad import Tensor, Device
import tinygrad_mlir.tinygrad as hook
x = np.random.RandomState(0).randn(33, 17).astype(np.float32)
y = np.random.RandomState(1).randn(17, 9).astype(np.float32)
out = {
  "device": Device.DEFAULT, "renderer": type(Device[Device.DEFAULT].renderer).__name__,
  "add": (Tensor([1.0, 2.0, 3.0]) + Tensor([10.0, 20.0, 30.0])).tolist(),
  "matmul_relu": float(np.abs((Tensor(x) @ Tensor(y)).relu().numpy() - np.maximum(x @ y, 0)).max()),
  "softmax": float(np.abs(Tensor(x).softmax(axis=1).numpy() - np.exp(x) / np.exp(x).sum(1, keepdims=True)).max()),
  "int_where": Tensor([3, -4, 5]).maximum(0).tolist(),
  # INT_MIN's remainder keeps its sign (upstream's SPIR-V emulation of remsi lost it)
  "int64_mod": (Tensor([-2**63, -2**63 + 1, -1, 9], dtype="int64") % 7).tolist(),
  "int64_mod_neg": (Tensor([-2**63, -2**63 + 1, -1, 9], dtype="int64") % -7).tolist(),
  "int32_mod": (Tensor([-2**31, -2**31 + 1, -1, 9], dtype="int32") % 7).tolist(),
  "compiled": hook.stats["compiled"],
}
print("RESULT " + json.dumps(out))
"""


@unittest.skipUnless(TG, "needs TINYGRAD_SRC (a tinygrad checkout at a9069c17)")
@unittest.skipIf(os.environ.get("TGRT_TEST_NO_VULKAN"), "TGRT_TEST_NO_VULKAN is set")
class TestTinygradOnVulkan(unittest.TestCase):
    """DEV=VULKAN: tinygrad schedules, we compile every kernel for the target "vulkan" (tgc_compile_kernel)
    and run it through the runtime's Vulkan driver (lavapipe here); no kernel runs elsewhere."""

    def test_programs_match_numpy(self):
        import json
        import subprocess
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYGRAD_MLIR_", "PYTEST_"))}
        env.update({"DEV": "VULKAN", "PARALLEL": "0",
                    "PYTHONPATH": os.pathsep.join([os.path.join(REPO, "python", "tinygrad_mlir", "site"),
                                                   os.path.join(REPO, "python"), TG])})
        p = subprocess.run(["/usr/bin/python3", "-c", VK_PROGRAM], env=env, capture_output=True, text=True,
                           timeout=600, cwd=TG)
        line = next((ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")), None)
        self.assertIsNotNone(line, p.stdout[-2000:] + p.stderr[-4000:])
        r = json.loads(line[len("RESULT "):])
        self.assertEqual((r["device"], r["renderer"]), ("VULKAN", "VulkanRenderer"))
        self.assertEqual(r["add"], [11.0, 22.0, 33.0])
        self.assertLess(r["matmul_relu"], 1e-5)
        self.assertLess(r["softmax"], 1e-6)
        self.assertEqual(r["int_where"], [3, 0, 5])
        for key, lo, d in (("int64_mod", -2**63, 7), ("int64_mod_neg", -2**63, -7), ("int32_mod", -2**31, 7)):
            self.assertEqual(r[key], [x % d for x in (lo, lo + 1, -1, 9)], key)  # Python's %: tinygrad's
        self.assertGreaterEqual(r["compiled"], 5)  # every kernel through our compiler

    def test_capi_compiles_for_vulkan_and_refuses_unknown_targets(self):
        from tinygrad_mlir import capi
        corpus = os.environ.get("TG_CORPUS_DIR", os.path.join(REPO, os.pardir, "shared", "corpus"))
        import glob
        import json
        path = sorted(glob.glob(os.path.join(corpus, "kernels", "*.json")))[0]
        with open(path) as f:
            ast = json.dumps(json.load(f)["ast"])
        with capi.Context() as ctx, ctx.import_json(ast) as mod:
            with mod.compile("vulkan") as k:
                self.assertEqual(k.info["format"], "spirv")
                self.assertEqual(k.object[:4], b"\x03\x02\x23\x07")
                self.assertEqual(len(k.info["local_size"]), 3)
            with self.assertRaisesRegex(capi.CAPIError, "metal"):
                mod.compile("metal")
