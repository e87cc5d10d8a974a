"""Stand-in tests of the tinygrad backend plumbing (no tinygrad needed).

Fake kernel ASTs (fakes.py) go through the real path: uop_json -> tinygrad-compile (subprocess) ->
result checks -> PROGRAM/ProgramInfo built by tinygrad_mlir.backend with fake tinygrad classes.
The object files are also linked into a shared library with clang-22 and run through ctypes, so
the kernel ABI (buffers in `globals` order, then int vars) is checked without tinygrad.
"""
import ctypes
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from tinygrad_mlir import backend  # noqa: E402
from tinygrad_mlir.backend import MLIRCompileError, CompilerNotFound  # noqa: E402
import fakes as F  # noqa: E402
from fakes import UOp, Ops, const, dtypes  # noqa: E402

try:
    COMPILER = backend.find_compiler()
except CompilerNotFound as e:
    COMPILER, NO_COMPILER = None, str(e)
CLANG = shutil.which("clang-22") or shutil.which("clang")
needs_compiler = unittest.skipIf(COMPILER is None, "tinygrad-compile is not built")


def buf(slot, size, dt=dtypes.int32):
    return UOp(Ops.PARAM, dt, (const(size),), F.ParamArg(slot, dt, device="CPU"))


def rng(i, size, kind=F.AxisType.WEAK):
    return UOp(Ops.RANGE, dtypes.weakint, (size if isinstance(size, UOp) else const(size),), (i, kind))


def var(name, lo, hi, dt=dtypes.weakint):
    return UOp(Ops.PARAM, dt, (UOp(Ops.STACK),), F.ParamArg(-1, dt, (lo, hi), 1, name, F.AddrSpace.ALU))


def sink(*srcs, name="test", tag=None):
    return UOp(Ops.SINK, dtypes.void, srcs, F.KernelInfo(name=name), tag)


def add_one_ast(n=3):
    """E_3: out[i] = in[i] + 1 (int32), the shape of tinygrad's Tensor([1,2,3])+1 kernel."""
    r = rng(0, n)
    out, inp = buf(0, n), buf(1, n)
    st = UOp(Ops.STORE, dtypes.void, (UOp(Ops.INDEX, dtypes.int32, (out, r)),
                                      UOp(Ops.ADD, dtypes.int32, (UOp(Ops.INDEX, dtypes.int32, (inp, r)), const(1)))))
    return sink(UOp(Ops.END, dtypes.void, (st, r)))


def var_store_ast(n):
    """E: out[0] = n, the kernel of tinygrad's Tensor(Variable("b", 0, 2**40, dtype=long).bind(v)).clone()."""
    st = UOp(Ops.STORE, dtypes.void, (UOp(Ops.INDEX, n.dtype, (buf(0, 1, n.dtype), const(0))), n))
    return sink(st)


def matmul_ast(m, k, n):
    """r_k_m_n: c[i,j] = sum_l a[i,l]*b[l,j] (float32)."""
    i, j, lr = rng(0, m), rng(1, n), rng(2, k, F.AxisType.REDUCE)
    c, a, b = buf(0, m * n, dtypes.float32), buf(1, m * k, dtypes.float32), buf(2, k * n, dtypes.float32)

    def lin(x, stride, y):
        return UOp(Ops.ADD, dtypes.weakint, (UOp(Ops.MUL, dtypes.weakint, (x, const(stride))), y))
    prod = UOp(Ops.MUL, dtypes.float32, (UOp(Ops.INDEX, dtypes.float32, (a, lin(i, k, lr))),
                                         UOp(Ops.INDEX, dtypes.float32, (b, lin(lr, n, j)))))
    red = UOp(Ops.REDUCE, dtypes.float32, (prod, lr), (Ops.ADD, 0))
    st = UOp(Ops.STORE, dtypes.void, (UOp(Ops.INDEX, dtypes.float32, (c, lin(i, n, j))), red))
    return sink(UOp(Ops.END, dtypes.void, (st, i, j)))


def var_sum_ast(hi=10, n=None):
    """r_n: out[0] = sum_{i<n} in[i]*2, n a Variable in [1, hi] (tinygrad's (t[:n]*2).sum())."""
    n = var("n", 1, hi) if n is None else n
    r = rng(0, n, F.AxisType.REDUCE)
    out, inp = buf(0, 1, dtypes.float32), buf(1, hi, dtypes.float32)
    red = UOp(Ops.REDUCE, dtypes.float32,
              (UOp(Ops.MUL, dtypes.float32, (UOp(Ops.INDEX, dtypes.float32, (inp, r)), const(2.0, dtypes.weakfloat))), r),
              (Ops.ADD, 0))
    return sink(UOp(Ops.STORE, dtypes.void, (UOp(Ops.INDEX, dtypes.float32, (out, const(0))), red)))


def fake_uops(globals_, estimates=(0, 0, 0)):
    """The compiler's "uops" for a program that lists only its buffers (in `globals` order)."""
    nodes, lin = [{"id": 0, "op": "CONST", "dtype": "weakint", "src": [], "arg": 3, "tag": None}], []
    for slot in globals_:
        lin.append(len(nodes))
        nodes.append({"id": len(nodes), "op": "PARAM", "dtype": "int32", "src": [0], "tag": None,
                      "arg": {"kind": "ParamArg", "slot": slot, "dtype": "int32", "vmin_vmax": None,
                              "multiple_of": None, "name": None, "addrspace": "GLOBAL", "axis": None,
                              "device": "CPU", "volatile": False}})
    nodes.append({"id": len(nodes), "op": "LINEAR", "dtype": "void", "src": lin, "arg": None, "tag": None})
    return {"applied_opts": [], "linear": {"nodes": nodes, "root": len(nodes) - 1}, "lanes": [1] * len(lin),
            "estimates": dict(zip(("ops", "lds", "mem"), estimates))}


def fake_result(**kw):
    res = {"name": "test", "object_hex": "7f454c46", "binary": b"\x7fELF", "globals": [0, 1], "outs": [0],
           "ins": [1], "vars": [], "var_dtypes": [], "core_id_arg": -1, "global_size": [1, 1, 1]}
    res.update(kw)
    if "var_dtypes" not in kw:
        res["var_dtypes"] = ["int32"] * len(res["vars"])
    res.setdefault("uops", fake_uops(res["globals"]))
    return res


def evaluate(u, env):
    """A weakint estimate expression (fake UOps) at the variables' values `env`."""
    if u.op is Ops.CONST:
        return u.arg
    if u.op is Ops.PARAM:
        return env[u.arg.name]
    a = [evaluate(s, env) for s in u.src]
    return {Ops.ADD: lambda: a[0] + a[1], Ops.MUL: lambda: a[0] * a[1], Ops.MAX: lambda: max(a),
            Ops.XOR: lambda: a[0] ^ a[1]}[u.op]()


class Env:
    """Temporarily set/unset environment variables."""

    def __init__(self, **kw):
        self.kw, self.saved = kw, {}

    def __enter__(self):
        for k, v in self.kw.items():
            self.saved[k] = os.environ.get(k)
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def __exit__(self, *a):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_object(res, args, tmp):
    """Link the ELF object into a .so with clang and call the kernel through ctypes."""
    obj, so = os.path.join(tmp, "k.o"), os.path.join(tmp, "k.so")
    with open(obj, "wb") as f:
        f.write(res["binary"])
    subprocess.run([CLANG, "-shared", "-nostdlib", "-o", so, obj], check=True, capture_output=True)
    fn = getattr(ctypes.CDLL(so), res["name"])
    fn.restype = None
    fn(*args)


class TestFindCompiler(unittest.TestCase):
    def test_env_must_be_executable(self):
        with Env(TINYGRAD_MLIR_COMPILE="/nonexistent/tinygrad-compile"):
            with self.assertRaisesRegex(CompilerNotFound, "TINYGRAD_MLIR_COMPILE='/nonexistent"):
                backend.find_compiler()

    @needs_compiler
    def test_env_wins_and_build_tree_default(self):
        with Env(TINYGRAD_MLIR_COMPILE=None):
            self.assertTrue(backend.find_compiler().endswith(os.path.join("build", "bin", "tinygrad-compile")))
        with Env(TINYGRAD_MLIR_COMPILE=COMPILER):
            self.assertEqual(backend.find_compiler(), COMPILER)

    def test_missing_build_tree_message(self):
        saved = backend._REPO
        backend._REPO = "/nonexistent-repo"
        try:
            with Env(TINYGRAD_MLIR_COMPILE=None):
                with self.assertRaisesRegex(CompilerNotFound, "make build"):
                    backend.find_compiler()
        finally:
            backend._REPO = saved


class TestNames(unittest.TestCase):
    def test_default_name_replaced_in_tinygrad_style(self):
        self.assertEqual(backend.kernel_name(add_one_ast()), "E_3")
        self.assertEqual(backend.kernel_name(matmul_ast(4, 5, 6)), "r_4_6_5")
        self.assertEqual(backend.kernel_name(var_sum_ast()), "r_n")

    def test_real_name_kept(self):
        a = add_one_ast()
        a.arg = F.KernelInfo(name="E_3_custom")
        self.assertEqual(backend.kernel_name(a), "E_3_custom")


class TestParseResult(unittest.TestCase):
    GOOD = ('{"name":"k","object_hex":"7f454c460102","globals":[0],"outs":[0],"ins":[],"vars":[],"var_dtypes":[],'
            '"core_id_arg":-1,"global_size":[1,1,1],"uops":{},"compile_ms":1.5}')

    def test_good(self):
        r = backend.parse_result("noise\n" + self.GOOD + "\n")
        self.assertEqual(r["binary"], bytes.fromhex("7f454c460102"))

    def test_bad(self):
        for text, msg in (("", "printed nothing"), ("{", "invalid JSON"),
                          (self.GOOD.replace('"vars":[],', ''), "'vars' missing"),
                          (self.GOOD.replace('"uops":{},', ''), "'uops' missing"),
                          (self.GOOD.replace("7f454c46", "00000000"), "not ELF"),
                          (self.GOOD.replace("7f454c460102", "zz"), "not hex")):
            with self.assertRaisesRegex(MLIRCompileError, msg):
                backend.parse_result(text, "E_3")

    def test_error_names_kernel_and_pickles(self):
        e = MLIRCompileError("E_3 (ast 123)", "boom", "{}")
        self.assertIn("cannot compile kernel E_3 (ast 123): boom", str(e))
        e2 = pickle.loads(pickle.dumps(e))  # raised in tinygrad's compile workers
        self.assertEqual((e2.kernel, e2.detail, e2.ast_json, str(e2)), (e.kernel, e.detail, e.ast_json, str(e)))


class TestBuildProgram(unittest.TestCase):
    def test_fields(self):
        ast = add_one_ast()
        res = fake_result(globals=[1, 0], outs=[0], ins=[1], uops=fake_uops([1, 0], (4, 5, 6)))
        prg = backend.build_program(F.API, ast, res, "TARGET", source="SRC")
        self.assertIs(prg.op, Ops.PROGRAM)
        self.assertEqual([s.op for s in prg.src], [Ops.SINK, Ops.LINEAR, Ops.SOURCE, Ops.BINARY])
        # the compiler's LINEAR, its buffers the AST's own PARAMs, in `globals` order (tinygrad's to_elf)
        ast_params = {u.arg.slot: u for u in backend._toposort(ast) if u.op is Ops.PARAM}
        self.assertEqual([p.arg.slot for p in prg.src[1].src], [1, 0])
        self.assertTrue(all(p is ast_params[p.arg.slot] for p in prg.src[1].src))
        self.assertEqual((prg.src[2].arg, prg.src[3].arg), ("SRC", b"\x7fELF"))
        k = prg.src[0].arg
        self.assertEqual((k.name, k.estimates), ("test", F.Estimates(4, 5, 6)))  # the compiler's
        prg = backend.build_program(F.API, ast, res, "TARGET", estimates=(1, 2, 3))
        self.assertEqual(prg.src[0].arg.estimates, F.Estimates(1, 2, 3))  # TINYGRAD_MLIR_ESTIMATES=tinygrad
        self.assertEqual(prg.src[0].src, ast.src)
        info = prg.arg
        self.assertEqual((info.name, info.global_size, info.local_size, info.globals, info.outs, info.ins, info.target),
                         ("E_3", (1, 1, 1), (1, 1, 1), (1, 0), (0,), (1,), "TARGET"))

    def test_vars_are_the_asts_params_with_argument_slots(self):
        ast = var_sum_ast()
        prg = backend.build_program(F.API, ast, fake_result(vars=["n"]), None, estimates=(0, 0, 0))
        (v,) = prg.arg.vars
        self.assertEqual((v.arg.name, v.arg.slot, v.arg.vmin_vmax, v.op), ("n", 2, (1, 10), Ops.PARAM))
        self.assertIs(v.src[0].op, Ops.STACK)

    def test_core_id(self):
        prg = backend.build_program(F.API, var_sum_ast(),
                                    fake_result(vars=["n", "core_id"], core_id_arg=3, global_size=[4, 1, 1]), None,
                                    estimates=(0, 0, 0))
        n, core = prg.arg.vars
        self.assertEqual((n.arg.slot, core.arg.name, core.arg.slot, core.arg.vmin_vmax), (2, "core_id", 3, (0, 3)))
        self.assertEqual(prg.arg.global_size, (4, 1, 1))

    def test_mismatches_are_errors(self):
        ast = add_one_ast()
        for res, msg in ((fake_result(globals=[0, 5]), r"globals \[5\]"),
                         (fake_result(vars=["m"]), "var 'm'"),
                         (fake_result(vars=["core_id"], core_id_arg=1, global_size=[2, 1, 1]), "core_id_arg 1"),
                         (fake_result(vars=["core_id"], global_size=[2, 1, 1]), "core_id_arg is -1"),
                         (fake_result(global_size=[2, 1, 1]), "global_size")):
            with self.assertRaisesRegex(MLIRCompileError, "E_3.*" + msg):
                backend.build_program(F.API, ast, res, None, estimates=(0, 0, 0))

    def test_linear_must_list_the_globals(self):
        with self.assertRaisesRegex(MLIRCompileError, r"LINEAR's buffers \[0\] are not globals \[0, 1\]"):
            backend.build_program(F.API, add_one_ast(), fake_result(uops=fake_uops([0])), None)
        bad = fake_uops([0, 1])
        bad["linear"]["nodes"][1]["op"] = "NOT_AN_OP"
        with self.assertRaisesRegex(MLIRCompileError, "program UOps cannot be rebuilt"):
            backend.build_program(F.API, add_one_ast(), fake_result(uops=bad), None)

    def test_applied_opts_are_the_compilers(self):
        uops = fake_uops([0, 1])
        uops["applied_opts"] = [{"kind": "Opt", "op": "UPCAST", "axis": 0, "arg": 4}]
        prg = backend.build_program(F.API, add_one_ast(), fake_result(uops=uops), None)
        self.assertEqual(prg.src[0].arg.applied_opts, (F.Opt(F.OptOps.UPCAST, 0, 4),))
        # an AST that comes with applied opts (BEAM's candidates) keeps them
        ast = add_one_ast()
        ast.arg = F.KernelInfo(applied_opts=(F.Opt(F.OptOps.UNROLL, 0, 2),))
        prg = backend.build_program(F.API, ast, fake_result(), None)
        self.assertEqual(prg.src[0].arg.applied_opts, (F.Opt(F.OptOps.UNROLL, 0, 2),))

    def test_symbolic_estimates_use_the_programs_variable(self):
        # ops = n*2: a graph over the variable's PARAM, rebuilt with the PROGRAM's own `n`
        uops = fake_uops([0, 1])
        n = {"kind": "ParamArg", "slot": -1, "dtype": "weakint", "vmin_vmax": [1, 10], "multiple_of": 1,
             "name": "n", "addrspace": "ALU", "axis": None, "device": None, "volatile": False}
        uops["estimates"]["ops"] = {"nodes": [
            {"id": 0, "op": "STACK", "dtype": "void", "src": [], "arg": None, "tag": None},
            {"id": 1, "op": "PARAM", "dtype": "weakint", "src": [0], "arg": n, "tag": None},
            {"id": 2, "op": "CONST", "dtype": "weakint", "src": [], "arg": 2, "tag": None},
            {"id": 3, "op": "MUL", "dtype": "weakint", "src": [1, 2], "arg": None, "tag": None}], "root": 3}
        prg = backend.build_program(F.API, var_sum_ast(), fake_result(vars=["n"], uops=uops), None)
        ops = prg.src[0].arg.estimates.ops
        self.assertIs(ops.src[0], prg.arg.vars[0])
        self.assertEqual(evaluate(ops, {"n": 7}), 14)

    def test_device_range_needs_device_num(self):
        d = rng(1, 2, F.AxisType.DEVICE)
        ast = add_one_ast()
        ast.src = (UOp(Ops.END, dtypes.void, (ast.src[0], d)),)
        with self.assertRaisesRegex(MLIRCompileError, "DEVICE range"):
            backend.build_program(F.API, ast, fake_result(), None, estimates=(0, 0, 0))
        prg = backend.build_program(F.API, ast, fake_result(vars=["_device_num"]), None, estimates=(0, 0, 0))
        self.assertEqual(prg.arg.vars[0].arg.vmin_vmax, (0, 1))


@needs_compiler
class TestCompileAndRun(unittest.TestCase):
    def test_add_one(self):
        res, ast_json, name = backend.compile_kernel(add_one_ast())
        self.assertEqual(name, "E_3")
        self.assertIn('"op":"SINK"', ast_json)
        self.assertEqual((res["globals"], res["outs"], res["ins"], res["vars"], res["core_id_arg"]),
                         ([0, 1], [0], [1], [], -1))
        self.assertEqual(res["binary"][:4], b"\x7fELF")
        prg = backend.build_program(F.API, add_one_ast(), res, None, source=ast_json)
        # tinygrad: Tensor([1,2,3])+1 -> Estimates(ops=3, lds=24, mem=24)
        self.assertEqual(prg.src[0].arg.estimates, F.Estimates(3, 24, 24))
        # the LINEAR: a loop (or its lanes) loading, adding and storing
        ops = [u.op for u in prg.src[1].src]
        self.assertEqual(ops[:2], [Ops.PARAM, Ops.PARAM])
        for want in (Ops.LOAD, Ops.ADD, Ops.STORE):
            self.assertIn(want, ops)
        self.assertLess(ops.index(Ops.LOAD), ops.index(Ops.ADD))
        self.assertLess(ops.index(Ops.ADD), ops.index(Ops.STORE))
        if CLANG:
            out, inp = (ctypes.c_int32 * 3)(), (ctypes.c_int32 * 3)(1, 2, 3)
            with tempfile.TemporaryDirectory() as tmp:
                run_object(res, [ctypes.cast(b, ctypes.c_void_p) for b in (out, inp)], tmp)
            self.assertEqual(list(out), [2, 3, 4])

    @unittest.skipIf(CLANG is None, "no clang to link the object")
    def test_matmul_runs(self):
        m, k, n = 3, 4, 5
        res, _, _ = backend.compile_kernel(matmul_ast(m, k, n))
        a = [float(i % 7) - 3 for i in range(m * k)]
        b = [float(i % 5) * 0.5 for i in range(k * n)]
        c, ca, cb = (ctypes.c_float * (m * n))(), (ctypes.c_float * (m * k))(*a), (ctypes.c_float * (k * n))(*b)
        by_slot = {0: c, 1: ca, 2: cb}
        with tempfile.TemporaryDirectory() as tmp:
            run_object(res, [ctypes.cast(by_slot[s], ctypes.c_void_p) for s in res["globals"]], tmp)
        want = [sum(a[i * k + x] * b[x * n + j] for x in range(k)) for i in range(m) for j in range(n)]
        self.assertEqual([round(x, 4) for x in c], want)

    def test_matmul_estimates_and_linear(self):
        # tinygrad's Estimates of its own matmul: a MUL and the accumulate per (i, j, l), two loads per
        # (i, j, l), one store per (i, j), each buffer's bytes at most once
        m, k, n = 4, 5, 6
        ast = matmul_ast(m, k, n)
        ast.arg = F.KernelInfo(opts_to_apply=())  # the reduce a loop (a heuristic may unroll it)
        res, _, _ = backend.compile_kernel(ast)
        prg = backend.build_program(F.API, ast, res, None)
        self.assertEqual(prg.src[0].arg.estimates,
                         F.Estimates(2 * m * n * k, 4 * (2 * m * n * k + m * n), 4 * (m * k + k * n + m * n)))
        # the reduce as tinygrad lowers it: a REG accumulator stored before its loop, loaded, added to
        # and stored in it, read after it ends
        lin = prg.src[1].src
        ops = [u.op for u in lin]
        acc = [u for u in lin if u.op is Ops.BUFFER and u.arg.addrspace is F.AddrSpace.REG]
        self.assertEqual(len(acc), 1, ops)
        reg_stores = [i for i, u in enumerate(lin) if u.op is Ops.STORE and acc[0] in u.src[0].src]
        reduce_range = [i for i, u in enumerate(lin) if u.op is Ops.RANGE and u.arg[-1] is F.AxisType.REDUCE]
        self.assertEqual(len(reduce_range), 1, ops)
        end = next(i for i, u in enumerate(lin) if u.op is Ops.END and u.src[-1] is lin[reduce_range[0]])
        self.assertEqual(len(reg_stores), 2)
        self.assertLess(reg_stores[0], reduce_range[0])  # the identity, before the loop
        self.assertTrue(reduce_range[0] < reg_stores[1] < end)  # the accumulate, in it
        self.assertIn(Ops.LOAD, ops[end:])  # the sum, read after it

    def test_applied_opts(self):
        ast = add_one_ast(12)
        ast.arg = F.KernelInfo(opts_to_apply=(F.Opt(F.OptOps.UPCAST, 0, 3),))
        res, _, _ = backend.compile_kernel(ast)
        prg = backend.build_program(F.API, ast, res, None)
        self.assertEqual(prg.src[0].arg.applied_opts, (F.Opt(F.OptOps.UPCAST, 0, 3),))

    def test_symbolic_estimates(self):
        # out[0] = sum_{i<n} in[i]*2: the *2 moves after the sum (tinygrad's reduce_add_const_mul), so
        # n adds and one multiply, n float loads and one store; `in` capped at its 10 floats
        ast = var_sum_ast(10)
        res, _, _ = backend.compile_kernel(ast)
        est = backend.build_program(F.API, ast, res, None).src[0].arg.estimates
        for n in (1, 4, 10):
            self.assertEqual((evaluate(est.ops, {"n": n}), evaluate(est.lds, {"n": n}), evaluate(est.mem, {"n": n})),
                             (n + 1, 4 * n + 4, min(4 * n, 40) + 4))

    def test_variable_kernel(self):
        ast = var_sum_ast(10)
        res, _, _ = backend.compile_kernel(ast)
        self.assertEqual(res["vars"], ["n"])
        prg = backend.build_program(F.API, ast, res, None, estimates=(0, 0, 0))
        self.assertEqual([v.arg.slot for v in prg.arg.vars], [len(res["globals"])])
        if CLANG:
            out, inp = (ctypes.c_float * 1)(), (ctypes.c_float * 10)(*range(10))
            by_slot = {0: out, 1: inp}
            with tempfile.TemporaryDirectory() as tmp:
                run_object(res, [ctypes.cast(by_slot[s], ctypes.c_void_p) for s in res["globals"]] + [ctypes.c_int(4)],
                           tmp)
            self.assertEqual(out[0], 2.0 * (0 + 1 + 2 + 3))

    def test_int64_variable_keeps_its_width(self):
        # tinygrad's C declares `const long` and passes every argument in a 64-bit slot: as an i32
        # argument 2**35 arrived as 0 (issue 22)
        ast = var_store_ast(var("b", 0, 2**40, dtypes.int64))
        res, _, _ = backend.compile_kernel(ast)
        self.assertEqual((res["vars"], res["var_dtypes"]), (["b"], ["int64"]))
        backend.build_program(F.API, ast, res, None, estimates=(0, 0, 0))
        if CLANG:
            out = (ctypes.c_int64 * 1)()
            with tempfile.TemporaryDirectory() as tmp:
                run_object(res, [ctypes.cast(out, ctypes.c_void_p), ctypes.c_int64(2**35 + 7)], tmp)
            self.assertEqual(out[0], 2**35 + 7)
        # a weakint variable beyond int32 is tinygrad's long (pm_lower_weak), one within it int
        for hi, want in ((2**40, "int64"), (2**20, "int32")):
            res, _, _ = backend.compile_kernel(var_store_ast(var("w", 0, hi)))
            self.assertEqual(res["var_dtypes"], [want])
        # an object reading a 64-bit variable as 32 bits does not fit the AST
        with self.assertRaisesRegex(MLIRCompileError, "'b' is int64 in the AST, int32 in the object"):
            backend.build_program(F.API, ast, dict(res, var_dtypes=["int32"], vars=["b"]), None, estimates=(0, 0, 0))

    def test_rejected_kernel_names_it_and_is_saved(self):
        for via, why in (("subprocess", "tinygrad-compile exited 1"), ("capi", "TGC_COMPILE_FAILED")):
            with self.subTest(via=via):
                self.check_rejected(via, why)

    def check_rejected(self, via, why):
        # a STORE into a PARAM whose size is not bounded cannot be lowered
        bad = add_one_ast()
        bad.src[0].src[0].src[0].src[0].src = (var("m", 0, None),)
        with tempfile.TemporaryDirectory() as tmp:
            with Env(TINYGRAD_MLIR_SAVE_FAILED=tmp, TINYGRAD_MLIR_TRANSPORT=via):
                with self.assertRaises(MLIRCompileError) as cm:
                    backend.compile_kernel(bad)
            self.assertIn("cannot compile kernel E_3 (ast ", str(cm.exception))
            self.assertIn(why, str(cm.exception))
            self.assertIn("buffer size is not bounded", str(cm.exception))
            saved = sorted(os.listdir(tmp))
            self.assertEqual([os.path.splitext(f)[1] for f in saved], [".err", ".json"])
            with open(os.path.join(tmp, saved[0])) as f:
                self.assertIn("error", f.read())

    def test_compiler_crash_is_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "tinygrad-compile")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho 'it broke' >&2\nkill -SEGV $$\n")
            os.chmod(fake, 0o755)
            with Env(TINYGRAD_MLIR_COMPILE=fake):
                with self.assertRaisesRegex(MLIRCompileError, "E_3.*killed by signal 11: it broke"):
                    backend.compile_kernel(add_one_ast())


@needs_compiler
class TestCompileAndRunSubprocess(TestCompileAndRun):
    """The same through a tinygrad-compile process per kernel (TestCompileAndRun uses the default
    transport, the in-process C API when the library is built)."""

    def setUp(self):
        self.env = Env(TINYGRAD_MLIR_TRANSPORT="subprocess")
        self.env.__enter__()

    def tearDown(self):
        self.env.__exit__()

    def test_transport_is_reported(self):
        self.assertEqual(backend.transport(), "subprocess")
        self.assertIn("tinygrad-compile", backend.transport_description())
        with Env(TINYGRAD_MLIR_TRANSPORT="pigeon"):
            with self.assertRaisesRegex(ValueError, "TINYGRAD_MLIR_TRANSPORT='pigeon'"):
                backend.transport()
        with Env(TINYGRAD_MLIR_TRANSPORT=None, TINYGRAD_MLIR_COMPILE=None):
            self.assertEqual(backend.transport(), "capi")
            self.assertIn("libTinygradCAPI.so", backend.transport_description())
        with Env(TINYGRAD_MLIR_TRANSPORT=None, TINYGRAD_MLIR_COMPILE=COMPILER):
            self.assertEqual(backend.transport(), "subprocess")


class TestSitecustomize(unittest.TestCase):
    SITE = os.path.join(os.path.dirname(HERE), "tinygrad_mlir", "site")

    def run_py(self, code, dev):
        with tempfile.TemporaryDirectory() as tmp:
            # a second sitecustomize further down the path: ours must chain to it
            with open(os.path.join(tmp, "sitecustomize.py"), "w") as f:
                f.write("import os\nos.environ['CHAINED_SITECUSTOMIZE'] = '1'\n")
            env = {k: v for k, v in os.environ.items() if k not in ("DEV", "PYTHONPATH")}
            env["PYTHONPATH"] = os.pathsep.join([self.SITE, tmp])
            if dev is not None:
                env["DEV"] = dev
            return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp)

    def test_inactive_without_dev_mlir(self):
        p = self.run_py("import sys, os; print('tinygrad_mlir.tinygrad' in sys.modules, "
                        "os.environ.get('CHAINED_SITECUSTOMIZE'))", "CPU")
        self.assertEqual((p.returncode, p.stdout.strip()), (0, "False 1"), p.stderr)

    def test_active_with_dev_mlir(self):
        # without tinygrad importable the hook cannot load: a warning, not a crash
        p = self.run_py("import sys, os; print(os.environ.get('CHAINED_SITECUSTOMIZE'))", "CPU:MLIR")
        self.assertEqual((p.returncode, p.stdout.strip()), (0, "1"), p.stderr)
        try:
            import tinygrad  # noqa: F401
            have_tinygrad = True
        except ImportError:
            have_tinygrad = False
        if not have_tinygrad:
            self.assertIn("tinygrad-mlir: sitecustomize could not install the tinygrad hook", p.stderr)


if __name__ == "__main__":
    unittest.main()
