"""Our kernels compile in threads of this process instead of tinygrad's worker processes.

tinygrad's lower_and_compile (engine/realize.py) sends a schedule's new kernels to a pool of PARALLEL
spawned processes (the cores by default), each replaced after 16 kernels (BEAM_MAX_TASKS_PER_CHILD): every
replacement is a fresh interpreter importing tinygrad, this plugin and libTinygradCAPI.so again (about a
second here) while the caller waits, and every PROGRAM is pickled back. That suits tinygrad's own codegen,
which is Python holding the GIL. Ours is a C API call (or a tinygrad-compile process) that releases it, so
`install()` wraps lower_and_compile: the kernels it would compile for one of our renderers are compiled first,
by the calling thread and PARALLEL-1 helper threads (each with its own C API context, kept for the next
schedule), into tinygrad's to_program_cache, where the original finds them; the costliest compiles start first.
Everything else (other renderers, kernels BEAM searches, which tinygrad compiles in the caller too) goes its
usual way.

tinygrad's Python is not thread-safe (UOp's constructor looks its intern table up and fills it in two
steps), so each compile's Python (exporting the AST, rebuilding the PROGRAM) runs under backend.PYTHON_LOCK,
which backend releases only around the compiler itself.
"""
import os
import queue
from concurrent.futures import ThreadPoolExecutor

import tinygrad.engine.realize as _realize
from tinygrad.codegen import to_program_cache, to_program_key
from tinygrad.helpers import PARALLEL
from tinygrad.uop.ops import Ops

from . import backend

_helpers = None  # the helper threads (ThreadPoolExecutor), made on first use, grown if PARALLEL grows


def pending(linear, is_ours):
    """[(to_program_key, (ast, renderer))] of the kernels in `linear` that lower_and_compile would compile
    for a renderer `is_ours` accepts, deduplicated by key as it does them; none that BEAM searches."""
    todo = {}
    # kernel ASTs hold no CALLs: not walking into them saves most of the walk
    for c in linear.toposort(gate=lambda u: u.op not in (Ops.SINK, Ops.PROGRAM)):
        if c.op is not Ops.CALL or (a := _realize._get_call_to_compile(c)) is None:
            continue
        ast, ren = a
        if ast.op is not Ops.SINK or not is_ours(ren) or getattr(ast.arg, "beam", 0):
            continue
        if (key := to_program_key(ast, ren)) not in to_program_cache:
            todo.setdefault(key, a)
    return longest_first(list(todo.items()))


# What one op of a kernel costs to compile, in UOps of the AST: the decompositions a transcendental
# becomes (xsin's reductions are a few hundred ops, xexp2/xlog2 a few dozen), the rest one each.
_DECOMPOSED_SIZE = {Ops.SIN: 300, Ops.EXP2: 40, Ops.LOG2: 60, Ops.POW: 100}


def compile_cost(ast):
    """A kernel's compile time, roughly: its AST's UOps, a transcendental counted as what it decomposes into."""
    return sum(_DECOMPOSED_SIZE.get(u.op, 1) for u in ast.toposort())


def longest_first(todo):
    """`todo` with the costliest compiles first (longest-processing-time order): a long compile started
    last keeps one thread busy after the others have drained the queue (llama's rope kernel, 60-75 ms
    beside three of 13-16 ms, started second: its batch took 16 ms longer). Stable among equals."""
    return sorted(todo, key=lambda item: -compile_cost(item[1][0]))


def _helper_pool(n):
    global _helpers
    if _helpers is None or _helpers._max_workers < n:
        if _helpers is not None:
            _helpers.shutdown(wait=False)
        _helpers = ThreadPoolExecutor(max_workers=n, thread_name_prefix="tinygrad-mlir-compile")
    return _helpers


def compile_all(todo, compile_one, threads):
    """to_program_cache[key] = compile_one(ast, renderer) for each (key, (ast, renderer)) of `todo`, on the
    calling thread and threads-1 helpers. Once a compile fails no new one starts, and the failure of the
    earliest kernel in `todo` is raised when all have stopped."""
    work = queue.SimpleQueue()
    for i, item in enumerate(todo):
        work.put((i, item))
    failed = {}

    def drain():
        while not failed:
            try:
                i, (key, (ast, ren)) = work.get_nowait()
            except queue.Empty:
                return
            try:
                with backend.PYTHON_LOCK.held():
                    to_program_cache[key] = compile_one(ast, ren)
            except BaseException as e:  # raised on the calling thread below
                failed[i] = e
    n = max(1, min(threads, len(todo)))
    helpers = [_helper_pool(n - 1).submit(drain) for _ in range(n - 1)] if n > 1 else []
    drain()
    for h in helpers:
        h.result()
    if failed:
        raise failed[min(failed)]


def install(is_ours, compile_one):
    """Idempotent: wrap tinygrad's lower_and_compile so that the kernels of renderers `is_ours` accepts
    are compiled by compile_one(ast, renderer) (our do_to_program) here, PARALLEL at a time."""
    orig = _realize.lower_and_compile
    if getattr(orig, "_tinygrad_mlir", False):
        return

    def lower_and_compile(linear):
        todo = pending(linear, is_ours)
        if todo:
            # TINYGRAD_MLIR_CHECK builds tinygrad's own program beside each of ours, through tinygrad's disk
            # cache, whose SQLite connection only the thread that opened it may use: a helper thread's
            # reference build raised and its kernel went unchecked. Checking compiles on the caller.
            threads = 1 if os.environ.get("TINYGRAD_MLIR_CHECK", "") not in ("", "0") else int(PARALLEL.value)
            compile_all(todo, compile_one, threads)
        return orig(linear)
    lower_and_compile._tinygrad_mlir = True
    _realize.lower_and_compile = lower_and_compile
