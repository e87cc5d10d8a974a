"""tinygrad-mlir as tinygrad's CPU codegen: `DEV=CPU:MLIR` compiles every CPU kernel with our compiler.

Importing this module patches a live tinygrad (no tinygrad file is edited), as designed in
shared/reference/tinygrad-backend-hook.md (option A):

1. `MLIRRenderer(ClangRenderer)` joins the CPU device's renderer list, so `DEV=CPU:MLIR` (or
   `Context(DEV="CPU:MLIR")`) selects it; the device stays "CPU".
2. `tinygrad.codegen.do_to_program` is wrapped: for our renderer and a kernel SINK it serializes
   the raw kernel AST (uop_json), compiles it in-process through the C API (libTinygradCAPI.so) or
   with a `tinygrad-compile` subprocess (TINYGRAD_MLIR_TRANSPORT, below) and returns the
   compiled PROGRAM (SINK + KernelInfo with the estimates of the kernel as compiled, the LINEAR of
   its UOps as compiled, SOURCE = the AST JSON, BINARY = our ELF object, arg = ProgramInfo).
   Anything else goes to tinygrad's original.

3. `DEV=VULKAN` selects our GPU device (gpu_device.py, registered as tinygrad.runtime.ops_vulkan): its
   kernels are compiled for the target "vulkan" (tgc_compile_kernel) and dispatched through the
   runtime's Vulkan driver. No fallback there either.

4. Our kernels run through our runtime's CPU device (cpu_program.py): outside TinyJit their core_id
   lanes run in parallel (tinygrad's CPU runner calls them one after another); a TinyJit replays through
   one runtime graph (runtime_graph.py). Their large buffers are on huge pages (cpu_memory.py).

5. `tinygrad.engine.realize.lower_and_compile` is wrapped (compile_threads.py): a schedule's kernels
   for our renderers compile in threads of this process, PARALLEL at a time, instead of in
   tinygrad's spawned worker processes (a fresh interpreter every 16 kernels).

Use it as `import tinygrad_mlir.tinygrad`, as a pytest plugin (`-p tinygrad_mlir.tinygrad`), or
through python/tinygrad_mlir/site/sitecustomize.py on PYTHONPATH (for subprocesses).

Environment:
  TINYGRAD_MLIR_TRANSPORT=capi|subprocess  in-process C API, or one tinygrad-compile process per
                                 kernel. Default: subprocess if TINYGRAD_MLIR_COMPILE is set,
                                 else capi if the library is found, else subprocess;
                                 the pytest header and TINYGRAD_MLIR_LOG say which. No fallback
                                 from one to the other
  TINYGRAD_MLIR_CAPI=path        libTinygradCAPI.so (default: an install's, else <repo>/build/lib/)
  TINYGRAD_MLIR_COMPILE=path     the tinygrad-compile executable (default: <repo>/build/bin/)
  TINYGRAD_MLIR_FALLBACK=1       a kernel we cannot compile falls back to tinygrad's own codegen
                                 (logged to stderr); without it the error names the kernel
  TINYGRAD_MLIR_LOG=1|path       one line per compiled / rejected kernel, to stderr or appended
                                 to `path` (with the pytest test id, except from compile workers);
                                 a compiled kernel's line has its time by phase (codegen, llvm_opt,
                                 llvm_emit, ms) and the thread that compiled it
  TINYGRAD_MLIR_SAVE_FAILED=dir  write each rejected kernel's AST JSON and diagnostic there
  TINYGRAD_MLIR_ESTIMATES=tinygrad  diagnostic: KernelInfo.estimates from tinygrad's own lowering of
                                 the AST (Estimates.from_uops on its program) instead of the
                                 compiler's, which are counted on the kernel as we compiled it
  TINYGRAD_MLIR_TIMEOUT=seconds  per-kernel compile timeout (default 600)
  TINYGRAD_MLIR_CHECK=1          diagnostic: also build tinygrad's own program for each kernel; each
                                 launch of ours first runs tinygrad's on copies of the real
                                 buffers, then compares the outputs and reports (log; with
                                 SAVE_FAILED also the AST and the inputs as .npz) every kernel
                                 whose results differ; kernels compile on the calling thread, and
                                 one whose reference tinygrad cannot build is counted in
                                 stats["unchecked"] (tinygrad's C needs a clang that knows __bf16
                                 for bfloat16 kernels: CC=clang-22)
  TINYGRAD_MLIR_CHECK=exact      the same, floats compared bit for bit (NaNs as NaNs) instead of
                                 within 1e-5 (1e-2 at 16 bits)
  TINYGRAD_MLIR_CHECK=scaled     the same, floats within 1e-5 (1e-2) of each output's largest finite
                                 magnitude as well: a long sum summed in another order (our split
                                 accumulators) rounds in proportion to its terms, not to its value,
                                 which cancellation makes small (random-kernels --layers)
  TINYGRAD_MLIR_CHECK_CANDIDATES=N  with TINYGRAD_MLIR_CHECK: also compile N of BEAM's candidates of
                                 each kernel (its heuristic's opts and one or two of tinygrad's actions
                                 more, or one on the bare kernel: check_candidates.py) and compare each
                                 with ours on every launch (stats["candidates_mismatched"]); a
                                 candidate that fails to compile other than by an opt that does not
                                 apply is a rejection
  TINYGRAD_MLIR_BEAM=ours|tinygrad  whose search runs for BEAM=N (default ours: tgc_beam_search, our
                                 compiler and runtime, its own disk cache, on DEV=VULKAN for the
                                 vulkan target and timed on the runtime's Vulkan device; tinygrad:
                                 tinygrad's beam_search, its candidates compiled by us and timed by
                                 tinygrad)

Each kernel's thread split uses the renderer's global_max (tinygrad's CPU renderer: NUM_CPU_THREADS), as
tinygrad's heuristic does; tinygrad-compile gets it as --max-threads.

Tagged ASTs (ast.tag is not None: tinygrad's "don't optimize") and KernelInfo's opts_to_apply /
beam hints travel unchanged in the AST JSON: the compiler applies opts_to_apply exactly, else its
heuristic (none for a tagged AST or one with applied_opts), and the opts it applied come back as
KernelInfo.applied_opts. BEAM=N (KernelInfo.beam, as tinygrad's pm_beam sets it) on a kernel without
opts_to_apply runs a search first (TINYGRAD_MLIR_BEAM) whose opts become its opts_to_apply, as
tinygrad's apply_opts does with beam_search's result. NOOPT=1 (tinygrad's apply_opts skips its
heuristic) sends a kernel that names no opts with an empty opts_to_apply, so none are applied. An opt
in opts_to_apply the target refuses raises MLIROptError, which is tinygrad's KernelOptError too.
"""
import dataclasses
import os
import sys
import threading
import time

import tinygrad.codegen as _codegen
from tinygrad.device import Compiled
from tinygrad.dtype import dtypes
from tinygrad.renderer import Estimates
from tinygrad.renderer.cstyle import ClangRenderer
from tinygrad.codegen.opt import KernelOptError, Opt, OptOps
from tinygrad.dtype import AddrSpace, ConstFloat, Invalid
from tinygrad.uop.ops import AxisType, KernelInfo, Ops, ParamArg, ProgramInfo, UOp

from . import backend, check_candidates, compile_threads, cpu_memory, cpu_program, runtime_graph
from .backend import CompilerNotFound, MLIRCompileError  # noqa: F401 (re-exported)


class _API:
    """The tinygrad classes backend.build_program builds with."""
    UOp, Ops, ProgramInfo, Estimates = UOp, Ops, ProgramInfo, Estimates
    AxisType, AddrSpace, ParamArg, ConstFloat, Invalid = AxisType, AddrSpace, ParamArg, ConstFloat, Invalid
    Opt, OptOps = Opt, OptOps

    @staticmethod
    def dtype(name):
        return getattr(dtypes, name)

    @staticmethod
    def variable(name, lo, hi, dtype):
        return UOp.variable(name, lo, hi, getattr(dtypes, dtype), param=True)


class MLIRRenderer(ClangRenderer):
    """Selected by DEV=CPU:MLIR. Inherits Clang's capability flags (what tinygrad's tests query)
    and its C renderer + compiler, which only the TINYGRAD_MLIR_FALLBACK path uses."""


stats = {"compiled": 0, "fallback": 0, "failed": 0, "compile_s": 0.0, "checked": 0, "mismatched": 0,
         "unchecked": 0, "bf16_flushed": 0, "transport": None}


def _clang_flushes_bf16_stores():
    """Whether tinygrad's C (clang -O2 -march=native) may flush bfloat16 subnormals on this host.

    With AVX512-BF16 (or AVX-NE-CONVERT) clang's x86 backend holds a `__bf16` value in an f32 register
    and stores it with vcvtneps2bf16, which flushes subnormals to zero; where a loaded bf16 value
    crosses basic blocks to its store (a setitem's kept elements below a loop), tinygrad's kernel
    writes +-0 for a subnormal it only copies (random-kernels seed 1808 #56, `--assign --edges`: 13
    of 1860 values). That is the backend's conversion, not the AST's meaning, and it depends on where
    the register allocator puts the value, so it is counted apart (stats["bf16_flushed"]) rather
    than reproduced."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    except OSError:
        return False
    return "avx512_bf16" in flags or "avx_ne_convert" in flags


# TINYGRAD_MLIR_CHECK: the latest compared launch, {"label": ..., "outputs": {slot: (ours, tinygrad's)}} (numpy
# arrays), for callers that classify a mismatch themselves (scripts/random-kernels.py: tinygrad's C undefined)
last_check = {}
_original_do_to_program = None


def _env_on(name):
    return os.environ.get(name, "") not in ("", "0")


def _log(msg):
    """TINYGRAD_MLIR_LOG: '1' -> stderr, a path -> appended there (with the current pytest test)."""
    dest = os.environ.get("TINYGRAD_MLIR_LOG", "")
    if dest in ("", "0"):
        return
    if dest == "1":
        backend.log(msg)
        return
    import multiprocessing
    # a compile worker's environment holds the test that was running when the pool started
    in_worker = multiprocessing.current_process().name != "MainProcess"
    test = "" if in_worker else os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    with open(dest, "a", encoding="utf-8") as f:
        f.write(f"[pid {os.getpid()}] {test + ': ' if test else ''}{msg}\n")


def _tinygrad_estimates(ast, renderer):
    """tinygrad's own estimates: its lowering of this AST, linearized, counted by Estimates.from_uops."""
    from tinygrad.codegen import full_rewrite_to_sink, line_rewrite, pm_linearize_cleanups, linearize
    sink = full_rewrite_to_sink(ast, renderer, optimize=ast.tag is None)
    return Estimates.from_uops(tuple(line_rewrite(linearize(sink), pm_linearize_cleanups)), ignore_indexing=True)


class _SearchedOpts(Exception):
    """Carries tinygrad's apply_opts result out of full_rewrite_to_sink (TINYGRAD_MLIR_BEAM=tinygrad)."""


def _tinygrad_beam(ast, renderer):
    """tinygrad's own beam_search on `ast`, reached through its full_rewrite_to_sink (its steps before
    apply_opts); its candidates (tagged ASTs with applied_opts) are compiled by our do_to_program."""
    orig = _codegen.apply_opts

    def capture(sink, ren, beam=0):
        raise _SearchedOpts(orig(sink, ren, beam=beam).arg.applied_opts)
    _codegen.apply_opts = capture
    try:
        _codegen.full_rewrite_to_sink(ast, renderer)
    except _SearchedOpts as found:
        return tuple(found.args[0])
    finally:
        _codegen.apply_opts = orig
    raise MLIRCompileError(backend.kernel_name(ast), "tinygrad's full_rewrite_to_sink never reached apply_opts")


def cpu_threads(renderer):
    """The cores a kernel's thread split may use: the renderer's global_max (tinygrad's CPU renderer:
    NUM_CPU_THREADS), as tinygrad's heuristic reads it."""
    gm = getattr(renderer, "global_max", None)
    return int(gm[0]) if gm and isinstance(gm[0], int) and gm[0] > 0 else 0


def with_beam_opts(ast, renderer, target=None):
    """BEAM=N (ast.arg.beam) on a kernel that names no opts_to_apply: the searched opts as its
    opts_to_apply (tinygrad's apply_opts order: opts_to_apply, else beam, else the heuristic). Our
    search compiles for `target` (None: the CPU) and times on its runtime device."""
    return beam_searched(ast, renderer, target)[0]


def beam_searched(ast, renderer, target=None, kernel=False):
    """with_beam_opts' AST, and with kernel=True the compile result (compile_kernel's) of that AST where
    our search has it (the winning candidate's own compile: a CPU search that timed one), else None."""
    import dataclasses
    info = ast.arg
    if ast.tag is not None or info is None or getattr(info, "beam", 0) < 1 or info.opts_to_apply is not None:
        return ast, None
    compiled = None
    mode = os.environ.get("TINYGRAD_MLIR_BEAM", "ours")
    t0 = time.perf_counter()
    if mode == "tinygrad":
        opts, how = _tinygrad_beam(ast, renderer), "tinygrad's beam_search"
    elif mode == "ours":
        from tinygrad.helpers import CACHELEVEL, IGNORE_BEAM_CACHE
        res = backend.beam_search(ast, info.beam, ignore_cache=bool(IGNORE_BEAM_CACHE.value) or CACHELEVEL.value < 1,
                                  max_threads=0 if target else cpu_threads(renderer), target=target, kernel=kernel)
        if kernel:
            res, compiled = res
        opts = tuple(Opt(getattr(OptOps, o["op"]), o["axis"], o["arg"]) for o in res["opts"])
        detail = "cached" if res["cached"] else \
            f"{res['compiled']} compiled, {len(res['failures'])} failed, timed on {res['device']}" + \
            (f"; {res['rounds']} rounds, {res['compile_s']:.2f}s compiling, {res['time_s']:.2f}s timing"
             if all(k in res for k in ("rounds", "compile_s", "time_s")) else "")
        how = f"our search ({detail})"
        if res.get("heuristic"):
            # the kernel without BEAM won: it compiles with our heuristic (which may do more than its opts)
            stats["beam_s"] = stats.get("beam_s", 0.0) + time.perf_counter() - t0
            _log(f"BEAM={info.beam} {backend.kernel_name(ast)}: {how} in {time.perf_counter() - t0:.2f}s -> "
                 f"the heuristic's kernel {opts}")
            return ast, compiled
    else:
        raise ValueError(f"TINYGRAD_MLIR_BEAM is ours or tinygrad, not {mode!r}")
    stats["beam_s"] = stats.get("beam_s", 0.0) + time.perf_counter() - t0
    _log(f"BEAM={info.beam} {backend.kernel_name(ast)}: {how} in {time.perf_counter() - t0:.2f}s -> {opts}")
    return ast.replace(arg=dataclasses.replace(info, opts_to_apply=opts)), compiled


class MLIROptError(MLIRCompileError, KernelOptError):
    """A kernel whose opts_to_apply our compiler cannot apply (an opt the target refuses, as tinygrad's
    apply_opt raises for it): tinygrad's KernelOptError as well, which its callers (BEAM, the tests of
    opts) catch."""


def compile_kernel(ast, **kwargs):
    """backend.compile_kernel, an opt it could not apply raised as MLIROptError."""
    try:
        return backend.compile_kernel(ast, **kwargs)
    except MLIROptError:
        raise
    except MLIRCompileError as e:
        if "apply_opts: opts_to_apply[" not in e.detail:
            raise
        raise MLIROptError(e.kernel, e.detail, e.ast_json) from e


def without_heuristic_under_noopt(ast):
    """NOOPT=1: tinygrad's apply_opts skips its heuristic (opts_to_apply and BEAM still apply). Our
    compiler runs its heuristic on a kernel that names no opts, so such a kernel gets an empty
    opts_to_apply: the opts applied are then exactly none."""
    import dataclasses
    from tinygrad.helpers import NOOPT
    info = ast.arg
    if not NOOPT.value or ast.tag is not None or (info is not None and (info.opts_to_apply is not None or
                                                                         info.applied_opts != () or info.beam >= 1)):
        return ast  # (a BEAM kernel's search chose: the heuristic's kernel when it won)
    return ast.replace(arg=dataclasses.replace(info if info is not None else KernelInfo(), opts_to_apply=()))


def with_forced_transcendentals(ast, renderer):
    """TRANSCENDENTAL>=2: tinygrad decomposes EXP2, LOG2 and SIN, and SQRT as xpow(x, 0.5), even where
    the renderer computes them. Our compiler never sees the context variable; it decomposes what its
    target lacks as tinygrad's late decompositions do (EXP2, LOG2 and SIN on the CPU and Vulkan), and
    every target of ours computes SQRT. So SQRT, and what the renderer says it computes
    (code_for_op), is rewritten in the kernel's AST with tinygrad's own patterns before it is compiled
    or searched. Not covered: CUDA's and AMD's own EXP2/LOG2/SIN (their renderer here names no ops).
    (Rewriting EXP2/LOG2/SIN in the AST on the CPU too moved 35 of 2008 sin values by an ulp: the late
    decomposition is the one tinygrad's values follow.)"""
    from tinygrad.helpers import TRANSCENDENTAL
    if TRANSCENDENTAL.value < 2:
        return ast
    from tinygrad.codegen.decomp.transcendental import get_transcendental_patterns
    from tinygrad.uop.ops import graph_rewrite
    lacks = tuple(op for op in (Ops.EXP2, Ops.LOG2, Ops.SIN) if op not in renderer.code_for_op)
    return graph_rewrite(ast, get_transcendental_patterns(lacks, False), name="forced transcendentals")


def compile_to_program(ast, renderer):
    """Our do_to_program for a kernel SINK: the compiled PROGRAM UOp, or MLIRCompileError."""
    t0 = time.perf_counter()
    if stats["transport"] is None:
        stats["transport"] = backend.transport_description()
        _log(f"transport {stats['transport']}")
    # a search's winner is compiled already (the same kernel compile_kernel gives for the AST it returns)
    ast, res = beam_searched(with_forced_transcendentals(ast, renderer), renderer, kernel=True)
    ast = without_heuristic_under_noopt(ast)
    if res is None:
        res, ast_json, name = compile_kernel(ast, max_threads=cpu_threads(renderer))
    else:
        ast_json, name = backend.dumps(ast), backend.kernel_name(ast)
    est = _tinygrad_estimates(ast, renderer) if os.environ.get("TINYGRAD_MLIR_ESTIMATES") == "tinygrad" else None
    prg = backend.build_program(_API, ast, res, renderer.target, source=ast_json, estimates=est, name=name)
    stats["compiled"] += 1
    stats["compile_s"] += time.perf_counter() - t0
    phases = " ".join(f"{k} {v:.1f}" for k, v in res.get("phases", {}).items())
    _log(f"compiled {name} (ast {backend.ast_digest(ast_json)}) in {res.get('compile_ms', 0):.1f} ms "
         f"({phases + ', ' if phases else ''}{threading.current_thread().name}), "
         f"{len(res['binary'])} B, globals {res['globals']}, vars {res['vars']}, global_size {res['global_size']}")
    if _env_on("TINYGRAD_MLIR_CHECK"):
        prg = register_check(ast, renderer, prg, name, ast_json)
        if check_candidates.wanted() and prg.key in _check_refs and ast.tag is None and ast.arg is not None and \
                ast.arg.opts_to_apply is None and check_candidates.comparable(ast):
            _check_candidates[prg.key] = _compile_candidates(ast, renderer, res, name)
            _narrow_floats[prg.key] = any(getattr(u.dtype, "base", u.dtype) in (dtypes.float16, dtypes.bfloat16)
                                          for u in ast.toposort())
    return prg


_check_candidates = {}  # our PROGRAM's key -> [(opts, candidate PROGRAM)] (check_candidates.py)
# our PROGRAM's key -> whether its kernel computes in 16-bit floats: which of those values are rounded to 16 bits
# depends on the opts (a value tinygrad's C names per lane is rounded, docs/Design.md's rounding rule), so a
# candidate's outputs are compared with 16-bit floats' tolerance whatever the output's dtype
_narrow_floats = {}


def _compile_candidates(ast, renderer, res, name):
    """TINYGRAD_MLIR_CHECK_CANDIDATES: BEAM's candidates of the kernel, compiled (check_candidates.py)."""
    def compile_ast(a):
        r, a_json, n = compile_kernel(a, max_threads=cpu_threads(renderer), save_failed=False)
        return backend.build_program(_API, a, r, renderer.target, source=a_json, name=n)
    try:
        cands = check_candidates.compile_candidates(ast, check_candidates.opts_of(res), check_candidates.wanted(),
                                                    compile_ast, lambda e: isinstance(e, MLIROptError))
    except MLIRCompileError as e:
        stats["failed"] += 1
        _log(f"REJECTED a BEAM candidate of {name}: {e.detail.splitlines()[0][:300] if e.detail else ''}")
        if os.environ.get("TINYGRAD_MLIR_SAVE_FAILED") and getattr(e, "ast_json", None):
            backend.save_failure(os.environ["TINYGRAD_MLIR_SAVE_FAILED"], "candidate-" + name, e.ast_json, e.detail)
        return []
    stats["candidates"] = stats.get("candidates", 0) + len(cands)
    # tinygrad's own C for each candidate's opts: the candidate must give its values (the same rules as the
    # kernel's check), which the comparison with ours, whose opts sum in another order, cannot ask for
    # (seed 2238 #88: a half product rounded under UPCAST 1 4 that tinygrad's C compares unrounded)
    clang = ClangRenderer(dataclasses.replace(renderer.target, renderer="CLANG"))
    out = []
    for opts, prg in cands:
        cast = ast.replace(arg=dataclasses.replace(ast.arg, opts_to_apply=tuple(opts)))
        try:
            ref = _original_do_to_program(cast, clang)
        except Exception as e:  # opts our apply_opts takes and tinygrad's refuses: compared with ours only
            stats["candidates_unreferenced"] = stats.get("candidates_unreferenced", 0) + 1
            _log(f"CHECK {name} BEAM candidate {list(opts)}: tinygrad's codegen failed: {type(e).__name__}: {e}")
            ref = None
        out.append((opts, prg, ref, backend.dumps(cast)))
    return out


_check_refs = {}  # our PROGRAM's key -> (it, tinygrad's PROGRAM for the same AST, label, AST JSON, buffer dtypes)
# Whether launches compare BEAM's candidates with tinygrad's C under their opts too (check_candidates.py). Off
# for a kernel whose values C leaves undefined (random-kernels' float -> int casts out of range): there ours
# follows a documented rule, checked by the caller, and tinygrad's C whatever clang made of it
candidates_vs_tinygrad = True


def register_check(ast, renderer, prg, name, ast_json):
    """TINYGRAD_MLIR_CHECK: also build tinygrad's own (Clang) program for `ast`; every launch of
    ours is then compared with it on the same (real) inputs (see _CheckingProgram). Returns the PROGRAM
    to run: ours, its globals widened by the buffers only tinygrad's program reads (ours folded every
    read of them away), so that tinygrad hands the check those buffers too; ours is called without them."""
    import dataclasses
    label = f"{name} (ast {backend.ast_digest(ast_json)})"
    try:
        ref = _original_do_to_program(ast, ClangRenderer(dataclasses.replace(renderer.target, renderer="CLANG")))
    except Exception as e:
        stats["unchecked"] += 1  # compiled, run, but compared with nothing: callers report it
        _log(f"CHECK unavailable for {label}: tinygrad's codegen failed: {type(e).__name__}: {e}")
        return prg
    dts = {u.arg.slot: getattr(u.dtype, "base", u.dtype) for u in ast.toposort()
           if u.op is Ops.PARAM and not backend._is_alu_param(u)}
    ours_globals = prg.arg.globals
    if extra := set(ref.arg.globals) - set(ours_globals):
        _log(f"CHECK {label}: buffers {sorted(extra)} are read by tinygrad's program only")
        prg = prg.replace(arg=dataclasses.replace(prg.arg, globals=tuple(sorted(set(ours_globals) | extra))))
    _check_refs[prg.key] = (prg, ref, label, ast_json, dts, ours_globals)
    return prg


class _HostBuf:
    def __init__(self, data):
        import numpy as np
        self.arr = np.frombuffer(bytearray(data), dtype=np.uint8)
        self.va_addr, self.size = self.arr.ctypes.data, len(data)


class _CheckingProgram:
    """Runs tinygrad's program on copies of the buffers, then ours on the real ones, and compares."""

    def __init__(self, ours, ref_rt, prg, ref, label, ast_json, dts, ours_globals, candidates=(), narrow=False):
        self.ours, self.ref_rt, self.prg, self.ref = ours, ref_rt, prg, ref
        self.label, self.ast_json, self.dts, self.ours_globals = label, ast_json, dts, ours_globals
        self.candidates = candidates  # [(opts, PROGRAM, runtime)]: BEAM's candidates, each compared with ours
        self.narrow = narrow  # the kernel computes in 16-bit floats (_narrow_floats)

    def __getattr__(self, k):
        return getattr(self.ours, k)

    def __call__(self, *bufs, global_size=(1, 1, 1), local_size=(1, 1, 1), vals=(), wait=False, **kw):
        import ctypes
        by_slot = dict(zip(self.prg.arg.globals, bufs))
        before = {s: ctypes.string_at(b.va_addr, b.size) for s, b in by_slot.items()}
        copies = {s: _HostBuf(d) for s, d in before.items()}
        var_vals = {v.expr: x for v, x in zip(self.prg.arg.vars, vals) if v.expr != "core_id"}
        gs, ls = self.ref.arg.launch_dims(var_vals)
        self.ref_rt(*[copies[s] for s in self.ref.arg.globals], global_size=gs, local_size=ls,
                    vals=self.ref.arg.vals(var_vals), wait=True)
        ret = self.ours(*[by_slot[s] for s in self.ours_globals], global_size=global_size, local_size=local_size, vals=vals, wait=wait, **kw)
        self.compare(by_slot, before, copies, var_vals)
        for opts, cprg, crt, rprg, rrt, cjson in self.candidates:
            if not set(cprg.arg.globals) <= set(before):
                continue
            runs = {s: _HostBuf(d) for s, d in before.items()}
            cgs, cls = cprg.arg.launch_dims(var_vals)
            crt(*[runs[s] for s in cprg.arg.globals], global_size=cgs, local_size=cls, vals=cprg.arg.vals(var_vals),
                wait=True)
            # against tinygrad's C under the same opts
            like_tinygrad = False
            if rrt is not None and candidates_vs_tinygrad and set(rprg.arg.globals) <= set(before):
                refs = {s: _HostBuf(d) for s, d in before.items()}
                rgs, rls = rprg.arg.launch_dims(var_vals)
                rrt(*[refs[s] for s in rprg.arg.globals], global_size=rgs, local_size=rls,
                    vals=rprg.arg.vals(var_vals), wait=True)
                like_tinygrad = self.compare(runs, before, refs, var_vals, candidate=(opts, cprg),
                                             same_opts=(rprg, cjson))
            # against ours as run (itself compared with tinygrad's above): the opts only reorder its sums. Where
            # the candidate gives tinygrad's values under its opts, a difference from ours is tinygrad's own
            # between the two opts (seed 2266 #46: edge values in a half conv, 292 under the candidate's opts
            # in both compilers, -0.79 under the heuristics'): logged and counted, not a mismatch
            self.compare(runs, before, {s: _HostBuf(ctypes.string_at(b.va_addr, b.size)) for s, b in by_slot.items()},
                         var_vals, candidate=(opts, cprg), informational=like_tinygrad)
        return ret

    def compare(self, by_slot, before, copies, var_vals, candidate=None, same_opts=None, informational=False):
        """Outputs in by_slot (ours, or a candidate's: `candidate` = (opts, PROGRAM)) against copies:
        tinygrad's for the kernel; for a candidate ours as run (within the tolerance its other sum order
        needs), or with `same_opts` = (tinygrad's PROGRAM, the candidate's AST JSON) tinygrad's under the
        candidate's opts, by the same rules (our heuristic's unnamed steps reorder its sums there too)."""
        import ctypes
        import numpy as np
        from tinygrad.dtype import _to_np_dtype
        prg = self.prg if candidate is None else candidate[1]
        ref_prg = self.ref if same_opts is None else same_opts[0]
        vs_ours = candidate is not None and same_opts is None
        kind = "" if candidate is None else "candidates_" if vs_ours else "candidates_tinygrad_"
        label = self.label if candidate is None else f"{self.label} BEAM candidate {list(candidate[0])}"
        stats[kind + "checked"] = stats.get(kind + "checked", 0) + 1
        bad = []
        if candidate is None:
            last_check.clear()
            last_check.update(label=self.label, outputs={})
        for s in sorted(set(prg.arg.outs) | set(ref_prg.arg.outs)):
            dt = self.dts.get(s)
            npdt = _to_np_dtype(dt) if dt is not None and dt not in (dtypes.bfloat16, *dtypes.fp8s) else np.uint8
            ours = np.frombuffer(ctypes.string_at(by_slot[s].va_addr, by_slot[s].size), dtype=npdt)
            ref = np.frombuffer(copies[s].arr.tobytes(), dtype=npdt)
            if dt == dtypes.bfloat16:  # as the floats they hold (a NaN is a NaN, whatever its payload)
                ours, ref = (x.view(np.uint16).astype(np.uint32) << 16 for x in (ours, ref))
                ours, ref = ours.view(np.float32), ref.view(np.float32)
            if candidate is None:
                last_check["outputs"][s] = (ours.copy(), ref)
            if dt == dtypes.bfloat16 and candidate is None:  # bit for bit, as before, but for the NaN payload
                ok = (ours.view(np.uint32) == ref.view(np.uint32)) | (np.isnan(ours) & np.isnan(ref))
                if not ok.all() and _clang_flushes_bf16_stores():
                    # ours a subnormal where tinygrad's clang stored the zero of its sign (above)
                    flushed = ~ok & (ref == 0) & (ours != 0) & (np.abs(ours) < np.finfo(np.float32).tiny) & \
                        (np.signbit(ours) == np.signbit(ref))
                    if flushed.any():
                        stats["bf16_flushed"] += int(flushed.sum())
                        _log(f"CHECK {label}: slot {s}: {int(flushed.sum())} bf16 subnormals of ours that "
                             "tinygrad's clang flushed to zero (vcvtneps2bf16 stores)")
                        ok |= flushed
            elif ours.dtype.kind == "f" and os.environ.get("TINYGRAD_MLIR_CHECK") == "exact" and candidate is None:
                # (a candidate sums in its own order, our heuristic's steps no Opt names: never bit for bit)
                ok = (ours.view(f"u{ours.dtype.itemsize}") == ref.view(f"u{ours.dtype.itemsize}")) | \
                    (np.isnan(ours) & np.isnan(ref))
            elif ours.dtype.kind == "f":
                # A candidate sums in another order than ours by construction, and than tinygrad's C under the
                # same opts too: the steps our heuristic takes without an Opt are repeated around its opts (a
                # reduce split into lanes: seed 2258 #47, edge values summed to NaN where tinygrad's C under
                # UNROLL 0 4 says inf; seed 2254 #78, a half weight gradient 1.5 half ulps off, each partial
                # rounded to 16 bits). So both comparisons of a candidate leave the order's part out, as below
                tol = 1e-2 if ours.dtype.itemsize <= 2 or (candidate is not None and self.narrow) else 1e-5
                atol = tol
                finite = np.isfinite(ref)
                if (os.environ.get("TINYGRAD_MLIR_CHECK") == "scaled" or candidate is not None) and finite.any():
                    atol = tol * max(1.0, float(np.abs(ref[finite].astype(np.float64)).max()))
                ok = np.isclose(ours, ref, rtol=tol, atol=atol, equal_nan=True)
                if candidate is not None:
                    # a sum of infinities or near-overflowing terms is inf or NaN by its order (seed 2177 #13,
                    # edge values: NaN against inf), which the opts decide: only finite pairs are compared
                    ok |= ~(np.isfinite(ours) & np.isfinite(ref))
            else:
                ok = ours == ref
            if not ok.all():
                i = int(np.argmin(ok))
                bad.append(f"slot {s} ({ours.dtype}): {int((~ok).sum())}/{ok.size} differ, first at [{i}]: "
                           + (f"ours {ours[i]!r} vs tinygrad {ref[i]!r}" if candidate is None else
                              f"candidate {ours[i]!r} vs ours {ref[i]!r}" if vs_ours else
                              f"candidate {ours[i]!r} vs tinygrad {ref[i]!r}"))
        if not bad:
            return True
        if informational:
            stats["candidates_differ_like_tinygrad"] = stats.get("candidates_differ_like_tinygrad", 0) + 1
            _log(f"CHECK {label}: differs from our kernel as run, as tinygrad's C under its opts does from tinygrad's "
                 f"under its own: {'; '.join(bad)}")
            return False
        for key in ["mismatched"] if candidate is None else ["candidates_mismatched"] + \
                ([] if vs_ours else ["candidates_tinygrad_mismatched"]):
            stats[key] = stats.get(key, 0) + 1
        whose = "tinygrad's codegen" if candidate is None else "our kernel as run (the heuristic's)" if vs_ours else \
            "tinygrad's codegen under the same opts"
        msg = f"wrong result vs {whose} on the real inputs{f' (vars {var_vals})' if var_vals else ''}: " + \
            "; ".join(bad)
        _log(f"CHECK MISMATCH {label}: {msg}")
        if os.environ.get("TINYGRAD_MLIR_SAVE_FAILED"):
            # a candidate against tinygrad's: its AST, opts_to_apply included, so the case reruns those opts
            path = backend.save_failure(os.environ["TINYGRAD_MLIR_SAVE_FAILED"],
                                        ("wrong-" if vs_ours or candidate is None else "wrong-candidate-")
                                        + self.label.split()[0], self.ast_json if same_opts is None else same_opts[1],
                                        msg)
            # the inputs, by slot (raw bytes before the launch), to rerun the kernel, and tinygrad's outputs
            # (python/tools/case_from_mismatch.py makes a tinygrad-run case of them)
            np.savez(path[:-5] + ".inputs.npz", **{f"slot{s}": np.frombuffer(d, np.uint8) for s, d in before.items()})
            np.savez(path[:-5] + (".ours.npz" if vs_ours else ".tinygrad.npz"),
                     **{f"slot{s}": copies[s].arr.copy() for s in ref_prg.arg.outs},
                     **({"vars": np.array([[k, str(v)] for k, v in var_vals.items()])} if var_vals else {}))
        return False


def _install_check_runtime():
    orig = Compiled.runtime
    if getattr(orig, "_tinygrad_mlir", False):
        return

    def runtime(self, obj):
        rt = orig(self, obj)
        chk = _check_refs.get(obj.profile_key)
        if chk is None:
            return rt
        cands = [(opts, c, orig(self, c.to_elf()), r, None if r is None else orig(self, r.to_elf()), cjson)
                 for opts, c, r, cjson in _check_candidates.get(obj.profile_key, ())]
        return _CheckingProgram(rt, orig(self, chk[1].to_elf()), *chk, candidates=cands,
                                narrow=_narrow_floats.get(obj.profile_key, False))
    runtime._tinygrad_mlir = True
    Compiled.runtime = runtime


def compile_to_gpu_program(ast, renderer):
    """Our do_to_program for a kernel SINK on one of our GPU devices (gpu_device.py): compiled for
    renderer.mlir_target, the binary in gpu_device's container with the interface the runtime
    needs. No fallback: a kernel we cannot compile raises MLIRCompileError."""
    from . import gpu_device
    t0 = time.perf_counter()
    ast = without_heuristic_under_noopt(with_beam_opts(with_forced_transcendentals(ast, renderer), renderer,
                                                       target=renderer.mlir_target))
    res, ast_json, name = compile_kernel(ast, target=renderer.mlir_target)
    meta = {"format": res["format"], "entry": res["name"], "num_buffers": len(res["globals"]),
            "scalar_bytes": [8 if dt in backend._64BIT else 4 for dt in res["var_dtypes"]],
            "offsets_word": int(res.get("offsets_word", 0)), "local_size": list(res["local_size"])}
    res = {**res, "binary": gpu_device.pack_binary(meta, res["binary"])}
    prg = backend.build_program(_API, ast, res, renderer.target, source=ast_json, name=name)
    stats["compiled"] += 1
    stats["compile_s"] += time.perf_counter() - t0
    _log(f"compiled {name} for {renderer.mlir_target} (ast {backend.ast_digest(ast_json)}) in "
         f"{res.get('compile_ms', 0):.1f} ms, global_size {res['global_size']}, local_size {res['local_size']}")
    return prg


def do_to_program(ast, renderer):
    """Replacement for tinygrad.codegen.do_to_program (looked up there at call time)."""
    from .gpu_device import GPURenderer
    if isinstance(renderer, GPURenderer) and ast.op is Ops.SINK:
        try:
            return compile_to_gpu_program(ast, renderer)
        except MLIRCompileError as e:
            stats["failed"] += 1
            _log(f"REJECTED {e.kernel}: {e.detail.splitlines()[0][:300] if e.detail else ''}")
            raise
    if not (isinstance(renderer, MLIRRenderer) and ast.op is Ops.SINK):
        return _original_do_to_program(ast, renderer)
    try:
        return compile_to_program(ast, renderer)
    except MLIRCompileError as e:
        stats["failed"] += 1
        _log(f"REJECTED {e.kernel}: {e.detail.splitlines()[0][:300] if e.detail else ''}")
        if not _env_on("TINYGRAD_MLIR_FALLBACK"):
            raise
        stats["fallback"] += 1
        backend.log(f"FALLBACK to tinygrad's codegen for kernel {e.kernel}: {e.detail.splitlines()[0][:300]}")
        return _original_do_to_program(ast, renderer)


def _is_mlir(renderer):
    return isinstance(renderer, MLIRRenderer)


def _add_renderer(renderers):
    if MLIRRenderer not in renderers:
        renderers.append(MLIRRenderer)


def install():
    """Idempotent: register MLIRRenderer on CPU devices and wrap do_to_program."""
    global _original_do_to_program
    if getattr(_codegen.do_to_program, "_tinygrad_mlir", False):
        return
    _original_do_to_program = _codegen.do_to_program
    do_to_program._tinygrad_mlir = True
    _codegen.do_to_program = do_to_program

    orig_init = Compiled.__init__

    def __init__(self, device, allocator, renderers, *args, **kwargs):
        if device.split(":")[0].upper() == "CPU":
            renderers = list(renderers or [])
            _add_renderer(renderers)
        orig_init(self, device, allocator, renderers, *args, **kwargs)
        if device.split(":")[0].upper() == "CPU":
            cpu_program.install(self)
            cpu_memory.install(self, _is_mlir)
        runtime_graph.install(self)
    __init__._tinygrad_mlir = True
    if not getattr(Compiled.__init__, "_tinygrad_mlir", False):
        Compiled.__init__ = __init__

    if _env_on("TINYGRAD_MLIR_CHECK"):
        _install_check_runtime()

    # DEV=VULKAN: our GPU device, found by tinygrad as tinygrad.runtime.ops_vulkan
    from . import gpu_device
    gpu_device.install()

    # a schedule's kernels for our renderers compile in threads here, not in tinygrad's worker processes
    compile_threads.install(lambda r: isinstance(r, (MLIRRenderer, gpu_device.GPURenderer)), do_to_program)

    # CPU devices opened before this import
    from tinygrad.device import Device
    for dn in list(getattr(Device, "_opened_devices", ())):
        if dn.split(":")[0] == "CPU":
            try:
                _add_renderer(Device[dn].renderers)
                cpu_program.install(Device[dn])
                cpu_memory.install(Device[dn], _is_mlir)
                runtime_graph.install(Device[dn])
            except Exception:  # device usage disallowed here (e.g. a compile worker)
                pass


install()


# ---------------------------------------------------------------- pytest plugin (-p tinygrad_mlir.tinygrad)

def pytest_report_header(config):
    return [f"tinygrad-mlir: DEV={os.environ.get('DEV', '')!s} transport={backend.transport_description()}"]


def pytest_terminal_summary(terminalreporter):
    s = stats
    terminalreporter.write_line(
        f"tinygrad-mlir: {s['compiled']} kernels compiled in this process (compile workers not counted) "
        f"in {s['compile_s']:.1f}s via {s['transport'] or backend.transport_description()}, "
        f"{s['failed']} rejected, {s['fallback']} fell back" +
        (f", {s['checked']} checked against tinygrad, {s['mismatched']} differ" if s["checked"] else ""))
    g = runtime_graph.stats
    if g["graphs"]:
        terminalreporter.write_line(
            f"tinygrad-mlir: {g['graphs']} JIT graphs ({g['execs']} kernels, {g['copies']} copies) replayed "
            f"{g['launches']} times through the runtime")


if __name__ == "__main__":
    print(f"tinygrad-mlir hook installed; transport: {backend.transport_description()}", file=sys.stderr)
