"""The tinygrad-independent half of the tinygrad backend: kernel AST -> our compiler -> PROGRAM.

tinygrad_mlir.tinygrad installs the hook into a live tinygrad; everything it does that does not
need tinygrad itself lives here, so the plumbing can be tested with stand-in objects:

* `transport()`       how kernels reach the compiler: "capi" (in-process, libTinygradCAPI.so via
                      tinygrad_mlir.capi) or "subprocess" (tinygrad-compile); see below.
* `find_compiler()`   where tinygrad-compile is (env TINYGRAD_MLIR_COMPILE, else the build tree).
* `compile_kernel()`  one kernel AST (a UOp) -> JSON -> the compiler -> checked result.
* `build_program()`   the PROGRAM UOp tinygrad executes: SINK(KernelInfo with the compiler's estimates),
                      the compiled program's LINEAR, SOURCE, BINARY, arg=ProgramInfo.

tinygrad classes reach this module only through the `api` argument (a namespace with UOp, Ops,
ProgramInfo, Estimates, variable, and what uop_json.graph_to_uops builds with), which the tests fill
with fakes.

Transport (TINYGRAD_MLIR_TRANSPORT): `capi` compiles in this process through the C API, `subprocess`
runs tinygrad-compile per kernel. Unset, it is `subprocess` if TINYGRAD_MLIR_COMPILE names a
compiler, else `capi` when the C API library is found (capi.find_library), else `subprocess`; the choice is reported (transport_description(),
the pytest header, TINYGRAD_MLIR_LOG). Either way a kernel the chosen transport cannot compile is an
error: nothing retries it on the other one.
"""
import contextlib
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import threading
import time

from .uop_json import _toposort, decode_arg, dtype_name, dumps, graph_to_uops

ENV_COMPILER = "TINYGRAD_MLIR_COMPILE"
ENV_TRANSPORT = "TINYGRAD_MLIR_TRANSPORT"
TRANSPORTS = ("capi", "subprocess")
_HERE = os.path.dirname(os.path.abspath(__file__))
# python/tinygrad_mlir/ -> repository root
_REPO = os.path.dirname(os.path.dirname(_HERE))


class CompilerNotFound(RuntimeError):
    pass


class MLIRCompileError(RuntimeError):
    """tinygrad-compile rejected (or crashed on) a kernel. Carries the kernel's name and AST JSON."""

    def __init__(self, kernel, message, ast_json=None):
        super().__init__(f"tinygrad-mlir: cannot compile kernel {kernel}: {message}")
        self.kernel, self.detail, self.ast_json = kernel, message, ast_json

    def __reduce__(self):  # raised in tinygrad's compile workers, unpickled in the parent
        return type(self), (self.kernel, self.detail, self.ast_json)


class PythonLock:
    """Serializes the Python of concurrent compiles (compile_threads.py): tinygrad's UOp constructor is not
    thread-safe. A compile thread runs under held(); the compiler itself (the C API call, the tinygrad-compile
    process), which touches no tinygrad object and releases the GIL, runs under released(), so that another
    thread's Python proceeds meanwhile. Outside held() (any other caller) released() does nothing."""

    def __init__(self):
        self._lock, self._mine = threading.Lock(), threading.local()

    @contextlib.contextmanager
    def held(self):
        self._lock.acquire()
        self._mine.held = True
        try:
            yield
        finally:
            self._mine.held = False
            self._lock.release()

    @contextlib.contextmanager
    def released(self):
        if not getattr(self._mine, "held", False):
            yield
            return
        self._mine.held = False
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
            self._mine.held = True


PYTHON_LOCK = PythonLock()


def find_compiler():
    """Path of the tinygrad-compile executable, or CompilerNotFound with what was tried."""
    env = os.environ.get(ENV_COMPILER)
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        raise CompilerNotFound(f"{ENV_COMPILER}={env!r} is not an executable file")
    tried = [os.path.join(_REPO, b, "bin", "tinygrad-compile") for b in ("build",)]
    try:
        from . import _installed  # written by `cmake --install`
        tried.insert(0, _installed.COMPILER)
    except ImportError:
        pass
    for p in tried:
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise CompilerNotFound(
        "tinygrad-mlir: tinygrad-compile not found (tried " + ", ".join(tried) +
        f"); build it with `make build` in {_REPO} or set {ENV_COMPILER} to its path")


def transport():
    """"capi" or "subprocess" (see the module docstring); ValueError for another value."""
    t = os.environ.get(ENV_TRANSPORT, "")
    if t:
        if t not in TRANSPORTS:
            raise ValueError(f"{ENV_TRANSPORT}={t!r}: expected one of {', '.join(TRANSPORTS)}")
        return t
    if os.environ.get(ENV_COMPILER):
        return "subprocess"
    from . import capi
    try:
        capi.find_library()
        return "capi"
    except capi.CAPINotFound:
        return "subprocess"


def transport_description():
    """e.g. 'capi (/repo/build/lib/libTinygradCAPI.so)', for reports."""
    try:
        t = transport()
        if t == "capi":
            from . import capi
            return f"capi ({capi.library_path()})"
        return f"subprocess ({find_compiler()})"
    except Exception as e:  # reported, not raised: the first compile raises it properly
        return f"unavailable ({e})"


# ---------------------------------------------------------------- naming

def _is_op(u, *names):
    return u.op.name in names


def _const_int(u):
    """The int value of a CONST node, else None (a symbolic size)."""
    if _is_op(u, "CONST") and isinstance(u.arg, int) and not isinstance(u.arg, bool):
        return u.arg
    return None


def kernel_name(ast, topo=None):
    """tinygrad's display name when the AST has one; otherwise one in tinygrad's style.

    The raw ASTs of scheduled kernels are all named 'test' (tinygrad names kernels while it
    optimizes them), so a default name is replaced by 'r_<sizes>' / 'E_<sizes>' from the ranges.
    """
    name = getattr(ast.arg, "name", None)
    if name and name != "test":
        return name
    topo = _toposort(ast) if topo is None else topo
    ranges = sorted((u for u in topo if _is_op(u, "RANGE")), key=lambda r: repr(r.arg))
    sizes = []
    for r in ranges:
        n = _const_int(r.src[0]) if r.src else None
        sizes.append(str(n) if n is not None else "n")
    kind = "r" if any(_is_op(u, "REDUCE") for u in topo) else "E"
    return "_".join([kind] + sizes)


def ast_digest(ast_json):
    return hashlib.sha1(ast_json.encode()).hexdigest()[:10]


# ---------------------------------------------------------------- compile

_RESULT_FIELDS = {"name": str, "object_hex": str, "globals": list, "outs": list, "ins": list,
                  "vars": list, "var_dtypes": list, "core_id_arg": int, "global_size": list, "uops": dict}


def parse_result(stdout, kernel="kernel"):
    """Decode and check tinygrad-compile's output line; returns the dict with `binary` (bytes) added."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    if not lines:
        raise MLIRCompileError(kernel, "tinygrad-compile printed nothing")
    try:
        res = json.loads(lines[-1])
    except ValueError as e:
        raise MLIRCompileError(kernel, f"tinygrad-compile printed invalid JSON ({e}): {lines[-1][:200]!r}") from None
    if not isinstance(res.get("object_hex"), str):
        raise MLIRCompileError(kernel, "tinygrad-compile result field 'object_hex' missing or not str")
    try:
        res["binary"] = bytes.fromhex(res["object_hex"])
    except ValueError:
        raise MLIRCompileError(kernel, "tinygrad-compile result object_hex is not hex") from None
    return check_result(res, kernel, "tinygrad-compile")


def check_result(res, kernel="kernel", source="the compiler"):
    """The fields build_program needs, with their types, and an ELF `binary`; returns res."""
    for k, t in _RESULT_FIELDS.items():
        if k != "object_hex" and not isinstance(res.get(k), t):
            raise MLIRCompileError(kernel, f"{source} result field {k!r} missing or not {t.__name__}")
    fmt = res.get("format", "elf")
    if not isinstance(res.get("binary"), bytes) or not res["binary"]:
        raise MLIRCompileError(kernel, f"{source} returned no binary")
    if fmt == "elf" and res["binary"][:4] != b"\x7fELF":
        raise MLIRCompileError(kernel, f"{source} returned an object that is not ELF")
    if fmt == "spirv" and res["binary"][:4] != b"\x03\x02\x23\x07":
        raise MLIRCompileError(kernel, f"{source} returned a SPIR-V module without SPIR-V's magic number")
    if fmt != "elf" and not (isinstance(res.get("local_size"), list) and len(res["local_size"]) == 3):
        raise MLIRCompileError(kernel, f"{source} returned a {fmt} kernel without a local_size")
    return res


def run_compiler(ast_json, kernel="kernel", compiler=None, timeout=None, max_threads=0, target=None):
    """Run tinygrad-compile on one AST JSON text (for `target`, default the host CPU); the parsed
    result or MLIRCompileError. max_threads: the cores the thread split may use (tinygrad's
    global_max; 0: the host's)."""
    compiler = compiler or find_compiler()
    if timeout is None:
        timeout = float(os.environ.get("TINYGRAD_MLIR_TIMEOUT", "600"))
    try:
        with PYTHON_LOCK.released():
            p = subprocess.run([compiler, "-", f"--max-threads={max_threads}"] + (["--target", target] if target else []),
                               input=ast_json.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise MLIRCompileError(kernel, f"tinygrad-compile timed out after {timeout:g}s", ast_json) from None
    err = p.stderr.decode(errors="replace").strip()
    if p.returncode != 0:
        why = f"tinygrad-compile exited {p.returncode}" if p.returncode > 0 else \
            f"tinygrad-compile was killed by signal {-p.returncode}"
        raise MLIRCompileError(kernel, f"{why}: {err or '(no diagnostic)'}", ast_json)
    try:
        return parse_result(p.stdout.decode(errors="replace"), kernel)
    except MLIRCompileError as e:
        e.ast_json = ast_json
        raise


_capi_local = threading.local()


def _capi_context():
    """This thread's C API context (a forked compile worker makes its own)."""
    from . import capi
    ctx = getattr(_capi_local, "ctx", None)
    if ctx is None or _capi_local.pid != os.getpid():
        _capi_local.ctx, _capi_local.pid = capi.Context(), os.getpid()
    return _capi_local.ctx


def compile_in_process(ast_json, kernel="kernel", max_threads=0, target=None):
    """The C API transport: the same result as run_compiler, or MLIRCompileError with the
    library's diagnostics."""
    from . import capi
    t0 = time.perf_counter()
    try:
        with PYTHON_LOCK.released(), _capi_context().import_json(ast_json, name=kernel) as mod, \
                (mod.compile(target, max_threads) if target else mod.compile_cpu(max_threads)) as k:
            res = k.result()
    except capi.CAPINotFound as e:
        raise MLIRCompileError(kernel, str(e), ast_json) from None
    except capi.CAPIError as e:
        raise MLIRCompileError(kernel, f"{e.status}: {e.message}", ast_json) from None
    res["compile_ms"] = (time.perf_counter() - t0) * 1e3
    try:
        return check_result(res, kernel, "the C API")
    except MLIRCompileError as e:
        e.ast_json = ast_json
        raise


def save_failure(directory, kernel, ast_json, message):
    """Write <dir>/<kernel>-<digest>.json (the AST) and .err (the diagnostic); returns the .json path."""
    os.makedirs(directory, exist_ok=True)
    base = os.path.join(directory, f"{kernel}-{ast_digest(ast_json)}")
    with open(base + ".json", "w", encoding="utf-8") as f:
        f.write(ast_json)
    with open(base + ".err", "w", encoding="utf-8") as f:
        f.write(message.rstrip() + "\n")
    return base + ".json"


def compile_kernel(ast, compiler=None, via=None, max_threads=0, target=None, save_failed=True):
    """AST -> (result dict, AST JSON text, display name). Raises MLIRCompileError naming the kernel.
    via: "capi" or "subprocess" (default: transport(); a `compiler` path means subprocess).
    max_threads: the cores the thread split may use (0: the host's). target: our target string
    ("vulkan", "cuda:sm_90", ...); None is the host CPU. save_failed: a failure is saved under
    TINYGRAD_MLIR_SAVE_FAILED (not a BEAM candidate's, most of which fail by design)."""
    topo = _toposort(ast)
    name = kernel_name(ast, topo)
    try:
        ast_json = dumps(ast)
    except Exception as e:  # an arg the JSON format cannot carry
        raise MLIRCompileError(name, f"cannot serialize the AST: {type(e).__name__}: {e}") from None
    label = f"{name} (ast {ast_digest(ast_json)})"
    via = via or ("subprocess" if compiler else transport())
    try:
        res = compile_in_process(ast_json, label, max_threads, target) if via == "capi" else \
            run_compiler(ast_json, label, compiler, max_threads=max_threads, target=target)
    except MLIRCompileError as e:
        if save_failed and os.environ.get("TINYGRAD_MLIR_SAVE_FAILED"):
            save_failure(os.environ["TINYGRAD_MLIR_SAVE_FAILED"], name, ast_json, e.detail)
        raise
    return res, ast_json, name


def beam_search(ast, amt, ignore_cache=False, max_threads=0, target=None, kernel=False):
    """Our BEAM search of `ast`'s opts (tgc_beam_search, C API transport only) for `target` (None: the
    CPU), timed on its runtime device -> its result dict ("opts": [{"op", "axis", "arg"}], "cached",
    "searched", "failures", ...). MLIRCompileError when the kernel cannot be searched.
    kernel=True: (that dict, the compile of the kernel its opts give as compile_kernel's result, the
    winning candidate's own, or None where the search has none: cached, not searched, a GPU target)."""
    from . import capi
    name = kernel_name(ast)
    try:
        ast_json = dumps(ast)
    except Exception as e:
        raise MLIRCompileError(name, f"cannot serialize the AST: {type(e).__name__}: {e}") from None
    label = f"{name} (ast {ast_digest(ast_json)})"
    if transport() != "capi":
        raise MLIRCompileError(label, "BEAM search with our compiler needs the C API transport "
                               "(TINYGRAD_MLIR_TRANSPORT=capi; TINYGRAD_MLIR_BEAM=tinygrad runs tinygrad's search)")
    try:
        with _capi_context().import_json(ast_json, name=label) as mod:
            if not kernel:
                return mod.beam_search(amt, max_threads=max_threads, ignore_cache=ignore_cache, target=target)
            res, k = mod.beam_search(amt, max_threads=max_threads, ignore_cache=ignore_cache, target=target,
                                     kernel=True)
            if k is None:
                return res, None
            t0 = time.perf_counter()
            with k:
                out = k.result()
            out["compile_ms"] = (time.perf_counter() - t0) * 1e3  # no compile: the search's kernel
    except capi.CAPIError as e:
        raise MLIRCompileError(label, f"BEAM search: {e.status}: {e.message}", ast_json) from None
    return res, check_result(out, label, "the C API")


# ---------------------------------------------------------------- PROGRAM

def _is_alu_param(u):
    a = getattr(u.arg, "addrspace", None)
    return _is_op(u, "PARAM") and a is not None and getattr(a, "name", a) == "ALU"


def _declared_dtype(u):
    """The dtype tinygrad's C declares variable PARAM `u` with: its own, or for a weakint one
    pm_lower_weak's default_dtype (int32, int64 where its bounds leave int32)."""
    name = dtype_name(u.dtype)
    if name != "weakint":
        return name
    lo, hi = getattr(u.arg, "vmin_vmax", None) or (None, None)
    return "int32" if lo is not None and -2**31 <= lo and hi < 2**31 else "int64"


_64BIT = {"int64", "uint64"}


def _with_slot(api, u, slot):
    if u.arg.slot == slot:
        return u
    return api.UOp(u.op, u.dtype, tuple(u.src), dataclasses.replace(u.arg, slot=slot), getattr(u, "tag", None))


def build_program(api, ast, res, target, source=None, estimates=None, name=None):
    """The PROGRAM UOp for `ast` compiled to `res` (parse_result's dict).

    PROGRAM(SINK(the AST's own srcs, arg=KernelInfo + estimates), LINEAR, SOURCE(source),
    BINARY(object)) with ProgramInfo(name, global_size, local_size, vars, globals, outs, ins, target):
    local_size (1,1,1) for the CPU, res["local_size"] for a GPU kernel (res["format"] not "elf"),
    whose global_size counts workgroups.
    The LINEAR, the estimates and the applied opts are the compiler's (res["uops"]): the kernel as
    compiled, in tinygrad's linear form (its buffer PARAMs first, in `globals` order, as tinygrad's to_elf reads
    them), and tinygrad's Estimates counted on it. Their PARAMs are the AST's own; `vars` are the
    AST's variable PARAMs in the compiler's argument order, with slot = their argument index (what
    tinygrad's own lowering gives them); `core_id` and `_device_num` are made with api.variable
    when the compiler asks for them. `estimates` ((ops, lds, mem) or an Estimates) replaces the
    compiler's (TINYGRAD_MLIR_ESTIMATES=tinygrad).
    """
    topo = _toposort(ast)
    name = name or kernel_name(ast, topo)
    bufs, var_params, device_ranges = {}, {}, []
    for u in topo:
        if _is_op(u, "PARAM"):
            if _is_alu_param(u):
                var_params.setdefault(u.arg.name, u)
            else:
                bufs.setdefault(u.arg.slot, u)
        if _is_op(u, "RANGE") and getattr(u.arg[-1], "name", None) == "DEVICE":
            device_ranges.append(u)

    def bad(msg):
        return MLIRCompileError(name, f"tinygrad-compile result does not fit the AST: {msg}")

    missing = [s for s in res["globals"] if s not in bufs]
    if missing:
        raise bad(f"globals {missing} are not buffer PARAM slots of the AST ({sorted(bufs)})")
    vars_ = []
    if len(res["var_dtypes"]) != len(res["vars"]):
        raise bad(f"var_dtypes {res['var_dtypes']} do not match vars {res['vars']}")
    for i, vname in enumerate(res["vars"]):
        # tinygrad passes each value in a 64-bit slot: a 64-bit variable the object reads as 32 bits
        # would lose its high half (2**35 read as 0)
        if vname in var_params and (_declared_dtype(var_params[vname]) in _64BIT) != (res["var_dtypes"][i] in _64BIT):
            raise bad(f"var {vname!r} is {_declared_dtype(var_params[vname])} in the AST, {res['var_dtypes'][i]} "
                      "in the object")
        slot = len(res["globals"]) + i
        if vname in var_params:
            vars_.append(_with_slot(api, var_params[vname], slot))
        elif vname == "core_id":
            if res["global_size"][0] < 1:
                raise bad(f"core_id with global_size {res['global_size']}")
            vars_.append(_with_slot(api, api.variable("core_id", 0, res["global_size"][0] - 1, "int"), slot))
        elif vname == "_device_num" and device_ranges:
            r = device_ranges[0]
            vars_.append(_with_slot(api, api.variable("_device_num", 0, _const_int(r.src[0]) - 1, "weakint"), slot))
        else:
            raise bad(f"var {vname!r} is not a variable of the AST ({sorted(var_params)})")
    if device_ranges and "_device_num" not in res["vars"]:
        raise bad("the AST has a DEVICE range but the compiler did not make it the _device_num argument")
    core = res["core_id_arg"]
    if core >= 0 and ("core_id" not in res["vars"] or core != len(res["globals"]) + res["vars"].index("core_id")):
        raise bad(f"core_id_arg {core} is not the core_id argument (vars {res['vars']})")
    if core < 0 and "core_id" in res["vars"]:
        raise bad("core_id is a var but core_id_arg is -1")
    gpu = res.get("format", "elf") != "elf"
    gs, ls = tuple(int(x) for x in res["global_size"]), (1, 1, 1)
    if gpu:
        # a GPU kernel: global_size workgroups (ints, or expressions of the variables: from its uops,
        # below) of local_size threads
        ls = tuple(int(x) for x in res["local_size"])
        if len(ls) != 3 or min(ls) < 1:
            raise bad(f"local_size {res['local_size']}")
        if core >= 0:
            raise bad("a GPU kernel with a core_id argument")
    elif len(gs) != 3 or min(gs) < 1 or (core < 0 and gs[0] != 1):
        raise bad(f"global_size {res['global_size']}")

    by_name = {v.arg.name: v for v in vars_}

    def own_param(arg):
        if getattr(getattr(arg, "addrspace", None), "name", None) == "ALU":
            return by_name.get(arg.name)
        return bufs.get(arg.slot) if getattr(getattr(arg, "addrspace", None), "name", None) == "GLOBAL" else None
    uops = res["uops"]
    try:
        linear = graph_to_uops(uops["linear"], api, own_param)
        compiled = tuple(x if isinstance(x, int) else graph_to_uops(x, api, own_param)
                         for x in (uops["estimates"][k] for k in ("ops", "lds", "mem")))
        applied = tuple(decode_arg(o, api) for o in uops["applied_opts"])
        if gpu:
            gs = tuple(x if isinstance(x, int) else graph_to_uops(x, api, own_param) for x in uops["global_size"])
    except (KeyError, TypeError, ValueError) as e:
        raise bad(f"its program UOps cannot be rebuilt: {type(e).__name__}: {e}") from None
    if gpu and (len(gs) != 3 or any(isinstance(x, int) and x < 1 for x in gs)):
        raise bad(f"global_size {gs}")
    lin_params = [u for u in linear.src if _is_op(u, "PARAM") and not _is_alu_param(u)]
    if [u.arg.slot for u in lin_params] != list(res["globals"]):
        raise bad(f"the LINEAR's buffers {[u.arg.slot for u in lin_params]} are not globals {res['globals']}")
    if estimates is None:
        estimates = compiled
    if isinstance(estimates, tuple):
        estimates = api.Estimates(*estimates)
    # an AST given with applied_opts (BEAM's candidates) gets no more from our apply_opts
    kinfo = dataclasses.replace(ast.arg, estimates=estimates, applied_opts=tuple(ast.arg.applied_opts) + applied)
    sink = api.UOp(api.Ops.SINK, ast.dtype, tuple(ast.src), kinfo, getattr(ast, "tag", None))
    info = api.ProgramInfo(name, gs, ls, tuple(vars_), tuple(res["globals"]), tuple(res["outs"]),
                           tuple(res["ins"]), target)
    src = (sink, linear,
           api.UOp(api.Ops.SOURCE, arg=source if source is not None else f"// {name}"),
           api.UOp(api.Ops.BINARY, arg=res["binary"]))
    return api.UOp(api.Ops.PROGRAM, src=src, arg=info)


def log(msg):
    print(f"tinygrad-mlir: {msg}", file=sys.stderr, flush=True)
