"""The ctypes binding of the C API (tinygrad_mlir.capi): the compiler and runtime in-process.

Needs libTinygradCAPI.so (`make build`); without it every test here fails with the
CAPINotFound message (a missing library is a failure, not a skip).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from tinygrad_mlir import capi  # noqa: E402
from tinygrad_mlir.capi import CAPIError  # noqa: E402

INPUTS = os.path.join(REPO, "unittests", "CAPI", "Inputs")
SYMBOLIC = open(os.path.join(INPUTS, "symbolic.mlir"), encoding="utf-8").read()  # a*2 + a*3


def read(name):
    with open(os.path.join(INPUTS, name), encoding="utf-8") as f:
        return f.read()


def var_add_case(k=3):
    """The var_add kernel as a case: out[i] = in[i] + k."""
    text = "\n".join(ln for ln in read("var_add.json").split("\n") if not ln.startswith("//"))
    ins = [0.5 * i - 1 for i in range(8)]
    return {"id": "var_add", "ast": json.loads(text)["ast"],
            "params": [{"slot": 0, "dtype": "float32", "size": 8}, {"slot": 1, "dtype": "float32", "size": 8}],
            "var_vals": {"k": k}, "inputs": {"1": ins}, "outputs": {"0": [x + k for x in ins]}}


class TestLibrary(unittest.TestCase):
    def test_found_and_versioned(self):
        self.assertTrue(capi.library_path().endswith("libTinygradCAPI.so"))
        self.assertEqual(capi.library().tgc_api_version(), capi.API_VERSION)

    def test_env_must_name_a_file(self):
        old = os.environ.get(capi.ENV_LIBRARY)
        os.environ[capi.ENV_LIBRARY] = "/nonexistent/libTinygradCAPI.so"
        try:
            with self.assertRaisesRegex(capi.CAPINotFound, "TINYGRAD_MLIR_CAPI='/nonexistent/.*' is not a file"):
                capi.find_library()
        finally:
            if old is None:
                del os.environ[capi.ENV_LIBRARY]
            else:
                os.environ[capi.ENV_LIBRARY] = old


class TestModules(unittest.TestCase):
    def setUp(self):
        self.ctx = capi.Context()

    def tearDown(self):
        self.ctx.close()

    def test_pipeline_ir_after_each_pass(self):
        with self.ctx.parse_mlir(SYMBOLIC, name="sym.mlir") as m:
            seen = m.run_pipeline("tg-symbolic,cse", collect_ir=True)
            self.assertEqual([p for p, _ in seen], ["tg-symbolic", "cse"])
            self.assertIn("tg.const 5", seen[0][1])  # a*2 + a*3 -> a*5
            self.assertEqual(seen[-1][1], m.print())
            calls = []
            m.run_pipeline("builtin.module(canonicalize)", after_pass=lambda p, ir: calls.append(p))
            self.assertEqual(calls, ["canonicalize"])
            self.assertIn('"tg.param"', m.print(generic=True))

    def test_errors_carry_diagnostics(self):
        with self.assertRaises(CAPIError) as cm:
            self.ctx.parse_mlir("%0 = tg.nonsense()", name="junk.mlir")
        self.assertEqual(cm.exception.status, "TGC_PARSE_ERROR")
        self.assertIn("junk.mlir:1:6: error: custom op 'tg.nonsense' is unknown", cm.exception.message)
        with self.assertRaises(CAPIError) as cm:
            self.ctx.parse_mlir("%0 = tg.const 1 : f32", name="v.mlir")
        self.assertEqual(cm.exception.status, "TGC_VERIFY_ERROR")
        with self.assertRaises(CAPIError) as cm:
            self.ctx.import_json('{"nodes": [', name="trunc.json")
        self.assertIn("trunc.json:1:", cm.exception.message)
        with self.ctx.parse_mlir(SYMBOLIC) as m:
            with self.assertRaisesRegex(CAPIError, "TGC_PARSE_ERROR: invalid pass pipeline 'nope'"):
                m.run_pipeline("nope")
            with self.assertRaisesRegex(CAPIError, "TGC_VERIFY_ERROR|TGC_COMPILE_FAILED"):
                m.compile_cpu()

    def test_json_round_trip(self):
        with self.ctx.import_json(read("var_add.json"), graph_path="ast") as m:
            with self.ctx.import_json(m.export_json()) as back:
                self.assertEqual(m.print(), back.print())

    def test_closed_handles(self):
        m = self.ctx.parse_mlir(SYMBOLIC)
        m.close()
        m.close()  # idempotent
        with self.assertRaisesRegex(ValueError, "Module is closed"):
            m.print()


class TestKernels(unittest.TestCase):
    def test_compile_info_and_text(self):
        stages = []
        with capi.Context() as ctx, ctx.import_json(read("var_add.json"), graph_path="ast") as m:
            with m.compile_cpu(keep=("mlir", "asm"), after_pass=lambda p, ir: stages.append(p)) as k:
                i = k.info
                self.assertEqual((i["globals"], i["outs"], i["ins"], i["vars"], i["core_id_arg"]),
                                 ([0, 1], [0], [1], ["k"], -1))
                self.assertEqual((i["global_size"], i["global_size_expr"]), ([1, 1, 1], ["1", "1", "1"]))
                self.assertEqual(i["global_elements"], [8, 8])
                self.assertEqual(k.object[:4], b"\x7fELF")
                self.assertIn("func.func @test", k.text("mlir"))
                self.assertIn("test:", k.text("asm"))
                self.assertEqual(k.text("llvm"), "")
                res = k.result()
                self.assertEqual(res["binary"], k.object)
        self.assertEqual(stages[0], "tg-lower-kernel")
        self.assertGreater(len(stages), 3)
        with self.assertRaisesRegex(ValueError, "keep takes"):
            capi.Context().parse_mlir("").compile_cpu(keep=("ptx",))

    def test_int64_variable(self):
        # tinygrad's `const long b`: the value's high half reaches the kernel (it arrived as 0)
        with capi.Context() as ctx, ctx.import_json(read("var_long.json"), graph_path="ast") as m:
            with m.compile_cpu() as k, capi.Device() as dev:
                self.assertEqual((k.info["vars"], k.info["var_dtypes"]), (["b"], ["int64"]))
                self.assertEqual(k.result()["var_dtypes"], ["int64"])
                out = dev.buffer(8)
                with k.load(dev) as prg:
                    for v in (2**35, 2**40 - 3):
                        prg([out], [v])
                        self.assertEqual(capi.decode(out.read(), "int64"), [v])
                out.close()

    def test_run_case(self):
        r = capi.run_case(var_add_case(4))
        self.assertTrue(r["match"], r["mismatches"])
        self.assertEqual(r["outputs"][0], [0.5 * i - 1 + 4 for i in range(8)])
        wrong = var_add_case(4)
        wrong["var_vals"]["k"] = 5
        r = capi.run_case(wrong)
        self.assertFalse(r["match"])
        self.assertEqual(len(r["mismatches"]), 8)

    def test_threads_split(self):
        # sum over 256 floats with 2 threads allowed: still one result (the thread split is
        # the compiler's choice); the kernel runs and its ProgramInfo is consistent
        with capi.Context() as ctx, ctx.import_json(read("sum_all.json"), graph_path="ast") as m:
            with m.compile_cpu(max_threads=2) as k, capi.Device() as dev:
                self.assertEqual(k.info["core_id_arg"] >= 0, "core_id" in k.info["vars"])
                out, inp = dev.buffer(4), dev.buffer(capi.encode(list(range(256)), "float32"))
                with k.load(dev) as prg:
                    prg([{0: out, 1: inp}[s] for s in k.info["globals"]], [0] * len(k.info["vars"]))
                self.assertEqual(capi.decode(out.read(), "float32"), [sum(range(256))])
                with self.assertRaisesRegex(CAPIError, "takes 2 buffers, got 1"):
                    k.load(dev)([out], [])
                out.close()
                inp.close()

    def test_one_context_per_thread(self):
        text, results = read("sum_all.json"), []

        def work():
            with capi.Context() as ctx:
                for _ in range(3):
                    with ctx.import_json(text, graph_path="ast") as m, m.compile_cpu() as k:
                        results.append(len(k.object))
        ts = [threading.Thread(target=work) for _ in range(3)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(len(results), 9)
        self.assertEqual(len(set(results)), 1)


def corpus_dir():
    return os.path.abspath(os.environ.get("TG_CORPUS_DIR", os.path.join(REPO, "..", "shared", "corpus")))


class TestCorpus(unittest.TestCase):
    def test_corpus_kernels_match_tinygrad(self):
        kernels = os.path.join(corpus_dir(), "kernels")
        if not os.path.isdir(kernels):
            self.skipTest(f"corpus directory {kernels} not found (set TG_CORPUS_DIR)")
        with open(os.path.join(REPO, "test", "Codegen", "known-mismatches.txt")) as f:
            known = {ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")}
        bad, ran = [], 0
        with capi.Context() as ctx, capi.Device() as dev:
            for name in sorted(os.listdir(kernels)):
                if not name.endswith(".json") or name[:-5] in known:
                    continue
                r = capi.run_case(os.path.join(kernels, name), context=ctx, device=dev)
                ran += 1
                if not r["match"]:
                    bad.append((name, r["mismatches"][:2]))
        self.assertGreater(ran, 50)
        self.assertEqual(bad, [])


class TestOutsideTheBuildTree(unittest.TestCase):
    """`pip install` of python/ into a target dir: the copy imports and finds a library by itself."""

    def test_pip_install(self):
        with tempfile.TemporaryDirectory() as tmp:
            # from a copy: pip builds in the source directory
            src, target = os.path.join(tmp, "src"), os.path.join(tmp, "site")
            shutil.copytree(os.path.join(REPO, "python"), src,
                            ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info"))
            # plain child interpreters: under scripts/python-lsan.sh the preloaded sanitizer would
            # fail pip on CPython's own exit-time leaks (this process's run covers our library)
            env = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", capi.ENV_LIBRARY, "LD_PRELOAD", "ASAN_OPTIONS")}
            env["TINYGRAD_MLIR_BUILD"] = os.path.join(REPO, "build")
            p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                                "--no-deps", "--no-compile", "-q", "--target", target, src],
                               capture_output=True, text=True, env=env, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            env["PYTHONPATH"] = target
            code = ("import tinygrad_mlir, tinygrad_mlir.capi as c; print(c.library_path()); "
                    "print(c.run_case(__import__('json').load(open('case.json')))['match']); "
                    "print((tinygrad_mlir.Tensor([[1.0, 2.0], [3.0, 4.0]]) * 2).sum().item())")
            with open(os.path.join(tmp, "case.json"), "w") as f:
                json.dump(var_add_case(2), f)
            p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            path, match, total = p.stdout.split()
            self.assertTrue(path.startswith(target), path)  # the package's own copy
            self.assertEqual(match, "True")
            self.assertEqual(total, "20.0")  # the Tensor front end, realized through the installed library


if __name__ == "__main__":
    unittest.main()
